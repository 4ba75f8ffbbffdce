/**
 * Runs an async task that emits events from anywhere inside it (also from concurrent branches)
 * and yields those events in order while the task runs; returns the task's result. This is how a
 * stage that fans out engine calls in parallel still yields one ordered stream of events.
 */
export async function* withEvents<E, T>(task: (emit: (event: E) => void) => Promise<T>): AsyncGenerator<E, T> {
  const queue: E[] = [];
  let wake: (() => void) | undefined;
  const emit = (event: E) => {
    queue.push(event);
    wake?.();
  };
  let settled = false;
  const done = task(emit).finally(() => {
    settled = true;
    wake?.();
  });
  // Keep an unhandled rejection from surfacing before we await `done` below.
  done.catch(() => {});
  while (!settled || queue.length > 0) {
    if (queue.length === 0) {
      await new Promise<void>((resolve) => {
        wake = resolve;
        if (settled || queue.length > 0) resolve();
      });
      wake = undefined;
      continue;
    }
    yield queue.shift()!;
  }
  return done;
}

/**
 * Runs `worker` over `items` with at most `limit` in flight; results keep the input order. When
 * one worker fails, no further item starts and `signal` aborts the ones in flight; the first
 * error is thrown once they have all settled, so nothing keeps calling engines for a stage that
 * already failed.
 */
export async function mapConcurrent<I, O>(
  items: readonly I[],
  limit: number,
  worker: (item: I, index: number, signal: AbortSignal) => Promise<O>,
): Promise<O[]> {
  const results = new Array<O>(items.length);
  const controller = new AbortController();
  let failure: { error: unknown } | undefined;
  let next = 0;
  const lanes = Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, async () => {
    while (next < items.length && !failure) {
      const index = next++;
      try {
        results[index] = await worker(items[index]!, index, controller.signal);
      } catch (error) {
        // Only the first error explains the failure; the others are its consequence (aborts).
        if (!failure) {
          failure = { error };
          controller.abort(error);
        }
      }
    }
  });
  await Promise.all(lanes);
  if (failure) throw failure.error;
  return results;
}
