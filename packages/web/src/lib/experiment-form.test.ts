import { describe, expect, it } from 'vitest';
import { canStartExperiment, EMPTY_COSTS, experimentInProgress, formatProcessingTime, formatTimer, parseCostsDraft, timerElapsedMs, timerState } from './experiment-form';

describe('canStartExperiment', () => {
  it('needs both a project name and a prompt with text after trimming', () => {
    expect(canStartExperiment('Recipes', 'A recipe box')).toBe(true);
    expect(canStartExperiment('', 'A recipe box')).toBe(false);
    expect(canStartExperiment('Recipes', '  \n ')).toBe(false);
    expect(canStartExperiment('   ', 'x')).toBe(false);
  });
});

describe('parseCostsDraft', () => {
  it('reads whole cents and the optional time', () => {
    expect(parseCostsDraft({ wolfpackReplitAssemblyCostCents: '300', wolfpackReplitAssemblyTimeMs: '', replitOnlyCostCents: ' 2000 ' })).toEqual({
      ok: true,
      value: { wolfpackReplitAssemblyCostCents: 300, replitOnlyCostCents: 2000 },
    });
    expect(parseCostsDraft({ wolfpackReplitAssemblyCostCents: '0', wolfpackReplitAssemblyTimeMs: '45000', replitOnlyCostCents: '0' })).toEqual({
      ok: true,
      value: { wolfpackReplitAssemblyCostCents: 0, wolfpackReplitAssemblyTimeMs: 45_000, replitOnlyCostCents: 0 },
    });
  });
  it('names each field that is missing or not a whole number', () => {
    expect(parseCostsDraft(EMPTY_COSTS)).toEqual({
      ok: false,
      errors: { wolfpackReplitAssemblyCostCents: 'Enter the assembly cost in cents', replitOnlyCostCents: 'Enter the Replit-only cost in cents' },
    });
    const result = parseCostsDraft({ wolfpackReplitAssemblyCostCents: '1.5', wolfpackReplitAssemblyTimeMs: '-3', replitOnlyCostCents: '100000001' });
    expect(result).toEqual({
      ok: false,
      errors: {
        wolfpackReplitAssemblyCostCents: 'Enter a whole number (no decimals or signs)',
        wolfpackReplitAssemblyTimeMs: 'Enter a whole number (no decimals or signs)',
        replitOnlyCostCents: 'Enter at most 100000000',
      },
    });
  });
});

describe('the Replit-only timer', () => {
  const start = '2026-05-04T10:00:00.000Z';
  const t0 = Date.parse(start);
  it('is idle, running or completed from the recorded times', () => {
    expect(timerState({ replitOnlyStartedAt: null, replitOnlyCompletedAt: null, replitOnlyTotalTimeMs: null })).toBe('idle');
    expect(timerState({ replitOnlyStartedAt: start, replitOnlyCompletedAt: null, replitOnlyTotalTimeMs: null })).toBe('running');
    expect(timerState({ replitOnlyStartedAt: start, replitOnlyCompletedAt: '2026-05-04T10:01:00.000Z', replitOnlyTotalTimeMs: 60_000 })).toBe('completed');
  });
  it('reads the time since the start while running (so a reload resumes it) and the total once completed', () => {
    expect(timerElapsedMs({ replitOnlyStartedAt: null, replitOnlyCompletedAt: null, replitOnlyTotalTimeMs: null }, t0 + 5000)).toBe(0);
    expect(timerElapsedMs({ replitOnlyStartedAt: start, replitOnlyCompletedAt: null, replitOnlyTotalTimeMs: null }, t0 + 65_300)).toBe(65_300);
    expect(timerElapsedMs({ replitOnlyStartedAt: start, replitOnlyCompletedAt: null, replitOnlyTotalTimeMs: null }, t0 - 500)).toBe(0);
    expect(timerElapsedMs({ replitOnlyStartedAt: start, replitOnlyCompletedAt: '2026-05-04T10:01:00.000Z', replitOnlyTotalTimeMs: 60_000 }, t0 + 999_999)).toBe(60_000);
  });
  it('formats to the tenth of a second', () => {
    expect(formatTimer(0)).toBe('0:00.0');
    expect(formatTimer(65_349)).toBe('1:05.3');
    expect(formatTimer(3_723_400)).toBe('1:02:03.4');
    expect(formatProcessingTime(12_345)).toBe('12.3s');
  });
});

describe('experimentInProgress', () => {
  const idle = { replitOnlyStartedAt: null, replitOnlyCompletedAt: null, replitOnlyTotalTimeMs: null };
  const ticking = { ...idle, replitOnlyStartedAt: '2026-11-01T10:00:00.000Z' };
  const stopped = { ...ticking, replitOnlyCompletedAt: '2026-11-01T10:05:00.000Z', replitOnlyTotalTimeMs: 300_000 };

  it('is under way while the run is open or the costs are still to come', () => {
    for (const status of ['wolfpack_running', 'wolfpack_interrupted', 'wolfpack_complete']) {
      expect(experimentInProgress({ ...idle, status }), status).toBe(true);
      expect(experimentInProgress({ ...stopped, status }), status).toBe(true);
    }
  });
  it('is finished once the costs are in or the run failed, unless the Replit timer still ticks', () => {
    for (const status of ['completed', 'wolfpack_failed']) {
      expect(experimentInProgress({ ...idle, status }), status).toBe(false);
      expect(experimentInProgress({ ...stopped, status }), status).toBe(false);
      expect(experimentInProgress({ ...ticking, status }), status).toBe(true);
    }
  });
});
