/**
 * The Proven Code tab in each state it can be in: what it says, what it colours, and that the
 * output of generated code stays text. The Re-check round trip is in e2e/proven-code.spec.ts.
 */
import { describe, expect, it } from 'vitest';
import { failedRecord, passedRecord, unprovenRecord } from '../testing/verification-records';
import { renderMarkup, textsOf } from '../testing/render-markup';
import { ProvenCodePanel } from './proven-code-panel';

const render = (verification: Parameters<typeof ProvenCodePanel>[0]['verification']) =>
  renderMarkup(<ProvenCodePanel projectId="p1" verification={verification} />);

describe('ProvenCodePanel', () => {
  it('shows a passed record with its sentences and every check', () => {
    const html = render(passedRecord);
    expect(html).toContain('data-verdict="passed"');
    expect(textsOf(html, 'proven-verdict')).toEqual(['Passed']);
    expect(textsOf(html, 'proven-sentence')).toEqual([passedRecord.proven]);
    // Nothing left unproven: no "Not proven" line at all.
    expect(textsOf(html, 'not-proven-sentence')).toEqual([]);
    expect(textsOf(html, 'check-name')).toEqual(['syntax', 'html', 'page-load']);
    expect(textsOf(html, 'check-status')).toEqual(['Passed', 'Passed', 'Passed']);
    expect(textsOf(html, 'check-kind')).toEqual(['read', 'read', 'ran']);
    expect(textsOf(html, 'check-runtime')).toEqual(['web']);
    expect(textsOf(html, 'check-command')).toEqual(['chromium index.html']);
    expect(textsOf(html, 'check-files-count')).toEqual(['1 file covered', '1 file covered', '3 files covered']);
    expect(textsOf(html, 'check-file').slice(-3)).toEqual(['index.html', 'app.js', 'styles.css']);
    expect(textsOf(html, 'proven-coverage')[0]).toContain('3 of 3 files covered by a check · ran in the sandbox');
    expect(textsOf(html, 'recheck-button')).toEqual(['Re-check']);
    expect(html).toContain('bg-emerald-600');
  });

  it('shows a failed check with its test counts, problem location, command and output as text', () => {
    const html = render(failedRecord);
    expect(textsOf(html, 'proven-verdict')).toEqual(['Failed']);
    expect(textsOf(html, 'not-proven-sentence')).toEqual([failedRecord.notProven]);
    expect(html).toContain('data-check="tests" data-status="failed"');
    expect(textsOf(html, 'check-tests')).toEqual(['Tests: 2 passed, 1 failed']);
    expect(textsOf(html, 'problem-location')).toEqual(['app.test.js:12']);
    expect(textsOf(html, 'problem-message')).toEqual(['expected 3 to equal 4']);
    expect(textsOf(html, 'problem-command')).toEqual(['$ npm test']);
    // The output's markup is escaped text inside a <pre>, never an element.
    expect(html).toMatch(/<pre[^>]*data-testid="problem-output"[^>]*>AssertionError: expected 3 to equal 4\n {4}at &lt;script&gt;alert\(&quot;x&quot;\)&lt;\/script&gt;/);
    expect(html).not.toContain('<script>');
    // Green is the passed verdict's alone.
    expect(html).not.toContain('bg-emerald-600');
    // A failed gate can be repaired again, and the button's note says it is charged.
    expect(textsOf(html, 'proven-repair-again')).toEqual(['Repair again']);
    expect(textsOf(html, 'proven-repair-note')[0]).toMatch(/charged like a stage/);
    expect(textsOf(html, 'recheck-button')).toEqual(['Re-check']);
  });

  it('offers Repair again for a failed verdict only', () => {
    for (const record of [passedRecord, unprovenRecord]) {
      const html = render(record);
      expect(html).not.toContain('Repair again');
      expect(textsOf(html, 'recheck-button')).toEqual(['Re-check']);
    }
    expect(render(null)).not.toContain('Repair again');
  });

  it('calls a record that could not run "Not proven", with the reason and the skipped check, and no tick', () => {
    const html = render(unprovenRecord);
    expect(textsOf(html, 'proven-verdict')).toEqual(['Not proven']);
    expect(textsOf(html, 'not-proven-sentence')).toEqual(['not executed: no sandbox on this server (bubblewrap is not installed).']);
    expect(html).toContain('data-check="page-load" data-status="skipped"');
    expect(textsOf(html, 'check-reason')).toEqual(['Skipped: no sandbox on this server']);
    expect(textsOf(html, 'check-files-count')).toContain('1 file it would have covered');
    expect(textsOf(html, 'proven-coverage')[0]).toContain('nothing was run');
    // The verdict's badge is not the passed one (a check that passed still shows its own tick).
    expect(html).not.toContain('bg-emerald-600');
    expect(html).toContain('lucide-shield-question');
  });

  it('says of a skipped check that proves the project kind that the project is not proven without it', () => {
    const reason = 'Chromium is not installed on this server (Debian: apt-get install chromium)';
    const html = render({
      ...unprovenRecord,
      executed: true,
      notProven: `the built app was not rendered in a browser (${reason}).`,
      checks: [
        { check: 'render', kind: 'execution', runtime: 'web', status: 'skipped', files: ['index.html'], reason, problems: [], proves: true },
        { check: 'tests', kind: 'execution', runtime: 'node', status: 'skipped', files: [], reason: 'the project has no tests', problems: [] },
      ],
    });
    expect(textsOf(html, 'not-proven-sentence')).toEqual([`the built app was not rendered in a browser (${reason}).`]);
    expect(textsOf(html, 'check-reason')).toEqual([`Not run, so the project is not proven: ${reason}`, 'Skipped: the project has no tests']);
  });

  it('says there is no record yet and still offers Re-check', () => {
    for (const verification of [null, undefined]) {
      const html = render(verification);
      expect(textsOf(html, 'proven-none')[0]).toContain('No verification record for this version yet');
      expect(textsOf(html, 'recheck-button')).toEqual(['Re-check']);
      expect(html).not.toContain('data-testid="proven-verdict"');
    }
  });
});
