import { describe, expect, it } from 'vitest';
import { formatRunDate, runTitle, stageSummary } from './run-history';

/** An ISO timestamp of a local wall-clock time (the formatter shows local time). */
const local = (year: number, month: number, day: number, hour: number, minute: number) =>
  new Date(year, month, day, hour, minute).toISOString();

describe('formatRunDate', () => {
  it('writes month abbreviation, day, hour:minute am/pm', () => {
    expect(formatRunDate(local(2026, 10, 5, 15, 7))).toBe('Nov 5, 3:07 pm');
    expect(formatRunDate(local(2026, 0, 31, 9, 30))).toBe('Jan 31, 9:30 am');
    expect(formatRunDate(local(2026, 11, 25, 23, 59))).toBe('Dec 25, 11:59 pm');
  });

  it('shows midnight and noon as 12', () => {
    expect(formatRunDate(local(2026, 2, 1, 0, 0))).toBe('Mar 1, 12:00 am');
    expect(formatRunDate(local(2026, 6, 4, 12, 5))).toBe('Jul 4, 12:05 pm');
  });

  it("says 'recently' for a missing or unparseable date", () => {
    for (const value of [undefined, null, '', '   ', 'not a date', '2026-13-45T99:99:99Z']) {
      expect(formatRunDate(value), String(value)).toBe('recently');
    }
  });
});

describe('stageSummary', () => {
  it('counts ok stages out of all, green only when every stage is ok', () => {
    const ok = { role: 'Planning', ok: true } as const;
    const bad = { role: 'Building', ok: false } as const;
    expect(stageSummary([ok, ok, ok, ok, ok])).toEqual({ completed: 5, total: 5, allOk: true, label: '5/5 stages', failure: null });
    expect(stageSummary([ok, bad, ok])).toEqual({ completed: 2, total: 3, allOk: false, label: '2/3 stages', failure: 'Building: Did not pass' });
    expect(stageSummary([]).allOk).toBe(false);
  });

  it('names the stage that failed and why, and counts the stages that never ran', () => {
    const stages = [
      { role: 'Planning', ok: true, status: 'complete' },
      { role: 'Building', ok: false, status: 'failed', reason: 'the engines produced no files' },
      { role: 'Checking', ok: false, status: 'not-run' },
      { role: 'Polishing', ok: false, status: 'not-run' },
      { role: 'Proven Code', ok: false, status: 'not-run' },
    ] as const;
    expect(stageSummary([...stages])).toMatchObject({ label: '1/5 stages', allOk: false, failure: 'Building: Failed: the engines produced no files' });
  });
});

describe('runTitle', () => {
  it("takes the idea's first line", () => {
    expect(runTitle('  A todo app\nwith tags')).toBe('A todo app');
    expect(runTitle('   ')).toBe('Untitled run');
  });
});
