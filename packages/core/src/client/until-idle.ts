/** No data, not even a heartbeat, for longer than the idle limit. */
export class IdleStreamError extends Error {
  override readonly name = 'IdleStreamError';
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
      let timer: ReturnType<typeof setTimeout> | undefined;
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
