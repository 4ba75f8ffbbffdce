// A child process for heap-settings.test.ts: applies the heap settings as the server does (argv[2]:
// "on" or "off"), then allocates and drops 1 GB of 64 KiB Buffers beside a live heap of a few MB,
// as an export does with rows and compressed output, and prints how many full collections V8 made.
import { constants, PerformanceObserver } from 'node:perf_hooks';
import { applyHeapSettings } from '../services/operations/heap-settings.js';

applyHeapSettings({ buffersInHeapLimit: process.argv[2] === 'on' });
const live = Array.from({ length: 300_000 }, (_, i) => ({ i, text: `object ${i}` }));
let full = 0;
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) if ((entry as { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR) full++;
}).observe({ entryTypes: ['gc'] });
const held: Buffer[] = [];
for (let i = 0; i < 16_000; i++) {
  held.push(Buffer.allocUnsafe(64 * 1024));
  if (held.length > 16) held.shift();
  if (i % 100 === 0) await new Promise((resolve) => setImmediate(resolve));
}
// The observer's entries are delivered on a later turn.
await new Promise((resolve) => setTimeout(resolve, 50));
process.stdout.write(`${JSON.stringify({ fullCollections: full, live: live.length })}\n`);
