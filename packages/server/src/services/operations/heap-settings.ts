import { setFlagsFromString } from 'node:v8';

/**
 * How V8 decides its next full collection, for the whole process (every server in it, Proven
 * Code's thread too). `buffersInHeapLimit`: memory outside the JavaScript heap (ArrayBuffers:
 * Buffers of rows read, compressed output, socket writes) counts towards the same limit as the
 * heap, which grows with it after each collection (V8's `--external-memory-accounted-in-global-limit`).
 *
 * Why: with Node's default, V8 starts a full collection each time such memory has grown by a few
 * MB since the last one. An export of 49 MB of files allocates a few hundred MB of Buffers that
 * live for milliseconds, so it made 8–11 full collections, each marking the whole heap (75 MB in
 * the bench's server): 0.9–1.6 s of CPU on V8's helper threads an export, on a machine of two
 * cores, where the compression needs the other core. Side by side (`pnpm bench export`, PGlite):
 * 0–1 full collections an export, V8's helpers 0.2 s, exports 1.4–1.6 s against 1.9–2.4 s.
 *
 * Set while the process runs, not on its command line: Node accepts no V8 options in NODE_OPTIONS,
 * and the server is started by `npm start`, `pnpm wolfpack serve`, the image and tests alike. V8
 * reads the flag at each collection's limit, so setting it before the first request takes effect.
 */
export function applyHeapSettings({ buffersInHeapLimit }: { buffersInHeapLimit: boolean }): void {
  setFlagsFromString(buffersInHeapLimit ? '--external-memory-accounted-in-global-limit' : '--no-external-memory-accounted-in-global-limit');
}
