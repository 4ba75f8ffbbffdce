import { AppError, decodeEventStream, isAppError, pipelineEvent, reconnectDelayMs, runInfoReply, sleep, type PipelineEvent, type PipelineRole, type RepairRequest, type StreamRequest } from '@wolfpack/core';
import type { ApiClient } from './api.js';

/** What following a run yields: its numbered events, and word of what the connection is doing. */
export type RunStreamItem =
  | { type: 'event'; id: number; event: PipelineEvent }
  /** The connection dropped; the next attempt starts after `delayMs`. */
  | { type: 'reconnecting'; attempt: number; maxAttempts: number; delayMs: number; reason: string }
  /** The run had stopped on the server (it restarted); it is being resumed from its last finished stage. */
  | { type: 'resuming'; runId: string };

/**
 * Start a new run, start "Repair again" on a project (a new run of Proven Code alone; its reply is
 * the same event stream), or follow a run that exists, from just after event `after` (0: from the
 * start).
 */
export type RunSource =
  | { kind: 'start'; request: StreamRequest }
  | { kind: 'repair'; projectId: string; request: RepairRequest }
  | { kind: 'attach'; runId: string; after: number };

/** The stages a repair run does; its `run` event names them again. */
export const REPAIR_STAGES: readonly PipelineRole[] = ['Proven Code'];

/** The request that opens a new run's stream; undefined for a run that exists already. */
function startRequest(source: RunSource): { path: string; body: unknown } | undefined {
  switch (source.kind) {
    case 'start':
      return { path: '/api/wolfpack/stream', body: source.request };
    case 'repair':
      return { path: `/api/projects/${encodeURIComponent(source.projectId)}/repair`, body: source.request };
    case 'attach':
      return undefined;
    default: {
      const unreachable: never = source;
      return unreachable;
    }
  }
}

export interface RunStreamOptions {
  api: ApiClient;
  source: RunSource;
  /** Stops following (Ctrl+C); the generator then throws `signal.reason`. The run goes on. */
  signal?: AbortSignal | undefined;
  /** Reconnect attempts in a row without a new event before giving up. @default 10 (about a minute) */
  maxReconnects?: number | undefined;
  /** Wait before reconnect attempt `attempt` (from 1). @default 500 ms doubling, at most 8 s, each up to half as long again at random (reconnectDelayMs) */
  backoffMs?: ((attempt: number) => number) | undefined;
  /** Silence (not even a heartbeat) for this long means the connection is dead. @default 45_000 */
  idleTimeoutMs?: number | undefined;
}

// About a minute of trying (0.5, 1, 2, 4, then 8 s apart, each up to half as long again at random:
// 56 to 83 s in all): a server restarting on a busy machine, or a rolling deploy, takes longer
// than the half minute six attempts gave.
export const DEFAULT_MAX_RECONNECTS = 10;
/** Three of the server's 15-second heartbeats. */
export const DEFAULT_IDLE_TIMEOUT_MS = 45_000;

/**
 * Follows a run to its end as one sequence of numbered events, whatever happens to the connection
 * in between: a dropped or stalled stream is reopened with `Last-Event-ID` (with backoff), events
 * seen before are skipped, and a run the server reports as interrupted is resumed, once. Ends after
 * the `complete` or `error` event. Throws an AppError when the server refuses (unknown engine, not
 * logged in, no such run) or stays out of reach.
 */
export async function* followRun(options: RunStreamOptions): AsyncGenerator<RunStreamItem, void, undefined> {
  const { api, source, signal } = options;
  const maxReconnects = options.maxReconnects ?? DEFAULT_MAX_RECONNECTS;
  const backoff = options.backoffMs ?? reconnectDelayMs;
  const idleTimeoutMs = options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;

  let runId = source.kind === 'attach' ? source.runId : undefined;
  let last = source.kind === 'attach' ? source.after : 0;
  let mayResume = true;
  /**
   * An `error` event at or below this id is history, not the end: a run paused for lack of credits
   * ends its stored events with one, and events after it (a resume) mean the run went on.
   */
  let historyUntil = 0;
  let failures = 0;
  let first = true;
  const opening = startRequest(source);

  for (;;) {
    let reason: string;
    try {
      let response: Response & { body: ReadableStream<Uint8Array> };
      if (first && opening) {
        response = await api.stream('POST', opening.path, { body: opening.body, signal });
      } else {
        const id = runId!;
        const { run } = await runInfo(api, id, signal);
        if (run.status === 'interrupted' && mayResume) {
          mayResume = false;
          historyUntil = run.lastEventId;
          yield { type: 'resuming', runId: id };
          response = await resumeOrFollow(api, id, last, signal);
        } else if (run.status === 'interrupted') {
          throw new AppError('CONFLICT', `The run was interrupted on the server again. Resume it with: wolfpack attach ${id}`);
        } else {
          // Only the newest stored event can be the run's end.
          historyUntil = Math.max(historyUntil, run.lastEventId - 1);
          response = await api.stream('GET', `/api/wolfpack/runs/${encodeURIComponent(id)}/events`, { lastEventId: last, signal });
        }
      }
      first = false;

      let unnumberedError: string | undefined;
      for await (const message of decodeEvents(response.body, idleTimeoutMs)) {
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
      reason = unnumberedError ?? 'the server closed the event stream before the run ended';
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      if (!isTransient(error)) throw error;
      if (first && opening) throw error; // the server never answered: nothing to reattach to
      reason = describe(error);
    }
    first = false;

    if (runId === undefined) {
      throw new AppError('BAD_GATEWAY', `The connection to ${api.server} broke before the server said which run it started (${reason}). Try again.`);
    }
    failures += 1;
    if (failures > maxReconnects) {
      throw new AppError(
        'SERVICE_UNAVAILABLE',
        `Lost the connection to ${api.server} and could not reconnect (${reason}). The run may still be going; reattach with: wolfpack attach ${runId}`,
      );
    }
    const delayMs = backoff(failures);
    yield { type: 'reconnecting', attempt: failures, maxAttempts: maxReconnects, delayMs, reason };
    await sleep(delayMs, signal);
  }
}

async function runInfo(api: ApiClient, runId: string, signal: AbortSignal | undefined) {
  try {
    return await api.get(`/api/wolfpack/runs/${encodeURIComponent(runId)}`, { reply: runInfoReply, signal });
  } catch (error) {
    if (!(isAppError(error) && error.code === 'NOT_FOUND')) throw error;
    throw new AppError('NOT_FOUND', `There is no run ${runId} of yours on ${api.server}. Check the id; it is printed when a run starts.`, undefined, {
      cause: error,
    });
  }
}

/** POST resume; if another client resumed the run first, follow it instead. */
async function resumeOrFollow(api: ApiClient, runId: string, last: number, signal: AbortSignal | undefined) {
  const path = `/api/wolfpack/runs/${encodeURIComponent(runId)}`;
  try {
    return await api.stream('POST', `${path}/resume`, { body: {}, lastEventId: last, signal });
  } catch (error) {
    if (!(isAppError(error) && error.code === 'CONFLICT')) throw error;
    return api.stream('GET', `${path}/events`, { lastEventId: last, signal });
  }
}

/**
 * Worth another try: the server is unreachable or restarting (AppError SERVICE_UNAVAILABLE,
 * BAD_GATEWAY, INTERNAL from the HTTP helper), or the stream broke or went silent (the plain
 * errors fetch and {@link untilIdle} throw). An event the client cannot decode, or a refusal
 * (400, 401, 404), would fail the same way again.
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

/** No data, not even a heartbeat, for longer than the idle limit. */
export class IdleStreamError extends Error {
  override readonly name = 'IdleStreamError';
}

/** An event the client cannot read; decodeEventStream's AppError, marked as not worth a retry. */
class StreamDecodeError extends AppError {}

/** The stream's events; an event the client cannot read fails as a {@link StreamDecodeError}. */
async function* decodeEvents(body: ReadableStream<Uint8Array>, idleMs: number) {
  try {
    yield* decodeEventStream(untilIdle(body, idleMs), pipelineEvent);
  } catch (error) {
    // decodeEventStream's own failures are AppErrors; the connection's are plain errors.
    throw isAppError(error) ? new StreamDecodeError(error.code, error.message, error.details, { cause: error }) : error;
  }
}

/**
 * The body's chunks, failing when none (not even a heartbeat comment) arrives for `idleMs`: a
 * connection that died without a FIN (a sleeping laptop, a dropped NAT entry) otherwise waits
 * forever.
 */
export async function* untilIdle(body: ReadableStream<Uint8Array>, idleMs: number): AsyncGenerator<Uint8Array, void, undefined> {
  const reader = body.getReader();
  let finished = false;
  try {
    for (;;) {
      let timer: NodeJS.Timeout | undefined;
      const idle = new Promise<never>((_, reject) => {
        const seconds = Math.ceil(idleMs / 1000);
        timer = setTimeout(() => reject(new IdleStreamError(`no data from the server for ${seconds} second${seconds === 1 ? '' : 's'}`)), idleMs);
      });
      let chunk: Awaited<ReturnType<typeof reader.read>>;
      try {
        chunk = await Promise.race([reader.read(), idle]);
      } finally {
        clearTimeout(timer);
      }
      if (chunk.done) {
        finished = true;
        return;
      }
      yield chunk.value;
    }
  } finally {
    if (!finished) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}

