/** The Files tab's Proven Code badge: the verdict of the current version, or that one is being checked. */
import { describe, expect, it } from 'vitest';
import { renderMarkup, textsOf } from '../testing/render-markup';
import { failedRecord, passedRecord, unprovenRecord } from '../testing/verification-records';
import { ProvenCodeBadge } from './proven-code-badge';

const render = (props: Parameters<typeof ProvenCodeBadge>[0]) => renderMarkup(<ProvenCodeBadge {...props} />);
const href = '/projects/p1?tab=proven-code';

describe('ProvenCodeBadge', () => {
  it('names the verdict and its version, in green only when passed', () => {
    const passed = render({ verification: passedRecord, recheck: null, detailsHref: href });
    expect(textsOf(passed, 'proven-badge')).toEqual([`Proven Code: Passed · version ${passedRecord.version}`]);
    expect(passed).toContain('bg-emerald-600');
    expect(passed).toContain(`href="${href}"`);
    const unproven = render({ verification: unprovenRecord, recheck: null, detailsHref: href });
    expect(textsOf(unproven, 'proven-badge')[0]).toContain('Not proven');
    expect(unproven).not.toContain('bg-emerald-600');
    expect(render({ verification: failedRecord, recheck: null, detailsHref: href })).toContain('data-verdict="failed"');
  });

  it('says a new version is being checked, or could not be, over the record of an older one', () => {
    const checking = render({ verification: passedRecord, recheck: { version: 7, status: 'checking' }, detailsHref: href });
    expect(textsOf(checking, 'proven-badge')).toEqual(['Proven Code: checking version 7…']);
    expect(checking).not.toContain('Passed');
    const failed = render({ verification: passedRecord, recheck: { version: 7, status: 'failed' }, detailsHref: href });
    expect(textsOf(failed, 'proven-badge')[0]).toContain('could not check version 7');
  });

  it('says when the files were never checked', () => {
    expect(textsOf(render({ verification: null, recheck: null, detailsHref: href }), 'proven-badge')).toEqual(['Proven Code: not checked']);
  });
});
