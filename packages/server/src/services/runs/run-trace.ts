import { channel } from 'node:diagnostics_channel';

/**
 * Steps of a run's own time (outside its engine calls), published on a diagnostics channel for
 * `BENCH_TRACE=1 pnpm bench stream` (bench/run-trace.mjs listens inside the server's process).
 * Nothing listens in production, and then a step costs one boolean check.
 */
export type RunStep =
  /** The request's session (and its user) read: the first query of a signed-in request. */
  | 'session-read'
  /** The stream route runs: the middleware is behind. */
  | 'route'
  /** The pipeline gave its outcome: every engine answer is in and every check ran. */
  | 'pipeline-done'
  /** The end's writes start: the one statement (project, files, run completed, last events), inside the wallet's transaction when the stages move money… */
  | 'end-begins'
  /** …and are committed: `complete` goes to the client next. */
  | 'end-stored';

export const RUN_TRACE_CHANNEL = 'wolfpack:run-trace';
const runTrace = channel(RUN_TRACE_CHANNEL);

/** Marks a step with the wall clock (comparable across processes on one machine). */
export function traceStep(step: RunStep): void {
  if (runTrace.hasSubscribers) runTrace.publish({ step, at: performance.timeOrigin + performance.now() });
}
