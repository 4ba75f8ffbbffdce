// Multi-pass enhancement (2 passes x 4 engines + a final merge) against fake engines of fixed
// latency L, beside a sequential chain of the same eight steps, measured in one run.
import { runEnhancement } from '../src/enhance/index.js';
import { scriptedEngine } from '../src/pipeline/index.js';

const L = Number(process.env.BENCH_LATENCY_MS ?? 250);
const engines = ['a', 'b', 'c', 'd'].map((k) => scriptedEngine(k, () => ({ text: `${k}: a refined prompt`, delayMs: L })));

async function enhanced(): Promise<number> {
  const started = performance.now();
  const gen = runEnhancement({ prompt: 'A habit tracker', engines });
  for (let step = await gen.next(); !step.done; step = await gen.next());
  return performance.now() - started;
}

async function sequentialChain(): Promise<number> {
  const started = performance.now();
  let prompt = 'A habit tracker';
  for (let i = 0; i < 8; i++) {
    const r = await engines[i % 4]!.complete({ messages: [{ role: 'user', content: prompt }] });
    prompt = r.text;
  }
  return performance.now() - started;
}

await enhanced(); // warm-up
const ours = await enhanced();
const chain = await sequentialChain();
console.log(`Fake engines with latency L = ${L} ms\n`);
console.log('| candidate | wall time | ratio | target |');
console.log('| --- | ---: | ---: | --- |');
console.log(`| 8-step enhancement (2 passes x 4, concurrent) + merge | ${ours.toFixed(1)} ms | ${(ours / L).toFixed(2)} L | <= 3.5 L |`);
console.log(`| sequential chain of the 8 steps | ${chain.toFixed(1)} ms | ${(chain / L).toFixed(2)} L | (8 L) |`);
console.log(`| speed-up | | ${(chain / ours).toFixed(2)} x | |`);
