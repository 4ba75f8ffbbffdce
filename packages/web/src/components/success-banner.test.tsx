/**
 * The build screen's banner after `complete`, in every verdict a run can end with: only a passed
 * gate reads as success; a failed one says what failed; a run that could not be proven
 * says so; after "Repair again" (a run of Proven Code alone) it says it was a repair. Keep as is and
 * Repair again (clicks) are exercised in e2e/proven-code.spec.ts and e2e/repair-again.spec.ts.
 */
import type { VerificationSummary } from '@wolfpack/core';
import { describe, expect, it } from 'vitest';
import type { RunResult } from '../lib/pipeline-state';
import { renderMarkup, textsOf } from '../testing/render-markup';
import { bannerTitle, SuccessBanner } from './success-banner';

function render(verification: VerificationSummary | undefined, onlyStages: RunResult['onlyStages'] = null): string {
  const result: RunResult = { projectId: 'p-1', filesGenerated: 4, verification, executionSeconds: 12, onlyStages };
  return renderMarkup(<SuccessBanner result={result} onContinue={() => {}} onPublish={() => {}} onRepair={() => {}} />);
}

const problem = (n: number) => ({ path: `src/file${n}.js`, check: 'start', message: `TypeError number ${n}` });
const SPEC_ACTIONS = ['Copy for Replit', 'Push to GitHub', 'View Files', 'Continue Building'];

function expectSpecActions(html: string): void {
  for (const label of SPEC_ACTIONS) expect(html).toContain(`</svg>${label}</button>`);
}

describe('SuccessBanner', () => {
  it('passed: the ready title with the green tick and the proven sentence', () => {
    const html = render({ passed: true, checkedFiles: 4, problems: [], verdict: 'passed', proven: '4 files checked (syntax), starts cleanly.', notProven: '' });
    expect(html).toContain('data-verdict="passed"');
    expect(textsOf(html, 'success-title')).toEqual(['Your project is ready']);
    expect(textsOf(html, 'verification-passed')).toEqual(['Proven Code: 4 files checked (syntax), starts cleanly.']);
    expect(textsOf(html, 'verification-not-proven')).toEqual([]);
    expect(html).toContain('lucide-circle-check');
    expect(html).toContain('bg-emerald-600');
    expectSpecActions(html);
  });

  it('passed with files no check covered: says so beside the proven sentence', () => {
    const html = render({ passed: true, checkedFiles: 3, problems: [], verdict: 'passed', proven: '3 files checked (syntax).', notProven: '1 file not covered by any check (notes.md).' });
    expect(textsOf(html, 'verification-not-proven')).toEqual(['Not proven: 1 file not covered by any check (notes.md).']);
  });

  it('an older server (no verdict): passed falls back to the checked-files line', () => {
    const html = render({ passed: true, checkedFiles: 4, problems: [] });
    expect(textsOf(html, 'success-title')).toEqual(['Your project is ready']);
    expect(textsOf(html, 'verification-passed')).toEqual(['Proven Code: all 4 checked files passed.']);
  });

  it('unproven: "Ready — not proven" with the reason, no green tick', () => {
    const html = render({
      passed: true,
      checkedFiles: 4,
      problems: [],
      verdict: 'unproven',
      proven: '4 files checked (syntax, html).',
      notProven: 'not executed: no sandbox on this server (bubblewrap is not installed).',
    });
    expect(html).toContain('data-verdict="unproven"');
    expect(textsOf(html, 'success-title')).toEqual(['Ready — not proven']);
    expect(textsOf(html, 'verification-not-proven')).toEqual(['Not proven: not executed: no sandbox on this server (bubblewrap is not installed).']);
    expect(textsOf(html, 'verification-proven')).toEqual(['What was checked: 4 files checked (syntax, html).']);
    expect(textsOf(html, 'verification-passed')).toEqual([]);
    expect(html).not.toContain('lucide-circle-check');
    expect(html).not.toContain('emerald');
    expectSpecActions(html);
  });

  it('no verification at all: not proven either', () => {
    const html = render(undefined);
    expect(textsOf(html, 'success-title')).toEqual(['Ready — not proven']);
    expect(textsOf(html, 'verification-not-proven')).toEqual(['Proven Code reported nothing for this run, so nothing was proven.']);
    expect(html).not.toContain('lucide-circle-check');
  });

  it('failed: says what failed (the first five problems), links to every check, offers Keep as is', () => {
    const problems = [1, 2, 3, 4, 5, 6, 7].map(problem);
    const html = render({ passed: false, checkedFiles: 4, problems, verdict: 'failed', proven: '4 files checked (syntax).', notProven: 'start failed: 7 problems.' });
    expect(html).toContain('data-verdict="failed"');
    expect(textsOf(html, 'success-title')).toEqual(['Your project was built, but it did not pass Proven Code']);
    expect(textsOf(html, 'verification-not-proven')).toEqual(['start failed: 7 problems.']);
    expect(textsOf(html, 'verification-problem')).toEqual([1, 2, 3, 4, 5].map((n) => `src/file${n}.js: TypeError number ${n} (start)`));
    expect(textsOf(html, 'verification-more')).toEqual(['and 2 more']);
    expect(html).toContain('href="/projects/p-1?tab=proven-code"');
    expect(textsOf(html, 'keep-as-is')).toEqual(['Keep as is']);
    expect(textsOf(html, 'repair-again')).toEqual(['Repair again']);
    // A charged action says that it is one.
    expect(textsOf(html, 'repair-again-note')[0]).toMatch(/charged like a stage/);
    expect(html).not.toContain('lucide-circle-check');
    expect(html).not.toContain('emerald');
    expectSpecActions(html);
  });

  it('an older server (no verdict) with passed false is failed too', () => {
    const html = render({ passed: false, checkedFiles: 2, problems: [{ path: 'app.js', check: 'imports', message: 'Cannot find ./x' }] });
    expect(textsOf(html, 'success-title')).toEqual(['Your project was built, but it did not pass Proven Code']);
    expect(textsOf(html, 'verification-problem')).toEqual(['app.js: Cannot find ./x (imports)']);
    expect(textsOf(html, 'verification-more')).toEqual([]);
  });

  it('only a failed gate offers Repair again', () => {
    expect(render({ passed: true, checkedFiles: 4, problems: [], verdict: 'passed', proven: 'x', notProven: '' })).not.toContain('Repair again');
    expect(render({ passed: true, checkedFiles: 4, problems: [], verdict: 'unproven', proven: 'x', notProven: 'y' })).not.toContain('Repair again');
    expect(render(undefined)).not.toContain('Repair again');
  });

  it('after a repair run: says it was a repair of Proven Code alone, not a build, in every verdict', () => {
    const failed = render({ passed: false, checkedFiles: 4, problems: [problem(1)], verdict: 'failed', proven: '', notProven: 'start failed: 1 problem.' }, ['Proven Code']);
    expect(failed).toContain('data-run="repair"');
    expect(textsOf(failed, 'success-title')).toEqual(['Repair again did not make it pass Proven Code']);
    expect(textsOf(failed, 'success-summary')).toEqual(['Repair run: Proven Code alone on the project&#x27;s 4 files, in 12.0s']);
    expect(failed).not.toContain('generated');
    // It can be tried once more.
    expect(textsOf(failed, 'repair-again')).toEqual(['Repair again']);
    const passed = render({ passed: true, checkedFiles: 4, problems: [], verdict: 'passed', proven: '4 files checked.', notProven: '' }, ['Proven Code']);
    expect(textsOf(passed, 'success-title')).toEqual(['Repaired: your project passes Proven Code']);
    expect(passed).toContain('lucide-circle-check');
    const unproven = render({ passed: true, checkedFiles: 4, problems: [], verdict: 'unproven', proven: '4 files checked.', notProven: 'not executed.' }, ['Proven Code']);
    expect(textsOf(unproven, 'success-title')).toEqual(['Repaired — not proven']);
    expect(unproven).not.toContain('lucide-circle-check');
    expect(render({ passed: true, checkedFiles: 4, problems: [] }, null)).toContain('data-run="build"');
  });

  it("says the run's cost beside the savings estimate, and no saving when the run cost more", () => {
    const result: RunResult = { projectId: 'p-1', filesGenerated: 4, verification: undefined, executionSeconds: 13, onlyStages: null };
    const costly = renderMarkup(<SuccessBanner result={result} spentCents={80} onContinue={() => {}} onPublish={() => {}} onRepair={() => {}} />);
    expect(textsOf(costly, 'success-cost-savings')).toEqual(['Cost $0.80 · estimated savings about 0.5h and $0.65, $0.15 less than the run cost: no money saved']);
    expect(costly).toContain('data-outcome="cost-more"');
    expect(costly).not.toContain('$0.65 saved');
    const cheap = renderMarkup(<SuccessBanner result={result} spentCents={30} onContinue={() => {}} onPublish={() => {}} onRepair={() => {}} />);
    expect(textsOf(cheap, 'success-cost-savings')).toEqual(['Cost $0.30 · estimated savings about 0.5h and $0.65, $0.35 more than the run cost']);
    const free = renderMarkup(<SuccessBanner result={result} onContinue={() => {}} onPublish={() => {}} onRepair={() => {}} />);
    expect(textsOf(free, 'success-cost-savings')).toEqual(['No charge reported · estimated savings about 0.5h and $0.65']);
  });

  it('kept as is: the title still says it did not pass', () => {
    expect(bannerTitle('failed', true)).toBe('Kept as is: it did not pass Proven Code');
    expect(bannerTitle('passed', false)).toBe('Your project is ready');
    expect(bannerTitle('failed', true, true)).toBe('Kept as is: it did not pass Proven Code');
  });
});
