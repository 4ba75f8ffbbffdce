/**
 * What each stage of a run shows, from its stage events and how the run ended: the one rule the web
 * build screen and the CLI both draw, so neither calls a stage "Complete" that did not finish its work.
 * Browser-safe (exported from `@wolfpack/core`).
 */
import type { PipelineProgress, PipelineRole, StageEvent } from '../schemas/events.js';

/**
 * `pending`: not reached yet while the run goes on. `running`: started, not finished. `complete`:
 * finished its work (ok true). `failed`: finished without passing, or was running when the run
 * failed. `not-run`: never ran because the run failed before it. `skipped`: the run does not do this
 * stage at all ("Repair again" does Proven Code alone).
 */
export type StageStatus = 'pending' | 'running' | 'complete' | 'failed' | 'not-run' | 'skipped';

/** The part of a client's stage view this rule reads and writes. */
export interface StageStatusView {
  status: StageStatus;
  /** Why a failed stage failed, a phrase that follows "Failed: ". */
  reason?: string | undefined;
}

/**
 * Whether a stage event ends its stage rather than starting it. A finish says ok, or names why it
 * failed; a failed Proven Code gate ends with ok false and no reason, told from a start by counting
 * one more finished stage than the start did (a start's `current` is the stage's position). A stage
 * started again (a resumed run) has its first start's `current`, so it stays running.
 */
export function stageEventEnds(event: StageEvent, previous: StageStatusView | undefined, lastProgress: PipelineProgress | null | undefined): boolean {
  if (event.ok || event.reason !== undefined) return true;
  return previous?.status === 'running' && lastProgress != null && event.progress.current > lastProgress.current;
}

/** The status and reason a stage event gives its stage; `previous` is what the stage showed before it. */
export function stageStatusAfter(
  event: StageEvent,
  previous: StageStatusView | undefined,
  lastProgress: PipelineProgress | null | undefined,
): { status: 'running' | 'complete' | 'failed'; reason: string | undefined } {
  if (!stageEventEnds(event, previous, lastProgress)) return { status: 'running', reason: undefined };
  return event.ok ? { status: 'complete', reason: undefined } : { status: 'failed', reason: event.reason };
}

/**
 * The stages once the run failed with `error`: the stage that was running failed, with the error's
 * first sentence as its reason; stages not reached never ran. Finished and skipped stages keep what
 * they showed. (A run stopped for credits is not failed: it stays resumable, so this is not for it.)
 */
export function settleFailedStages<T extends StageStatusView>(stages: readonly T[], error: string): T[] {
  return stages.map((stage): T => {
    if (stage.status === 'running') return { ...stage, status: 'failed', reason: stage.reason ?? failureReason(error) };
    if (stage.status === 'pending') return { ...stage, status: 'not-run' };
    return stage;
  });
}

/** "The engines produced no files for this idea. Try again…" → "the engines produced no files for this idea". */
export function failureReason(error: string): string {
  const first = (error.split(/(?<=\.)\s/)[0] ?? error).trim().replace(/\.$/, '');
  // Lower the first letter of an ordinary word only ("The" → "the", "API" stays).
  return /^[A-Z][a-z]/.test(first) ? first[0]!.toLowerCase() + first.slice(1) : first;
}

/**
 * The words a stage status shows: 'Complete', 'Failed: the engines produced no files', 'Not run'.
 * `stopped`: the run stopped (interrupted, disconnected), so a running stage is not in progress.
 */
export function stageStatusLabel(view: StageStatusView, stopped = false): string {
  switch (view.status) {
    case 'complete':
      return 'Complete';
    case 'running':
      return stopped ? 'Stopped' : 'In Progress';
    case 'failed':
      // A Proven Code gate that found problems ran its checks: it did not pass, the banner says why.
      return view.reason ? `Failed: ${view.reason}` : 'Did not pass';
    case 'pending':
      return 'Pending';
    case 'not-run':
      return 'Not run';
    case 'skipped':
      return 'Not in this run';
    default: {
      const unreachable: never = view.status;
      return unreachable;
    }
  }
}

/** What the progress line shows: the bar's percent and "Stage {stage} of {total}". */
export interface ProgressDisplay {
  stage: number;
  total: number;
  percent: number;
}

/**
 * The bar and stage count, counting the stage that is running: while Checking (the third of five)
 * runs, "Stage 3 of 5" and the bar half-way through it (50 %); with none running, the stages finished
 * ("Stage 2 of 5", 40 % after Building failed). Only a completed run reaches 100 %.
 */
export function progressDisplay(progress: PipelineProgress, running: boolean): ProgressDisplay {
  const { total } = progress;
  if (total <= 0) return { stage: 0, total: 0, percent: 0 };
  const done = Math.min(progress.current, total);
  if (!running || done >= total) return { stage: done, total, percent: Math.round((done / total) * 100) };
  return { stage: done + 1, total, percent: Math.round(((done + 0.5) / total) * 100) };
}

/**
 * Seconds the run probably has left, `sinceSeconds` after `progress` arrived; null when it does not
 * know: before any stage finished (nothing to average), or once the estimate ran out while stages
 * remain (the run is slower than its average, so 0 would be a guess shown as a fact).
 */
export function remainingEstimate(progress: PipelineProgress | null | undefined, sinceSeconds = 0): number | null {
  if (!progress || progress.current <= 0) return null;
  if (progress.current >= progress.total) return 0;
  const left = progress.estimatedRemainingSeconds - sinceSeconds;
  return left > 0 ? left : null;
}

/** A stage as a run stores it when the stage ends (its checkpoint's `stages`, run-pipeline's StageRecord). */
export interface StoredStage {
  cycle: number;
  role: PipelineRole;
  ok: boolean;
  /** Why it failed, when it names that itself (stored since stages record it). */
  reason?: string | undefined;
  engine?: string | undefined;
  durationMs?: number | undefined;
  tokens?: number | undefined;
}

/** A stored run's stage with what happened to it: every stage the run was to do, not only those that ended. */
export interface RunStageRecord extends StoredStage {
  status: 'complete' | 'failed' | 'not-run' | 'pending';
}

/**
 * Every stage of a stored run (`roles` × `cycles`, in order) with what happened to it, so a run that
 * failed in Building reads "1/5 stages" with Building failed and the rest not run, never "1/1".
 * Stages stored as ended keep their result; after a failure the stage that was running when the run
 * failed (the next one, unless the last stored stage failed) gets the error's first sentence as its
 * reason, and the rest never ran. A run still going or interrupted (resumable) has them pending.
 */
export function runStageRecords(
  stored: readonly StoredStage[],
  run: { status: 'running' | 'completed' | 'failed' | 'interrupted'; error?: string | null | undefined; roles: readonly PipelineRole[]; cycles: number },
): RunStageRecord[] {
  const records: RunStageRecord[] = stored.map((stage) => ({ ...stage, status: stage.ok ? 'complete' : 'failed' }));
  const total = Math.max(run.roles.length * Math.max(1, run.cycles), records.length);
  const failedAlready = records.at(-1)?.ok === false;
  for (let position = records.length; position < total; position++) {
    const role = run.roles[position % run.roles.length]!;
    const cycle = Math.floor(position / run.roles.length) + 1;
    if (run.status === 'running' || run.status === 'interrupted') records.push({ cycle, role, ok: false, status: 'pending' });
    else if (run.status === 'failed' && !failedAlready && position === stored.length) {
      records.push({ cycle, role, ok: false, status: 'failed', ...(run.error ? { reason: failureReason(run.error) } : {}) });
    } else records.push({ cycle, role, ok: false, status: 'not-run' });
  }
  const last = records[stored.length - 1];
  if (run.status === 'failed' && failedAlready && last && last.reason === undefined && run.error) last.reason = failureReason(run.error);
  return records;
}
