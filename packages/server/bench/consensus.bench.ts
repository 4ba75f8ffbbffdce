// njin's consensus iteration with 3 engines of latency L, through runIteration: proposals run
// concurrently, then one concurrent voting round, so the wall time should be about 2 L plus the
// static verification of the candidates (target ≤ 2.5 L). The sequential baseline runs the very
// same iteration with every engine call queued behind the previous one (6 calls: about 6 L).
import type { Engine } from '@wolfpack/core';
import { runIteration, scriptedEngine, systemOf, verifyProjects, VOTE_SYSTEM_PROMPT } from '@wolfpack/core/pipeline';

const L = Number(process.env.BENCH_LATENCY_MS ?? 250);
const RUNS = 5;

// Every iteration gets files and proposals of its own (a numbered comment): the verifier caches
// by content, and a real iteration checks code it has never seen.
let iteration = 0;
const files = (n: number) => ({
  'src/math.ts': `// Iteration ${n}\nexport function add(a: number, b: number): number {\n  return a + b;\n}\n`,
  'src/main.ts': "import { add } from './math.js';\n\nconsole.log(add(1, 2));\n",
});

// Three different passing proposals, so the voting round always runs.
const proposal = (n: number, body: string) =>
  `\`\`\`ts src/math.ts\n// Iteration ${n}\nexport function add(a: number, b: number): number {\n  return a + b;\n}\n\nexport function subtract(a: number, b: number): number {\n${body}\n}\n\`\`\``;
const BODIES = ['  return a - b;', '  const d = a - b;\n  return d;', '  return a + -b;'];

function engines(latencyMs = L): Engine[] {
  const n = ++iteration;
  return BODIES.map((body) => proposal(n, body)).map((text, i) =>
    scriptedEngine(`bench-${i + 1}`, (request) => ({ text: systemOf(request.messages) === VOTE_SYSTEM_PROMPT ? 'VOTE: A' : text, delayMs: latencyMs })),
  );
}

/** The same engines with every call waiting for the previous one to finish. */
function queued(list: Engine[]): Engine[] {
  let tail: Promise<unknown> = Promise.resolve();
  return list.map((engine) => ({
    ...engine,
    complete: (request) => {
      const next = tail.then(() => engine.complete(request));
      tail = next.catch(() => undefined);
      return next;
    },
  }));
}

async function wall(list: Engine[]): Promise<{ ms: number; calls: number }> {
  const started = performance.now();
  const outcome = await runIteration({ files: files(iteration), instruction: 'Add a subtract function to src/math.ts.', mode: 'consensus', engines: list, verify: verifyProjects });
  return { ms: performance.now() - started, calls: outcome.calls.length };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

// Warm-up: the first type check loads TypeScript's lib files.
await wall(engines());

// The iteration's own work (prompts, verifying the files as sent, then the 3 candidates that arrive
// together in one batch, patches):
// the same iteration with instant engines.
const own: number[] = [];
for (let i = 0; i < RUNS; i++) own.push((await wall(engines(0))).ms);

console.log(`3 scripted engines, 6 calls per iteration (3 concurrent proposals, 3 concurrent votes), medians after one warm-up\n`);
console.log('| variant | L | runs | wall time | wall / L | target |');
console.log('| --- | ---: | ---: | ---: | ---: | --- |');
// Verification is synchronous CPU work (mostly the TypeScript check; candidates arriving together
// share one program, so one check costs about what three do):
// it weighs more against a short L, so the table also shows a longer one (real engines take seconds).
for (const [latency, runs] of [[L, RUNS], [4 * L, 3]] as const) {
  const concurrent: number[] = [];
  const sequential: number[] = [];
  for (let i = 0; i < runs; i++) {
    concurrent.push((await wall(engines(latency))).ms);
    sequential.push((await wall(queued(engines(latency)))).ms);
  }
  const row = (name: string, xs: number[], target: string) =>
    console.log(`| ${name} | ${latency} ms | ${runs} | ${median(xs).toFixed(0)} ms | ${(median(xs) / latency).toFixed(2)} L | ${target} |`);
  row('runIteration, consensus (proposals concurrent, one voting round)', concurrent, '≤ 2.5 L');
  row('sequential baseline (same iteration, engine calls one at a time)', sequential, '');
}
console.log(`| the iteration's own work (instant engines) | 0 ms | ${RUNS} | ${median(own).toFixed(0)} ms | ${(median(own) / L).toFixed(2)} × ${L} ms | |`);
