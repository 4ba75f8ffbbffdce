import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REACT_JS, REACT_TS } from '../pipeline/faults/projects.js';
import { buildErrorLine, bundlerCrashed, mountSelector, viteShim } from './check-bundle.js';
import type { SandboxResult } from './sandbox.js';
import { planBundle, SITE_DIR } from './bundle-plan.js';
import { projectKinds } from './execute-project.js';

const pkg = (deps: Record<string, string>, scripts: Record<string, string> = {}) => JSON.stringify({ name: 'x', scripts, devDependencies: deps });

describe('planBundle', () => {
  it("builds a Vite app with its own build script, then once more in development mode for the render", () => {
    const render = { command: `vite build --minify false --sourcemap --base / --outDir ${SITE_DIR} --emptyOutDir`, display: 'NODE_ENV=development vite build --minify false --sourcemap', env: { NODE_ENV: 'development' } };
    expect(planBundle(REACT_TS)).toEqual({
      tool: 'vite',
      command: 'tsc -b && vite build',
      display: 'npm run build (tsc -b && vite build)',
      outDirs: [SITE_DIR, 'dist', 'build', 'out'],
      env: { NODE_ENV: 'production', ROLLDOWN_WORKER_THREADS: '2' },
      sourcePage: 'index.html',
      viteOutput: true,
      renderBuild: render,
    });
    expect(planBundle(REACT_JS)).toMatchObject({ tool: 'vite', command: 'vite build', display: 'npm run build (vite build)' });
    // npm's pre and post scripts run around it; without a build script, Vite itself.
    const hooked = { ...REACT_TS, 'package.json': pkg({ vite: '8' }, { prebuild: 'node gen.js', build: 'tsc && vite build' }) };
    expect(planBundle(hooked)).toMatchObject({ command: 'node gen.js && tsc && vite build', display: 'npm run build (tsc && vite build)', renderBuild: render });
    expect(planBundle({ ...REACT_TS, 'package.json': pkg({ vite: '8' }, { dev: 'vite' }) })).toMatchObject({ command: 'vite build', display: 'vite build', renderBuild: render });
  });

  it('runs the build script of the other bundlers, with npm\'s pre and post scripts, and looks in their output folders', () => {
    const webpack = planBundle({ 'package.json': pkg({ webpack: '5' }, { prebuild: 'node gen.js', build: 'webpack --mode production' }), 'src/index.html': '<div id="app"></div>' });
    expect(webpack).toMatchObject({ tool: 'webpack', command: 'node gen.js && webpack --mode production', display: 'npm run build (webpack --mode production)', outDirs: ['dist', 'build', 'public', 'out'] });
    const cra = planBundle({ 'package.json': pkg({ 'react-scripts': '5' }, { build: 'react-scripts build' }), 'public/index.html': '<div id="root"></div>' });
    expect(cra).toMatchObject({ tool: 'react-scripts', outDirs: ['build', 'dist', 'out'], env: { NODE_ENV: 'production', PUBLIC_URL: '.', GENERATE_SOURCEMAP: 'true' }, sourcePage: 'public/index.html' });
    expect(planBundle({ 'package.json': pkg({ '@sveltejs/kit': '2', vite: '6' }, { build: 'vite build' }) })).toMatchObject({ tool: 'sveltekit', outDirs: ['build', 'dist', 'out'] });
  });

  it('leaves out what builds no site: no bundler, a library, a Next app that needs its server, a bundler without a build script', () => {
    expect(planBundle({ 'package.json': pkg({ express: '4' }), 'index.js': '' })).toBeNull();
    expect(planBundle({ 'package.json': pkg({ vite: '8' }, { build: 'vite build' }), 'src/lib.ts': 'export const x = 1;' })).toBeNull();
    expect(planBundle({ 'package.json': pkg({ next: '15' }, { build: 'next build' }), 'next.config.js': 'module.exports = {};' })).toBeNull();
    expect(planBundle({ 'package.json': pkg({ next: '15' }, { build: 'next build' }), 'next.config.mjs': "export default { output: 'export' };" })).toMatchObject({ tool: 'next', outDirs: ['out', 'dist', 'build'] });
    expect(planBundle({ 'package.json': pkg({ webpack: '5' }), 'index.html': '' })).toBeNull();
    expect(planBundle({ 'index.html': '' })).toBeNull();
  });
});

describe('projectKinds of a bundled app', () => {
  it('builds and renders it instead of starting it, unless it has a server of its own to start', () => {
    // src/main.js is the browser's entry: Node would fail on its .vue import, a false alarm.
    const vue = projectKinds({ ...REACT_JS, 'package.json': pkg({ vite: '8' }, { dev: 'vite', build: 'vite build' }), 'src/main.js': "import App from './App.vue';" });
    expect(vue.bundle?.tool).toBe('vite');
    expect(vue.node?.start).toEqual({ skip: 'the app is built with vite and its page rendered instead of starting its dev server' });
    expect(projectKinds({ ...REACT_JS, 'package.json': pkg({ vite: '8' }, { start: 'vite preview', build: 'vite build' }) }).node?.start).toHaveProperty('skip');
    const served = projectKinds({ ...REACT_JS, 'package.json': pkg({ vite: '8', express: '5' }, { start: 'node server.js', build: 'vite build' }), 'server.js': 'import express from "express";' });
    expect(served.node?.start).toMatchObject({ display: 'npm start (node server.js)' });
    expect(served.pages).toEqual([]);
  });
});

describe('mountSelector', () => {
  it('finds the empty element with an id the app mounts into', () => {
    expect(mountSelector(REACT_TS['index.html'])).toBe('#root');
    expect(mountSelector('<html><head><div id="head-thing"></div></head><body><header id="top">Hi</header><main id="app">\n</main></body></html>')).toBe('#app');
    expect(mountSelector('<body><h1>Static</h1></body>')).toBeUndefined();
    expect(mountSelector(undefined)).toBeUndefined();
  });
});

describe('buildErrorLine', () => {
  it('picks the line that says what is wrong, whatever the bundler', () => {
    expect(buildErrorLine('vite v8 building…\n\u001b[31merror during build:\nBuild failed with 1 error:\n\n[MISSING_EXPORT] "x" is not exported by "src/a.js".\n   ╭─[ src/b.jsx:2:10 ]\n}')).toBe('[MISSING_EXPORT] "x" is not exported by "src/a.js".');
    expect(buildErrorLine('✘ [ERROR] Could not resolve "./missing"\n\n    src/index.ts:1:7:')).toBe('[ERROR] Could not resolve "./missing"');
    expect(buildErrorLine("ERROR in ./src/index.js 3:0-27\nModule not found: Error: Can't resolve './nope' in '/project/src'")).toBe("Module not found: Error: Can't resolve './nope' in '/project/src'");
    expect(buildErrorLine('src/main.ts(3,5): error TS2304: Cannot find name \'x\'.')).toBe("src/main.ts(3,5): error TS2304: Cannot find name 'x'.");
    expect(buildErrorLine('something odd happened\nand then it stopped')).toBe('and then it stopped');
  });
});

describe('bundlerCrashed', () => {
  const run = (over: Partial<SandboxResult>): SandboxResult => ({ exitCode: 0, signal: null, stdout: '', stderr: '', durationMs: 1, outputTruncated: false, command: 'vite build', ...over });
  it('is a crash signal of the bundler with no error of the project in its output', () => {
    expect(bundlerCrashed(run({ exitCode: 134, stderr: 'vite v8 building for production…\nAborted (core dumped)' }))).toBe(true);
    expect(bundlerCrashed(run({ exitCode: 139, stderr: 'Segmentation fault' }))).toBe(true);
    expect(bundlerCrashed(run({ exitCode: null, signal: 'SIGABRT' }))).toBe(true);
  });
  it('is not a build that failed on the code, a limit that stopped it, or a plain exit status', () => {
    expect(bundlerCrashed(run({ exitCode: 134, stderr: '[MISSING_EXPORT] "x" is not exported by "src/a.js".\nAborted' }))).toBe(false);
    expect(bundlerCrashed(run({ exitCode: 134, stopped: 'memory' }))).toBe(false);
    expect(bundlerCrashed(run({ exitCode: 1, stderr: 'error during build' }))).toBe(false);
    expect(bundlerCrashed(run({ exitCode: 0 }))).toBe(false);
  });
});

describe('viteShim', () => {
  it("sends the project's vite build to the site folder, from the root, with source maps, and leaves every other command alone", () => {
    const dir = mkdtempSync(join(tmpdir(), 'wolfpack-vite-shim-'));
    try {
      // A vite that says what it was given.
      writeFileSync(join(dir, 'vite.mjs'), 'console.log(JSON.stringify(process.argv.slice(2)));\n');
      writeFileSync(join(dir, 'shim.cjs'), viteShim(join(dir, 'vite.mjs')));
      const run = (...args: string[]) => JSON.parse(execFileSync(process.execPath, [join(dir, 'shim.cjs'), ...args], { encoding: 'utf8' })) as string[];
      const ours = ['--outDir', SITE_DIR, '--emptyOutDir', '--base', '/', '--sourcemap'];
      expect(run('build')).toEqual(['build', ...ours]);
      expect(run('build', '--outDir', 'public/app', '--base=/repo/', '--sourcemap', 'hidden', '-m', 'staging', '--emptyOutDir')).toEqual(['build', '-m', 'staging', ...ours]);
      expect(run('build', '--ssr', 'src/entry-server.ts', '--outDir', 'dist/server')).toEqual(['build', '--ssr', 'src/entry-server.ts', '--outDir', 'dist/server']);
      expect(run('preview', '--port', '4173')).toEqual(['preview', '--port', '4173']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
