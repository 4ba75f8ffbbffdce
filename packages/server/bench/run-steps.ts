// BENCH_TRACE=1: where a run's own time goes, step by step, from the marks bench/run-trace.mjs
// records inside the server's process (the server's run-trace steps, the stream request's arrival,
// each engine request on the wire and each answer read), matched to each run by its time window
// on the wall clock the bench and the server share.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

type Mark = { step: string; at: number };

export const TRACE = process.env.BENCH_TRACE === '1';

/** The server's environment for tracing into `dataDir` (nothing when BENCH_TRACE is off). */
export function traceEnv(dataDir: string): Record<string, string> {
  if (!TRACE) return {};
  const hook = `--import=${new URL('./run-trace.mjs', import.meta.url).href}`;
  return { NODE_OPTIONS: [process.env.NODE_OPTIONS, hook].filter(Boolean).join(' '), BENCH_TRACE_FILE: join(dataDir, 'run-trace.json') };
}

/** The marks the server wrote when it exited. */
export async function readTrace(dataDir: string): Promise<Mark[]> {
  return JSON.parse(await readFile(join(dataDir, 'run-trace.json'), 'utf8')) as Mark[];
}

export const STEP_COLUMNS = [
  'POST to the request at the server',
  '→ session read',
  '→ route',
  '→ first engine request on the wire',
  'last engine answer read → pipeline done',
  '→ the end begins',
  'the end (written, committed)',
  '→ `complete` at the client',
] as const;

/** One run's steps in milliseconds, in STEP_COLUMNS' order (NaN where a mark is missing). */
export function runSteps(marks: readonly Mark[], [posted, received]: [number, number]): number[] {
  const inRun = marks.filter((m) => m.at >= posted && m.at <= received);
  const first = (step: string, after = posted) => inRun.find((m) => m.step === step && m.at >= after)?.at ?? NaN;
  const request = first('request');
  const session = first('session-read', request);
  const route = first('route', session);
  const firstCall = first('engine-request-sent', route);
  const done = first('pipeline-done');
  const lastAnswer = Math.max(...inRun.filter((m) => m.step === 'engine-answer-read' && m.at <= done).map((m) => m.at));
  const endBegins = first('end-begins', done);
  const stored = first('end-stored', endBegins);
  return [request - posted, session - request, route - session, firstCall - route, done - lastAnswer, endBegins - done, stored - endBegins, received - stored];
}
