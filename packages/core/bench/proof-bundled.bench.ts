// Bundled web apps through the execution gate and the preview build, side by side:
// the gate's time for a small React + Vite app with a warm dependency cache (install from the
// cache, build with vite, render in Chromium; targets: <= 8 s) and a warm preview build (<= 5 s),
// the peak memory of everything the sandbox ran (bounded by its limits, printed beside them), and
// correct Vue + Vite and Svelte + Vite apps through the gate (they must pass clean).
//
// Dependencies come from the npm registry on first use (WOLFPACK_PROOF_CACHE_DIR, else a folder of
// this bench's own in the temp dir, kept for the next run), so the first run also installs.
// `BENCH_RUNS` (default 5) warm runs per candidate; medians are printed.
import { readdirSync, readFileSync } from 'node:fs';
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REACT_TS } from '../src/pipeline/faults/projects.js';
import { planBundle } from '../src/proof/bundle-plan.js';
import { executeProject } from '../src/proof/execute-project.js';
import { buildPreview } from '../src/proof/preview-site.js';
import { DEFAULT_SANDBOX_LIMITS } from '../src/proof/sandbox-limits.js';
import { findSandbox } from '../src/proof/sandbox.js';

const found = await findSandbox();
if (!('sandbox' in found)) {
  console.log(`No sandbox here (${found.unavailable}): nothing to measure.`);
  process.exit(0);
}
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const cacheDir = process.env.WOLFPACK_PROOF_CACHE_DIR ?? join(tmpdir(), 'wolfpack-bench-proof-deps');
mkdirSync(cacheDir, { recursive: true, mode: 0o755 });
const install = { cacheDir };

const VUE_VITE: Record<string, string> = {
  'package.json': JSON.stringify({ name: 'vue-counter', private: true, type: 'module', scripts: { dev: 'vite', build: 'vite build' }, dependencies: { vue: '^3.5.0' }, devDependencies: { vite: '^8.0.0', '@vitejs/plugin-vue': '^6.0.0' } }, null, 2),
  'vite.config.js': "import { defineConfig } from 'vite';\nimport vue from '@vitejs/plugin-vue';\n\nexport default defineConfig({ plugins: [vue()] });\n",
  'index.html': '<!doctype html>\n<html lang="en"><head><meta charset="UTF-8"><title>Counter</title></head><body><div id="app"></div><script type="module" src="/src/main.js"></script></body></html>\n',
  'src/main.js': "import { createApp } from 'vue';\nimport App from './App.vue';\n\ncreateApp(App).mount('#app');\n",
  'src/App.vue': '<script setup>\nimport { ref } from \'vue\';\nconst count = ref(0);\n</script>\n\n<template>\n  <h1>Counter</h1>\n  <button type="button" @click="count++">Clicked {{ count }} times</button>\n</template>\n',
};
const SVELTE_VITE: Record<string, string> = {
  'package.json': JSON.stringify({ name: 'svelte-counter', private: true, type: 'module', scripts: { dev: 'vite', build: 'vite build' }, devDependencies: { svelte: '^5.0.0', vite: '^8.0.0', '@sveltejs/vite-plugin-svelte': '^7.0.0' } }, null, 2),
  'vite.config.js': "import { defineConfig } from 'vite';\nimport { svelte } from '@sveltejs/vite-plugin-svelte';\n\nexport default defineConfig({ plugins: [svelte()] });\n",
  'index.html': '<!doctype html>\n<html lang="en"><head><meta charset="UTF-8"><title>Counter</title></head><body><div id="app"></div><script type="module" src="/src/main.js"></script></body></html>\n',
  'src/main.js': "import { mount } from 'svelte';\nimport App from './App.svelte';\n\nmount(App, { target: document.getElementById('app') });\n",
  'src/App.svelte': '<script>\n  let count = $state(0);\n</script>\n\n<h1>Counter</h1>\n<button type="button" onclick={() => count++}>Clicked {count} times</button>\n',
};

/**
 * Memory of every process this one started (the sandboxes and what runs in them), sampled: the
 * proportional set size, so pages Chromium's processes share are counted once, not per process.
 */
function watchChildrenMemory(): { stop(): number } {
  let peak = 0;
  const sample = () => {
    const parents = new Map<number, number>();
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
        parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
      } catch {
        // gone meanwhile
      }
    }
    const mine = (pid: number): boolean => pid === process.pid || (parents.has(pid) && pid !== 1 && mine(parents.get(pid)!));
    let total = 0;
    for (const pid of parents.keys()) {
      if (pid === process.pid || !mine(pid)) continue;
      try {
        total += Number(/^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))?.[1] ?? 0) * 1024;
      } catch {
        // gone meanwhile
      }
    }
    peak = Math.max(peak, total);
  };
  const timer = setInterval(sample, 50);
  return {
    stop() {
      clearInterval(timer);
      return peak;
    },
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const MiB = 1024 * 1024;

// Warm-up: installs the dependencies into the cache (from the registry, once) and builds once.
const warm = await executeProject(REACT_TS, { install });
const failed = warm.checks.filter((c) => c.status === 'failed');
if (failed.length > 0) throw new Error(`the React app did not pass the gate: ${JSON.stringify(failed, null, 2)}`);

const gateMs: number[] = [];
const previewMs: number[] = [];
let gatePeak = 0;
let previewPeak = 0;
const plan = planBundle(REACT_TS)!;
for (let i = 0; i < RUNS; i++) {
  let memory = watchChildrenMemory();
  let t = performance.now();
  await executeProject(REACT_TS, { install });
  gateMs.push(performance.now() - t);
  gatePeak = Math.max(gatePeak, memory.stop());

  memory = watchChildrenMemory();
  t = performance.now();
  const built = await buildPreview(REACT_TS, plan, { install });
  previewMs.push(performance.now() - t);
  previewPeak = Math.max(previewPeak, memory.stop());
  if (!built.ok) throw new Error(`the preview build failed: ${JSON.stringify(built)}`);
}

console.log(`React + Vite + TypeScript app (${Object.keys(REACT_TS).length} files), warm dependency cache, ${RUNS} runs each, medians:\n`);
console.log('| candidate | median | target | ratio to target | met |');
console.log('| --- | ---: | ---: | ---: | --- |');
for (const [name, ms, target] of [
  ['the execution gate (install from cache, vite build, render in Chromium)', median(gateMs), 8000],
  ['a preview build (install from cache, vite build)', median(previewMs), 5000],
] as const) {
  console.log(`| ${name} | ${(ms / 1000).toFixed(2)} s | ${target / 1000} s | ${(ms / target).toFixed(2)} | ${ms <= target ? 'yes' : 'NO'} |`);
}
console.log('\nMemory of what the sandbox ran (every process under this one, sampled every 50 ms), against its limits:\n');
console.log('| candidate | peak (proportional set size) | limit per command (address space) |');
console.log('| --- | ---: | --- |');
console.log(`| the gate (the build, then Chromium and its renderer) | ${(gatePeak / MiB).toFixed(0)} MiB | ${DEFAULT_SANDBOX_LIMITS.memoryBytes / MiB} MiB + ${DEFAULT_SANDBOX_LIMITS.runtimeReserveBytes / MiB} MiB reserve per build command; Chromium's address space is unlimited, its heap 256 MiB (--max-old-space-size) |`);
console.log(`| a preview build | ${(previewPeak / MiB).toFixed(0)} MiB | the same as the build's |`);

console.log('\nOther correct bundled apps through the gate (first run installs from the registry):\n');
console.log('| app | build | render | verdict |');
console.log('| --- | --- | --- | --- |');
for (const [name, files] of [['Vue + Vite', VUE_VITE], ['Svelte + Vite', SVELTE_VITE]] as const) {
  const report = await executeProject(files, { install });
  const status = (check: string) => {
    const c = report.checks.find((x) => x.check === check);
    return c ? `${c.status}${c.summary ? ` (${c.summary})` : c.reason ? ` (${c.reason})` : ''}${c.problems[0] ? `: ${c.problems[0].path}${c.problems[0].line ? `:${c.problems[0].line}` : ''} ${c.problems[0].message}` : ''}` : 'not run';
  };
  const bad = report.checks.filter((c) => c.status === 'failed');
  console.log(`| ${name} | ${status('build')} | ${status('render')} | ${bad.length === 0 ? 'passes clean' : `FAILED: ${bad.map((c) => c.check).join(', ')}`} |`);
}
