import { AppError } from '@wolfpack/core';
import type { RunService } from '../services/run-service.js';
import type { SseStream } from './sse-writer.js';

/**
 * Sends the run's events after `after` until it ends or the client goes, then ends the stream.
 * The caller has made sure the run is the user's (it started it, or asked).
 */
export async function followRun(sse: SseStream, runs: RunService, user: { id: string }, runId: string, after: number): Promise<void> {
  const abort = new AbortController();
  void sse.closed.then(() => abort.abort());
  try {
    for await (const { seq, event } of runs.events(user, runId, after, abort.signal, true)) {
      sse.send(seq, event);
    }
  } catch (error) {
    // The stream is open: an error can only be reported as an event now.
    if (!sse.isClosed) sse.send(0, { type: 'error', error: error instanceof AppError ? error.message : 'The event stream failed. Reconnect to continue.' });
  } finally {
    sse.end();
  }
}

/** A Last-Event-ID (the header, or ?lastEventId= for clients that cannot set headers) as the number it must be. */
export function parseLastEventId(raw: string): number {
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) {
    throw new AppError('BAD_REQUEST', 'Last-Event-ID must be the number of the last event you received.');
  }
  return value;
}
