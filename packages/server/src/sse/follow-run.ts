import { AppError } from '@wolfpack/core';
import type { RunService } from '../services/runs/run-service.js';
import type { SseStream } from './sse-writer.js';

/**
 * Sends the run's events after `after` until it ends or the client goes, then ends the stream, in
 * the background: what cannot be reported on the stream (ending it failed) goes to `app`'s
 * errors, where Koa's go. The caller has made sure the run is the user's (it started it, or asked).
 */
export function followRun(sse: SseStream, runs: RunService, user: { id: string }, runId: string, after: number, app: { emit(event: 'error', error: unknown): unknown }): void {
  follow(sse, runs, user, runId, after).catch((error: unknown) => app.emit('error', error));
}

async function follow(sse: SseStream, runs: RunService, user: { id: string }, runId: string, after: number): Promise<void> {
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

/**
 * The Last-Event-ID header, else ?lastEventId= (for clients that cannot set headers), else 0, as
 * the number it must be.
 */
export function lastEventIdFrom(header: string | undefined, query: string | undefined): number {
  const value = Number(header || query || '0');
  if (!Number.isInteger(value) || value < 0) {
    throw new AppError('BAD_REQUEST', 'Last-Event-ID must be the number of the last event you received.');
  }
  return value;
}
