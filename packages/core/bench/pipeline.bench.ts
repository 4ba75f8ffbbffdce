// Pipeline orchestration against fake engines of fixed latency L, measured side by side in one
// run: (a) what the pipeline itself adds on top of the engine time, (b) Building a 20-file plan
// with fan-out against the 20 x L a sequential build would take.
import { runPipeline, scriptedEngine, systemOf, userOf, type PipelineInput } from '../src/pipeline/index.js';

// Real engines answer in seconds; 250 ms is already far faster than any of them.
const L = Number(process.env.BENCH_LATENCY_MS ?? 250);

function engine(files: number) {
  const plan = Array.from({ length: files }, (_, i) => `FILE: src/part${i}.js - part ${i}`).join('\n');
  return scriptedEngine('alpha', (req) => {
    const system = systemOf(req.messages);
    const user = userOf(req.messages);
    if (/Planning engine/.test(system)) return { text: `Parts.\n${plan}`, delayMs: L };
    const m = /Write the complete file (\S+) \(/.exec(user);
    if (m) return { text: `\`\`\`js ${m[1]}\nexport const value = ${JSON.stringify(m[1])};\n\`\`\``, delayMs: L };
    if (/Polishing engine/.test(system)) return { text: 'UNCHANGED', delayMs: L };
    return { text: 'nothing to change', delayMs: L };
  });
}

async function timed(input: PipelineInput) {
  const stageTimes = new Map<string, number>();
  const started = performance.now();
  const gen = runPipeline(input);
  let step = await gen.next();
  let stageStart = started;
  while (!step.done) {
    const e = step.value;
    if (e.type === 'stage' && !e.ok) stageStart = performance.now();
    if (e.type === 'stage' && e.ok) stageTimes.set(e.role, performance.now() - stageStart);
    step = await gen.next();
  }
  return { wall: performance.now() - started, stageTimes };
}

// (a) Overhead: every engine call in sequence (concurrency 1), so engine time adds up exactly.
const seqEngine = engine(4);
await timed({ idea: 'warm up', engines: [engine(4)], buildConcurrency: 1 });
const a = await timed({ idea: 'Overhead', engines: [seqEngine], buildConcurrency: 1 });
const engineMs = seqEngine.calls.length * L;
const overhead = a.wall - engineMs;

// (b) Fan-out: 20 planned files with the default concurrency vs 20 x L in sequence.
const fan = await timed({ idea: 'Fan out', engines: [engine(20)] });
const seq = await timed({ idea: 'Sequential', engines: [engine(20)], buildConcurrency: 1 });
const fanBuild = fan.stageTimes.get('Building')!;
const seqBuild = seq.stageTimes.get('Building')!;

const row = (name: string, value: string, ratio: string, target: string) => console.log(`| ${name} | ${value} | ${ratio} | ${target} |`);
console.log(`Fake engines with latency L = ${L} ms\n`);
console.log('| measure | value | ratio | target |');
console.log('| --- | ---: | ---: | --- |');
row('(a) run wall time vs summed engine time', `${a.wall.toFixed(1)} ms vs ${engineMs} ms`, `${((overhead / engineMs) * 100).toFixed(2)} % overhead`, '< 1 %');
row('(a) overhead per stage', `${(overhead / 5).toFixed(2)} ms`, '', '< 5 ms');
row('(b) Building 20 files, fan-out', `${fanBuild.toFixed(1)} ms`, `${(fanBuild / L).toFixed(2)} L`, '<= 3 L');
row('(b) Building 20 files, sequential', `${seqBuild.toFixed(1)} ms`, `${(seqBuild / L).toFixed(2)} L`, '(20 L)');
row('(b) fan-out speed-up', '', `${(seqBuild / fanBuild).toFixed(1)} x`, '');
