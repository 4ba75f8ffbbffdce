import { describe, expect, it } from 'vitest';
import { bannerVerdict, checkKindLabel, formatCheckDuration, problemLocation, testCounts, VERDICT_LABEL } from './verification-view';

describe('bannerVerdict', () => {
  it('takes the verdict when there is one, and never calls a failed check passed', () => {
    expect(bannerVerdict({ passed: true, checkedFiles: 1, problems: [], verdict: 'unproven' })).toBe('unproven');
    expect(bannerVerdict({ passed: true, checkedFiles: 1, problems: [], verdict: 'passed' })).toBe('passed');
    expect(bannerVerdict({ passed: false, checkedFiles: 1, problems: [], verdict: 'failed' })).toBe('failed');
    // A summary that contradicts itself is read the cautious way.
    expect(bannerVerdict({ passed: false, checkedFiles: 1, problems: [], verdict: 'passed' })).toBe('failed');
  });

  it('falls back to passed/problems for servers that send no verdict, and to unknown without a summary', () => {
    expect(bannerVerdict({ passed: true, checkedFiles: 1, problems: [] })).toBe('passed');
    expect(bannerVerdict({ passed: false, checkedFiles: 1, problems: [] })).toBe('failed');
    expect(bannerVerdict(undefined)).toBe('unknown');
  });
});

describe('wording', () => {
  it('labels verdicts, kinds, locations, tests and durations', () => {
    expect(VERDICT_LABEL).toEqual({ passed: 'Passed', failed: 'Failed', unproven: 'Not proven' });
    expect(checkKindLabel('static')).toBe('read');
    expect(checkKindLabel('execution')).toBe('ran');
    expect(problemLocation({ path: 'a.js', line: 3 })).toBe('a.js:3');
    expect(problemLocation({ path: 'a.js' })).toBe('a.js');
    expect(testCounts({ passed: 8, failed: 1 })).toBe('8 passed, 1 failed');
    expect(formatCheckDuration(340)).toBe('340 ms');
    expect(formatCheckDuration(2870)).toBe('2.9 s');
  });
});
