/**
 * What both adapters share around one engine call: a between-chunk watchdog (the SDKs stop
 * timing once response headers arrive, so a stream that goes quiet would hang for minutes), an
 * overall deadline (a stream that keeps trickling empty chunks never goes quiet, so only a
 * deadline ends it) and retries with exponential backoff that honour Retry-After. The SDKs' own
 * retries are off, so these are the only ones and `attempts` is true.
 */
import { sleep } from '../util/sleep.js';
import { EngineError, type EngineRetryInfo } from './engine.js';
import { abortedError, formatDuration } from './engine-errors.js';

export interface ResilienceOptions {
  /** Retries after the first attempt, for rate limits, 5xx, connection errors, timeouts, stalls. @default 3 */
  maxRetries?: number;
  /** First backoff delay; doubles per retry, with jitter. @default 1000 */
  retryBaseDelayMs?: number;
  /** Longest backoff delay. @default 30000 */
  retryMaxDelayMs?: number;
  /**
   * Longest Retry-After we are willing to wait. A provider that asks for longer fails the call at
   * once, so a run can move to another engine instead of sitting idle. @default 60000
   */
  maxRetryAfterMs?: number;
  /** Abort when the stream sends nothing for this long after its first chunk. @default 60000 */
  stallTimeoutMs?: number;
  /** Abort when the first chunk has not arrived this long after the request. @default 120000 */
  firstChunkTimeoutMs?: number;
  /**
   * The longest one call may take, every attempt and wait included. The watchdog only notices
   * silence; an endpoint that keeps sending chunks without ever finishing (empty deltas, a model
   * stuck in a loop behind a proxy that ignores max_tokens) is stopped by this. Not retried: the
   * time is up. @default 1200000 (20 minutes: 8,192 output tokens at 7 tokens a second)
   */
  callTimeoutMs?: number;
  /** Injected for tests: waits `ms`, rejecting when `signal` aborts. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Injected for tests: the clock for durations and Retry-After dates. @default Date.now */
  now?: () => number;
  /** Injected for tests: the jitter source, in [0, 1). @default Math.random */
  random?: () => number;
  /**
   * Injected for tests: arms the stream watchdog's timer, calling `fire` after `ms`; returns what
   * cancels it. A test fires it itself, so a loaded machine never stalls a stream by accident.
   * @default setTimeout
   */
  watchdogTimer?: (fire: () => void, ms: number) => () => void;
}

/** The watchdog's timer as the product runs it. */
function realTimer(fire: () => void, ms: number): () => void {
  const timer = setTimeout(fire, ms);
  return () => clearTimeout(timer);
}

/** How much longer the SDK's own request timeout is than our first-chunk watchdog. */
export const SDK_TIMEOUT_MARGIN_MS = 5000;

export type ResolvedResilience = Required<ResilienceOptions>;

export const RESILIENCE_DEFAULTS = {
  maxRetries: 3,
  retryBaseDelayMs: 1000,
  retryMaxDelayMs: 30_000,
  maxRetryAfterMs: 60_000,
  stallTimeoutMs: 60_000,
  firstChunkTimeoutMs: 120_000,
  callTimeoutMs: 1_200_000,
} as const;

export function resolveResilience(options: ResilienceOptions = {}): ResolvedResilience {
  return {
    maxRetries: options.maxRetries ?? RESILIENCE_DEFAULTS.maxRetries,
    retryBaseDelayMs: options.retryBaseDelayMs ?? RESILIENCE_DEFAULTS.retryBaseDelayMs,
    retryMaxDelayMs: options.retryMaxDelayMs ?? RESILIENCE_DEFAULTS.retryMaxDelayMs,
    maxRetryAfterMs: options.maxRetryAfterMs ?? RESILIENCE_DEFAULTS.maxRetryAfterMs,
    stallTimeoutMs: options.stallTimeoutMs ?? RESILIENCE_DEFAULTS.stallTimeoutMs,
    firstChunkTimeoutMs: options.firstChunkTimeoutMs ?? RESILIENCE_DEFAULTS.firstChunkTimeoutMs,
    callTimeoutMs: options.callTimeoutMs ?? RESILIENCE_DEFAULTS.callTimeoutMs,
    sleep: options.sleep ?? sleep,
    now: options.now ?? Date.now,
    random: options.random ?? Math.random,
    watchdogTimer: options.watchdogTimer ?? realTimer,
  };
}

import { backoffMs } from '../util/backoff.js';

export { sleep } from '../util/sleep.js';

/**
 * The wait before retry number `retry` (1-based): the provider's Retry-After when it gave one,
 * else core's {@link backoffMs}: base * 2^(retry-1) capped, with "equal jitter" (half fixed, half
 * random) so many runs hitting the same limit do not come back in lockstep.
 */
export function backoffDelayMs(retry: number, error: EngineError, options: ResolvedResilience): number {
  if (error.retryAfterMs !== undefined) return error.retryAfterMs;
  return backoffMs(retry, { baseMs: options.retryBaseDelayMs, maxMs: options.retryMaxDelayMs, random: options.random });
}

/**
 * Aborts an attempt when no chunk arrives in time: `firstChunkTimeoutMs` until the first one,
 * `stallTimeoutMs` between later ones. The error it aborts with is kept in `error`, because the
 * SDKs end an aborted stream quietly instead of throwing.
 */
export class StreamWatchdog {
  private cancel: (() => void) | undefined;
  private sawChunk = false;
  error: EngineError | undefined;

  constructor(
    private readonly engineKey: string,
    private readonly options: Pick<ResolvedResilience, 'stallTimeoutMs' | 'firstChunkTimeoutMs' | 'watchdogTimer'>,
    private readonly controller: AbortController,
  ) {}

  start(): void {
    this.arm(this.options.firstChunkTimeoutMs);
  }

  /** Call for every chunk the stream delivers. */
  readonly touch = (): void => {
    if (this.error) return;
    this.sawChunk = true;
    this.arm(this.options.stallTimeoutMs);
  };

  stop(): void {
    this.cancel?.();
    this.cancel = undefined;
  }

  private arm(ms: number): void {
    this.cancel?.();
    this.cancel = this.options.watchdogTimer(() => this.fire(ms), ms);
  }

  private fire(ms: number): void {
    const k = this.engineKey;
    this.error = this.sawChunk
      ? new EngineError(
          k,
          'stalled',
          `Engine ${k} stopped sending output for ${formatDuration(ms)}. It may be overloaded; try again, or use another engine.`,
        )
      : new EngineError(
          k,
          'timeout',
          `Engine ${k} sent no output within ${formatDuration(ms)} of the request. It may be overloaded or still loading its model; try again, or raise its first-chunk timeout.`,
        );
    this.controller.abort(this.error);
  }
}

/**
 * Wraps an error thrown by the caller's own callback (onDelta), so it reaches the caller as it
 * is instead of being mistaken for an engine failure and retried.
 */
export class CallbackError {
  constructor(readonly error: unknown) {}
}

/** Calls a caller-supplied callback; what it throws ends the call unchanged. */
export function callBack<A extends unknown[]>(callback: ((...args: A) => void) | undefined, ...args: A): void {
  try {
    callback?.(...args);
  } catch (error) {
    throw new CallbackError(error);
  }
}

export interface AttemptContext {
  /** 1 for the first attempt. */
  attempt: number;
  /** Aborts on the caller's signal and on the watchdog: pass it to the SDK request. */
  signal: AbortSignal;
  /** Call once per streamed chunk: feeds the watchdog. */
  onChunk: () => void;
}

export interface ResilientCall<T> {
  engineKey: string;
  options: ResolvedResilience;
  signal?: AbortSignal | undefined;
  onRetry?: ((info: EngineRetryInfo) => void) | undefined;
  /** One attempt of the call. May throw anything; `toEngineError` classifies it. */
  attempt: (ctx: AttemptContext) => Promise<T>;
  /** Maps an SDK or transport error to an EngineError (adapters know their SDK's classes). */
  toEngineError: (error: unknown) => EngineError;
}

/** The error of a call that ran out of its overall time (see `callTimeoutMs`). */
export function callTimeoutError(engineKey: string, ms: number): EngineError {
  return new EngineError(
    engineKey,
    'timeout',
    `Engine ${engineKey} did not finish its answer within ${formatDuration(ms)}, the longest one call may take, so it was stopped. Try again, or use another engine.`,
  );
}

/**
 * Runs `call.attempt` until it succeeds, fails for good, the caller aborts, or the call's overall
 * deadline (`callTimeoutMs`) passes.
 */
export async function runResilient<T>(call: ResilientCall<T>): Promise<{ value: T; attempts: number }> {
  const { engineKey, options, signal } = call;
  const maxAttempts = Math.max(1, options.maxRetries + 1);
  const deadline = new AbortController();
  const deadlineTimer = setTimeout(() => deadline.abort(callTimeoutError(engineKey, options.callTimeoutMs)), options.callTimeoutMs);
  // The caller's signal and the deadline: what every attempt and every wait between them obey.
  const callSignal = signal ? AbortSignal.any([signal, deadline.signal]) : deadline.signal;
  try {
    return await attempts(call, maxAttempts, callSignal, deadline.signal);
  } finally {
    clearTimeout(deadlineTimer);
  }
}

async function attempts<T>(call: ResilientCall<T>, maxAttempts: number, callSignal: AbortSignal, deadline: AbortSignal): Promise<{ value: T; attempts: number }> {
  const { engineKey, options, signal } = call;
  /** The deadline's error, saying how often we tried, once the deadline has passed. */
  const timedOut = (attemptsMade: number) => (deadline.aborted ? finalError(deadline.reason as EngineError, attemptsMade) : undefined);

  for (let attempt = 1; ; attempt++) {
    if (signal?.aborted) throw abortedError(engineKey, signal.reason);
    const controller = new AbortController();
    const attemptSignal = AbortSignal.any([callSignal, controller.signal]);
    const watchdog = new StreamWatchdog(engineKey, options, controller);
    let error: EngineError;
    watchdog.start();
    try {
      const value = await call.attempt({ attempt, signal: attemptSignal, onChunk: watchdog.touch });
      // The SDKs end an aborted stream without throwing: a "success" after an abort is not one.
      if (signal?.aborted) throw abortedError(engineKey, signal.reason);
      if (watchdog.error) throw watchdog.error;
      if (deadline.aborted) throw deadline.reason;
      return { value, attempts: attempt };
    } catch (thrown) {
      if (thrown instanceof CallbackError) throw thrown.error;
      // Order matters: the caller's abort, the deadline and the watchdog explain an SDK abort
      // error better than the SDK does.
      if (signal?.aborted) throw abortedError(engineKey, signal.reason);
      const late = timedOut(attempt);
      if (late) throw late;
      error = watchdog.error ?? (thrown instanceof EngineError ? thrown : call.toEngineError(thrown));
    } finally {
      watchdog.stop();
    }

    if (error.kind === 'aborted') throw error;
    const tooLong = error.retryAfterMs !== undefined && error.retryAfterMs > options.maxRetryAfterMs;
    if (!error.retryable || attempt >= maxAttempts || tooLong) throw finalError(error, attempt);

    const delayMs = backoffDelayMs(attempt, error, options);
    call.onRetry?.({ attempt: attempt + 1, delayMs, error });
    try {
      await options.sleep(delayMs, callSignal);
    } catch (reason) {
      const late = timedOut(attempt);
      if (late && !signal?.aborted) throw late;
      throw abortedError(engineKey, reason);
    }
  }
}

/** The error a call finally throws says how often we tried, so nobody retries by hand in vain. */
function finalError(error: EngineError, attempts: number): EngineError {
  const message = attempts > 1 ? `${error.message} (Gave up after ${attempts} attempts.)` : error.message;
  return new EngineError(error.engineKey, error.kind, message, {
    cause: error.cause ?? undefined,
    status: error.status,
    retryAfterMs: error.retryAfterMs,
    attempts,
  });
}
