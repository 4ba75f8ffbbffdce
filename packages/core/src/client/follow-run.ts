/**
 * Follows one pipeline run's events to its end, whatever happens to the connection in between: the
 * one client the web page and the CLI both use. Browser-safe; the transport is handed in.
 */
import { AppError, isAppError } from '../errors.js';
import { pipelineEvent, type PipelineEvent } from '../schemas/events.js';
import { runInfoReply, type RunInfo } from '../schemas/runs.js';
import { decodeEventStream } from '../sse/sse.js';
import { backoffMs } from '../util/backoff.js';
import { sleep as realSleep } from '../util/sleep.js';
import type { RunTransport } from './run-transport.js';
import { IdleStreamError, untilIdle } from './until-idle.js';

/** What following a run yields: its numbered events, and word of what the connection is doing. */
export type RunItem =
  | { type: 'event'; id: number; event: PipelineEvent }
  /** A reattach answered: events flow again. */
  | { type: 'connected' }
  /** The connection dropped; the next attempt starts after `delayMs`. */
  | { type: 'reconnecting'; attempt: number; maxAttempts: number; delayMs: number; reason: string }
  /** The run had stopped on the server (it restarted); it is being resumed from its last finished stage. */
  | { type: 'resuming'; runId: string }
  /** The run stopped on the server and `autoResume` is off: its stored events were replayed, the rest waits for a resume. */
  | { type: 'interrupted'; runId: string };

/**
 * `open`: a request whose reply is a new run's stream (a build, or "Repair again"). `attach`: a run
 * that exists, from just after event `after`. `resume`: an interrupted run, continued from its last
 * finished stage.
 */
export type RunSource =
  | { kind: 'open'; path: string; body: unknown }
  | { kind: 'attach'; runId: string; after?: number | undefined }
  | { kind: 'resume'; runId: string; after?: number | undefined };

/** Why following stopped short of the run's end; `runId` when the server named the run. */
export type FollowFailure = 'no-run-id' | 'gave-up' | 'interrupted-again' | 'not-found';

/** Following stopped before the run ended; each client words it its own way from `failure`. */
export class RunFollowError extends AppError {
  constructor(
    readonly failure: FollowFailure,
    readonly runId: string | undefined,
    readonly reason: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(failure === 'not-found' ? 'NOT_FOUND' : failure === 'interrupted-again' ? 'CONFLICT' : failure === 'gave-up' ? 'SERVICE_UNAVAILABLE' : 'BAD_GATEWAY', message, undefined, options);
  }
}

export interface FollowRunOptions {
  transport: RunTransport;
  source: RunSource;
  /** Stops following; the generator then throws `signal.reason`. The run goes on on the server. */
  signal?: AbortSignal | undefined;
  /** Resume a run the server reports as interrupted (once). Off: yield `interrupted` and end. @default true */
  autoResume?: boolean | undefined;
  /** Reconnect attempts in a row without a new event before giving up. @default 10 (about a minute) */
  maxReconnects?: number | undefined;
  /** Wait before reconnect attempt `attempt` (from 1). @default {@link reconnectWaitMs} */
  backoff?: ((attempt: number) => number) | undefined;
  /** Silence (not even a heartbeat) for this long means the connection is dead. @default 45_000 */
  idleTimeoutMs?: number | undefined;
  /** The wait itself; tests pass one that does not sleep. @default setTimeout */
  sleep?: ((ms: number, signal?: AbortSignal) => Promise<void>) | undefined;
}

/**
 * About a minute of trying (waits of 0.5–1, 1–2, 2–4, 4–8, then 8–16 s): a server restarting on a
 * busy machine, or a rolling deploy, takes longer than half a minute.
 */
export const DEFAULT_MAX_RECONNECTS = 10;
/** Three of the server's 15-second heartbeats. */
export const DEFAULT_IDLE_TIMEOUT_MS = 45_000;

/**
 * The wait before reconnect attempt `attempt`: 1 s doubling to 16 s, each between half of that and
 * all of it at random, so the pages and terminals of a restarted server do not all come back in the
 * same instant.
 */
export function reconnectWaitMs(attempt: number): number {
  return backoffMs(attempt, { baseMs: 1_000, maxMs: 16_000 });
}

export const runPath = (runId: string) => `/api/wolfpack/runs/${encodeURIComponent(runId)}`;

/**
 * Follows a run to its end as one sequence of numbered events: a dropped or stalled stream is
 * reopened with `Last-Event-ID` (with backoff), events seen before are skipped, and a run the
 * server reports as interrupted is resumed once (or reported, without `autoResume`). Ends after the
 * `complete` or `error` event. Throws the transport's AppError when the server refuses (not signed
 * in, not enough credits, unknown engine), and a {@link RunFollowError} when it cannot follow on.
 */
export async function* followRun(options: FollowRunOptions): AsyncGenerator<RunItem, void, undefined> {
  const { transport, source, signal } = options;
  const maxReconnects = options.maxReconnects ?? DEFAULT_MAX_RECONNECTS;
  const backoff = options.backoff ?? reconnectWaitMs;
  const idleTimeoutMs = options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
  const wait = options.sleep ?? realSleep;
  const autoResume = options.autoResume ?? true;

  let runId = source.kind === 'open' ? undefined : source.runId;
  let last = source.kind === 'open' ? 0 : (source.after ?? 0);
  let mayResume = autoResume;
  /**
   * An `error` event at or below this id is history, not the end: a run paused for lack of credits
   * ends its stored events with one, and events after it (a resume) mean the run went on.
   */
  let historyUntil = 0;
  let failures = 0;
  let first = true;

  for (;;) {
    let reason: string;
    let stopAfterReplay = false;
    try {
      let body: ReadableStream<Uint8Array>;
      if (first && source.kind === 'open') {
        body = await transport.stream({ method: 'POST', path: source.path, body: source.body, signal });
      } else if (first && source.kind === 'resume') {
        body = await resumeOrFollow(transport, source.runId, last, signal);
      } else {
        const id = runId!;
        const run = await readRun(transport, id, signal);
        if (run.status === 'interrupted' && mayResume) {
          mayResume = false;
          historyUntil = run.lastEventId;
          yield { type: 'resuming', runId: id };
          body = await resumeOrFollow(transport, id, last, signal);
        } else if (run.status === 'interrupted' && autoResume) {
          throw new RunFollowError('interrupted-again', id, 'interrupted', 'The run was interrupted on the server again.');
        } else {
          // Only the newest stored event can be the run's end.
          historyUntil = Math.max(historyUntil, run.lastEventId - 1);
          stopAfterReplay = run.status === 'interrupted';
          body = await transport.stream({ method: 'GET', path: `${runPath(id)}/events`, lastEventId: last, signal });
        }
        // Events flow (again): a page that showed "Reconnecting…" shows the run going on.
        yield { type: 'connected' };
      }
      first = false;

      let unnumberedError: string | undefined;
      for await (const message of decodeEvents(body, idleTimeoutMs)) {
        const id = Number(message.id);
        // A line the server could not store (its database is away): shown, its id not a new one.
        if (message.data.type === 'log' && message.data.live) {
          yield { type: 'event', id: last, event: message.data };
          continue;
        }
        if (!Number.isSafeInteger(id) || id <= 0) {
          // Not a stored event: the server's stream broke (it says "reconnect to continue").
          if (message.data.type === 'error') unnumberedError = message.data.error;
          continue;
        }
        if (id <= last) continue; // replayed after a reconnect: seen already
        last = id;
        failures = 0;
        if (message.data.type === 'run') runId = message.data.runId;
        yield { type: 'event', id, event: message.data };
        if (message.data.type === 'complete' || (message.data.type === 'error' && id > historyUntil)) return;
      }
      if (stopAfterReplay && runId !== undefined) {
        yield { type: 'interrupted', runId };
        return;
      }
      reason = unnumberedError ?? 'the server closed the event stream before the run ended';
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      if (error instanceof RunFollowError || !isTransient(error)) throw error;
      // The server never answered the request that names the run: there is nothing to reattach to.
      if (first && source.kind !== 'attach') throw error;
      reason = describe(error);
    }
    first = false;

    if (runId === undefined) {
      throw new RunFollowError('no-run-id', undefined, reason, `The connection to ${transport.server} broke before the server said which run it started (${reason}). Try again.`);
    }
    failures += 1;
    if (failures > maxReconnects) {
      throw new RunFollowError('gave-up', runId, reason, `Lost the connection to ${transport.server} and could not reconnect (${reason}). The run may still be going.`);
    }
    const delayMs = backoff(failures);
    yield { type: 'reconnecting', attempt: failures, maxAttempts: maxReconnects, delayMs, reason };
    await wait(delayMs, signal);
    if (signal?.aborted) throw signal.reason;
  }
}

async function readRun(transport: RunTransport, runId: string, signal: AbortSignal | undefined): Promise<RunInfo> {
  try {
    return (await transport.getJson(runPath(runId), runInfoReply, signal)).run;
  } catch (error) {
    if (!(isAppError(error) && error.code === 'NOT_FOUND')) throw error;
    throw new RunFollowError('not-found', runId, 'not found', `There is no run ${runId} of yours on ${transport.server}.`, { cause: error });
  }
}

/** POST resume; if another client resumed the run first, follow it instead. */
async function resumeOrFollow(transport: RunTransport, runId: string, last: number, signal: AbortSignal | undefined) {
  try {
    return await transport.stream({ method: 'POST', path: `${runPath(runId)}/resume`, body: {}, lastEventId: last, signal });
  } catch (error) {
    if (!(isAppError(error) && error.code === 'CONFLICT')) throw error;
    return transport.stream({ method: 'GET', path: `${runPath(runId)}/events`, lastEventId: last, signal });
  }
}

/**
 * Worth another try: the server is unreachable or restarting (AppError SERVICE_UNAVAILABLE,
 * BAD_GATEWAY, INTERNAL), or the stream broke or went silent (plain errors). An event the client
 * cannot decode, or a refusal (400, 401, 402, 404), would fail the same way again.
 */
function isTransient(error: unknown): boolean {
  if (error instanceof StreamDecodeError) return false;
  if (isAppError(error)) return error.code === 'SERVICE_UNAVAILABLE' || error.code === 'BAD_GATEWAY' || error.code === 'INTERNAL';
  return true;
}

/** A few words for "Connection lost (…)": why the last attempt failed. */
function describe(error: unknown): string {
  if (error instanceof IdleStreamError) return error.message;
  if (isAppError(error) && error.code === 'SERVICE_UNAVAILABLE') return 'the server does not answer';
  if (isAppError(error)) return error.message.replace(/\.$/, '');
  return 'the connection broke';
}

/** An event the client cannot read: decodeEventStream's AppError, marked as not worth a retry. */
export class StreamDecodeError extends AppError {}

/** The stream's events; an event the client cannot read fails as a {@link StreamDecodeError}. */
async function* decodeEvents(body: ReadableStream<Uint8Array>, idleMs: number) {
  try {
    yield* decodeEventStream(untilIdle(body, idleMs), pipelineEvent);
  } catch (error) {
    // decodeEventStream's own failures are AppErrors; the connection's are plain errors.
    throw isAppError(error) ? new StreamDecodeError(error.code, error.message, error.details, { cause: error }) : error;
  }
}
