// What Proven Code's execution gate costs, measured side by side in one run: (a) sandbox startup
// (bwrap around `true` and `node -e 0`) against a plain spawn of the same; (b) the whole gate
// (install, tests, start) for a small Node project, with its dependencies cached (warm) and with
// an empty cache (cold). The dependency is a local package, so no network is involved; set
// BENCH_REGISTRY=1 to add a project whose dependency comes from the npm registry.
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { executeProject, findSandbox, withProjectCopy, type ExecutionReport } from '../src/proof/index.js';
import { tinyGreetPackage, usesLocalPackage } from '../src/proof/fixtures/faulty.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const WARM_TARGET_MS = 5000;

const found = await findSandbox();
if (!('sandbox' in found)) {
  console.log(`No sandbox on this machine (${found.unavailable}); nothing to measure.`);
  process.exit(0);
}
const { sandbox } = found;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
async function time(fn: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await fn();
  return performance.now() - started;
}
const plain = (argv: string[]) =>
  new Promise<void>((resolve, reject) => {
    const child = spawn(argv[0]!, argv.slice(1), { stdio: 'ignore' });
    child.on('error', reject);
    child.on('close', () => resolve());
  });

// (a) Sandbox startup.
const startup: { name: string; plain: number; sandboxed: number }[] = [];
await withProjectCopy({ 'a.txt': 'x' }, async (dir) => {
  for (const [name, inside, outside] of [
    ['true', ['true'], ['true']],
    ['node -e 0', ['node', '-e', '0'], [process.execPath, '-e', '0']],
  ] as const) {
    await sandbox.run(dir, { argv: [...inside] }); // warm the page cache
    const p: number[] = [];
    const s: number[] = [];
    for (let i = 0; i < RUNS * 2; i++) {
      p.push(await time(() => plain([...outside])));
      s.push(await time(() => sandbox.run(dir, { argv: [...inside] })));
    }
    startup.push({ name, plain: median(p), sandboxed: median(s) });
  }
});

// (b) The gate on a small Node project: install + tests + start.
const scratch = mkdtempSync(join(tmpdir(), 'wolfpack-bench-exec-'));
chmodSync(scratch, 0o755);
const pkg = join(scratch, 'tiny-greet');
for (const [path, content] of Object.entries(tinyGreetPackage)) {
  mkdirSync(join(pkg, path, '..'), { recursive: true });
  writeFileSync(join(pkg, path), content);
}
const project = usesLocalPackage(pkg);
const install = (cacheDir: string) => ({ cacheDir, allowLocalPackagesIn: [scratch] });
const step = (report: ExecutionReport, check: string) => Math.round(report.checks.find((c) => c.check === check)?.durationMs ?? 0);
function assertClean(report: ExecutionReport) {
  const failed = report.checks.filter((c) => c.status !== 'passed');
  if (failed.length > 0) throw new Error(`the bench project did not pass: ${JSON.stringify(failed)}`);
}

const cold: ExecutionReport[] = [];
for (let i = 0; i < Math.max(3, Math.ceil(RUNS / 2)); i++) {
  const report = await executeProject(project, { install: install(join(scratch, `cold-${i}`)) });
  assertClean(report);
  cold.push(report);
}
const warmCache = join(scratch, 'warm');
await executeProject(project, { install: install(warmCache) });
const warm: ExecutionReport[] = [];
for (let i = 0; i < RUNS; i++) {
  const report = await executeProject(project, { install: install(warmCache) });
  assertClean(report);
  warm.push(report);
}

const pick = (reports: ExecutionReport[]) => reports.find((r) => r.durationMs === median(reports.map((x) => x.durationMs)))!;
const row = (...cells: string[]) => console.log(`| ${cells.join(' | ')} |`);
console.log(`Sandbox: bubblewrap, ${RUNS * 2} runs each, medians${sandbox.notes.length ? `; notes: ${sandbox.notes.join('; ')}` : ''}\n`);
row('startup', 'plain spawn', 'in the sandbox', 'overhead');
row('---', '---:', '---:', '---:');
for (const s of startup) row(s.name, `${s.plain.toFixed(1)} ms`, `${s.sandboxed.toFixed(1)} ms`, `+${(s.sandboxed - s.plain).toFixed(1)} ms`);

console.log(`\nSmall Node project (1 local dependency, 1 node:test test, a start script), medians of ${cold.length} cold and ${warm.length} warm runs\n`);
row('gate', 'total', 'install', 'tests', 'start', 'target');
row('---', '---:', '---:', '---:', '---:', '---');
for (const [name, reports, target] of [
  ['warm (dependencies cached)', warm, `<= ${WARM_TARGET_MS / 1000} s`],
  ['cold (empty cache)', cold, ''],
] as const) {
  const r = pick(reports);
  const verdict = target ? `${target} ${r.durationMs <= WARM_TARGET_MS ? '(met)' : '(NOT met)'}` : '';
  row(name, `${r.durationMs} ms`, `${step(r, 'install')} ms`, `${step(r, 'tests')} ms`, `${step(r, 'start')} ms`, verdict);
}

if (process.env.BENCH_REGISTRY === '1') {
  const registry = { ...project, 'package.json': JSON.stringify({ type: 'module', dependencies: { 'left-pad': '1.3.0' }, scripts: { test: 'node --test', start: 'node index.js' } }), 'index.js': "import leftPad from 'left-pad';\nconsole.log(leftPad('x', 3));\n", 'test/greet.test.js': "import test from 'node:test';\ntest('ok', () => {});\n" };
  const cacheDir = join(scratch, 'registry');
  const first = await executeProject(registry, { install: { cacheDir } });
  const second = await executeProject(registry, { install: { cacheDir } });
  row('registry cold (left-pad)', `${first.durationMs} ms`, `${step(first, 'install')} ms`, `${step(first, 'tests')} ms`, `${step(first, 'start')} ms`, '');
  row('registry warm (left-pad)', `${second.durationMs} ms`, `${step(second, 'install')} ms`, `${step(second, 'tests')} ms`, `${step(second, 'start')} ms`, `<= ${WARM_TARGET_MS / 1000} s`);
}
rmSync(scratch, { recursive: true, force: true });
