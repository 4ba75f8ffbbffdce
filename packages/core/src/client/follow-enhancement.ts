/**
 * Follows an AI Enhance run (POST /api/multi-pass-enhancements, two passes of prompt refinement).
 * There is nothing to reconnect to: the server stops an enhancement whose client left, so a broken
 * or silent connection ends it.
 */
import { AppError, isAppError } from '../errors.js';
import { enhancementEvent, type EnhancementEvent } from '../schemas/events.js';
import type { EnhancementRequestInput } from '../schemas/projects.js';
import { decodeEventStream } from '../sse/sse.js';
import { DEFAULT_IDLE_TIMEOUT_MS } from './follow-run.js';
import type { RunTransport } from './run-transport.js';
import { IdleStreamError, untilIdle } from './until-idle.js';

export const ENHANCE_PATH = '/api/multi-pass-enhancements';

/** One numbered event of the enhancement stream. */
export interface EnhanceItem {
  id: number;
  event: EnhancementEvent;
}

/** The connection broke or went silent before the enhancement ended; `reason` says which. */
export class EnhancementLostError extends AppError {
  constructor(
    readonly reason: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super('BAD_GATEWAY', message, undefined, options);
  }
}

export interface FollowEnhancementOptions {
  transport: RunTransport;
  request: EnhancementRequestInput;
  /** Stops the enhancement (the server stops the engines); the generator throws `signal.reason`. */
  signal?: AbortSignal | undefined;
  /** Silence (not even a heartbeat) for this long means the connection is dead. @default 45_000 */
  idleTimeoutMs?: number | undefined;
}

/**
 * The enhancement's events, numbered as the server numbered them, up to and including `complete`
 * or `error`. A refusal is the transport's AppError, an unreadable event decodeEventStream's, and a
 * connection that ends first an {@link EnhancementLostError}.
 */
export async function* followEnhancement(options: FollowEnhancementOptions): AsyncGenerator<EnhanceItem, void, undefined> {
  const { transport, request, signal } = options;
  const body = await transport.stream({ method: 'POST', path: ENHANCE_PATH, body: request, signal });
  let count = 0;
  try {
    for await (const message of decodeEventStream(untilIdle(body, options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS), enhancementEvent)) {
      if (signal?.aborted) throw signal.reason;
      count += 1;
      const id = Number(message.id);
      yield { id: Number.isSafeInteger(id) && id > 0 ? id : count, event: message.data };
      if (message.data.type === 'complete' || message.data.type === 'error') return;
    }
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    // An event this client cannot read is decodeEventStream's AppError, a sentence already.
    if (isAppError(error)) throw error;
    const reason = error instanceof IdleStreamError ? error.message : 'the connection broke';
    throw new EnhancementLostError(reason, `Lost the connection to ${transport.server} during the enhancement (${reason}). Run it again.`, { cause: error });
  }
  if (signal?.aborted) throw signal.reason;
  throw new EnhancementLostError('the stream ended', `The server at ${transport.server} ended the enhancement stream without a result. Try again.`);
}
