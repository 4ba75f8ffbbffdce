// How `pnpm bench sse` opens its streams and what it counts of their bytes: a crowd (openers that
// each open their next stream once their last one had its first event) and streams arriving on
// their own at a rate, both timed from a stream's open to its first event.
import { openEventStream, type Held } from './sse-client.js';

/** What the streams received, all of them together, since the bench began. */
export class StreamTally {
  /** Events received (a chunk may hold several). */
  received = 0;
  /** Bytes received, and of them in the chunk with each stream's first event (its replay). */
  bytes = 0;
  firstChunkBytes = 0;
  /** Chunks that brought events: about one a write of the server's (the sockets have no Nagle delay). */
  chunksWithEvents = 0;
  /** Streams the server ended. */
  ended = 0;

  /** A stream's chunk handler: counts its events and resolves with its open to first event (ms). */
  reading(t0: number, resolve: (ms: number) => void): (chunk: Buffer) => void {
    let first = true;
    return (chunk) => {
      this.bytes += chunk.length;
      const before = this.received;
      for (let at = chunk.indexOf('data:'); at >= 0; at = chunk.indexOf('data:', at + 5)) this.received++;
      if (this.received === before) return;
      this.chunksWithEvents++;
      if (first) {
        first = false;
        this.firstChunkBytes += chunk.length;
        resolve(performance.now() - t0);
      }
    };
  }
}

export interface StreamTarget {
  url: string;
  /** The sessions' cookies: stream i sends cookie i mod their number. */
  cookies: readonly string[];
  /** The runs the streams follow: stream i follows run i mod their number. */
  runIds: readonly string[];
}

/** Opens stream `i` into `held`; resolves with its open to first event (ms). */
export function openStream(target: StreamTarget, tally: StreamTally, i: number, held: Held[]): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    const t0 = performance.now();
    const path = `/api/wolfpack/runs/${target.runIds[i % target.runIds.length]}/events`;
    held.push(openEventStream(target.url, path, target.cookies[i % target.cookies.length]!, { onChunk: tally.reading(t0, resolve), onEnd: () => tally.ended++, onError: reject }));
  });
}

/** `count` streams opened by `atOnce` openers into `held`: each one's open to first event by the order opened (ms). */
export async function openCrowd(target: StreamTarget, tally: StreamTally, count: number, atOnce: number, held: Held[]): Promise<number[]> {
  const openMs: number[] = [];
  let next = 0;
  const opener = async () => {
    while (next < count) {
      const i = next++;
      openMs[i] = await openStream(target, tally, i, held);
    }
  };
  await Promise.all(Array.from({ length: atOnce }, opener));
  return openMs;
}

/** `count` streams arriving on their own, `perSecond` of them a second, none waiting for another: each one's open to first event (ms). */
export async function openArriving(target: StreamTarget, tally: StreamTally, count: number, perSecond: number, held: Held[]): Promise<number[]> {
  const openMs: number[] = [];
  const started = performance.now();
  const arriving: Array<Promise<void>> = [];
  for (let i = 0; i < count; i++) {
    // Timers fire a millisecond late or more; a late loop opens the streams that are due at once.
    const wait = started + (i * 1000) / perSecond - performance.now();
    if (wait >= 1) await new Promise((resolve) => setTimeout(resolve, wait));
    arriving.push(openStream(target, tally, i, held).then((ms) => void (openMs[i] = ms)));
  }
  await Promise.all(arriving);
  return openMs;
}
