/**
 * The lab's form rules and figures (companion §5, §9), kept out of the components so they can be
 * tested on their own: the start check, the cost entry in cents, and the Replit-only timer.
 */
import type { ExperimentStatus, SubmitCostsRequest } from '@wolfpack/core';

export const START_VALIDATION = { title: 'Validation Error', description: 'Please enter both project name and prompt' } as const;

/** Start is possible only when both the project name and the prompt have text after trimming. */
export function canStartExperiment(projectName: string, testPrompt: string): boolean {
  return projectName.trim() !== '' && testPrompt.trim() !== '';
}

/** The cost form's raw text, as typed (cents, and the optional time in ms). */
export interface CostsDraft {
  wolfpackReplitAssemblyCostCents: string;
  wolfpackReplitAssemblyTimeMs: string;
  replitOnlyCostCents: string;
}

export const EMPTY_COSTS: CostsDraft = { wolfpackReplitAssemblyCostCents: '', wolfpackReplitAssemblyTimeMs: '', replitOnlyCostCents: '' };

export type CostsErrors = Partial<Record<keyof CostsDraft, string>>;

export type CostsResult = { ok: true; value: SubmitCostsRequest } | { ok: false; errors: CostsErrors };

/** The highest cents the server accepts (a typo guard, see the core schema). */
const MAX_CENTS = 100_000_000;

/**
 * Parses the cost form: both costs are required whole cents ≥ 0; the assembly time is whole
 * milliseconds ≥ 0 and may stay empty.
 */
export function parseCostsDraft(draft: CostsDraft): CostsResult {
  const errors: CostsErrors = {};
  const assembly = wholeNumber(draft.wolfpackReplitAssemblyCostCents, 'Enter the assembly cost in cents', MAX_CENTS);
  const replitOnly = wholeNumber(draft.replitOnlyCostCents, 'Enter the Replit-only cost in cents', MAX_CENTS);
  const time = draft.wolfpackReplitAssemblyTimeMs.trim() === '' ? undefined : wholeNumber(draft.wolfpackReplitAssemblyTimeMs, '', Number.MAX_SAFE_INTEGER);
  if (typeof assembly === 'string') errors.wolfpackReplitAssemblyCostCents = assembly;
  if (typeof replitOnly === 'string') errors.replitOnlyCostCents = replitOnly;
  if (typeof time === 'string') errors.wolfpackReplitAssemblyTimeMs = time;
  if (typeof assembly !== 'number' || typeof replitOnly !== 'number' || typeof time === 'string') return { ok: false, errors };
  return {
    ok: true,
    value: { wolfpackReplitAssemblyCostCents: assembly, replitOnlyCostCents: replitOnly, ...(time === undefined ? {} : { wolfpackReplitAssemblyTimeMs: time }) },
  };
}

/** A whole number ≥ 0 and ≤ max from the text, or the sentence that says what is wrong. */
function wholeNumber(text: string, missing: string, max: number): number | string {
  const value = text.trim();
  if (value === '') return missing;
  if (!/^\d+$/.test(value)) return 'Enter a whole number (no decimals or signs)';
  const n = Number(value);
  if (n > max) return `Enter at most ${max}`;
  return n;
}

/** The Replit-only timer of an experiment, as the server recorded it. */
export interface ReplitTimes {
  replitOnlyStartedAt: string | null;
  replitOnlyCompletedAt: string | null;
  replitOnlyTotalTimeMs: number | null;
}

export type TimerState = 'idle' | 'running' | 'completed';

/** Not started; started without an end (it ticks, also after a reload); completed. */
export function timerState(times: ReplitTimes): TimerState {
  if (!times.replitOnlyStartedAt) return 'idle';
  return times.replitOnlyCompletedAt ? 'completed' : 'running';
}

/** Statuses that still wait for something: the run (running, or interrupted and resumable) or the costs. */
const OPEN_STATUSES: ReadonlySet<string> = new Set<ExperimentStatus>(['wolfpack_running', 'wolfpack_interrupted', 'wolfpack_complete']);

/**
 * True while an experiment is still under way: its run is open, its costs are still to be
 * entered, or its Replit-only timer is ticking. Plain /lab resumes the newest such experiment; a
 * finished one (costs in, or a failed run) is only opened from the history.
 */
export function experimentInProgress(experiment: ReplitTimes & { status: string }): boolean {
  return OPEN_STATUSES.has(experiment.status) || timerState(experiment) === 'running';
}

/**
 * The timer's reading at `nowMs`: 0 before the start, the time since the start while running,
 * and the recorded total once completed (the server's figure, not this browser's clock).
 */
export function timerElapsedMs(times: ReplitTimes, nowMs: number): number {
  const state = timerState(times);
  if (state === 'idle') return 0;
  const started = Date.parse(times.replitOnlyStartedAt!);
  if (state === 'completed') {
    if (times.replitOnlyTotalTimeMs !== null) return times.replitOnlyTotalTimeMs;
    return Math.max(0, Date.parse(times.replitOnlyCompletedAt!) - started);
  }
  return Number.isNaN(started) ? 0 : Math.max(0, nowMs - started);
}

/** A timer reading to the tenth of a second: '0:00.0', '1:05.3', '1:02:03.4'. */
export function formatTimer(ms: number): string {
  const tenths = Math.floor(Math.max(0, ms) / 100);
  const seconds = Math.floor(tenths / 10);
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  const tail = `${String(s).padStart(2, '0')}.${tenths % 10}`;
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${tail}` : `${m}:${tail}`;
}

/** A processing time in ms as seconds with 1 decimal: '12.3s'. */
export function formatProcessingTime(ms: number): string {
  return `${(ms / 1000).toFixed(1)}s`;
}
