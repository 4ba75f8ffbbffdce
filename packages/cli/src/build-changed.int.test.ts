/**
 * scripts/build-changed.mjs, npm start's build: on a workspace of its own (git, two packages, b
 * depending on a, whose build records each run), an unchanged second start builds nothing and
 * says nothing, and whatever a build reads (a source, the lockfile, the toolchain, a dist that
 * someone else rewrote) builds again. A failed or interrupted build leaves no stamp.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const SCRIPT = fileURLToPath(new URL('../../../scripts/build-changed.mjs', import.meta.url));

// Each package's build: records that it ran, fails on FAIL in a source, waits on SLOW, writes dist.
const BUILD = `
import { appendFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';
const name = basename(process.cwd());
appendFileSync('../../builds.log', name + '\\n');
const sources = readdirSync('src').filter((file) => !file.includes('.test.')).map((file) => readFileSync('src/' + file, 'utf8')).join('');
if (sources.includes('FAIL')) { console.log('src/index.ts(1,1): error TS2304: Cannot find name FAIL.'); process.exit(2); }
mkdirSync('dist', { recursive: true });
writeFileSync('dist/index.js', sources);
if (sources.includes('SLOW')) await new Promise((resolve) => setTimeout(resolve, 60_000));
`;

let root: string;
let bin: string;

async function put(path: string, text: string) {
  await mkdir(join(root, path, '..'), { recursive: true });
  await writeFile(join(root, path), text);
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'wolfpack-build-changed-'));
  await put('package.json', '{ "name": "fake", "private": true }\n');
  await put('pnpm-workspace.yaml', 'packages:\n  - packages/*\n');
  await put('build.mjs', BUILD);
  await put('.gitignore', 'dist/\nnode_modules/\n.env\n');
  await put('packages/a/package.json', '{ "name": "@fake/a", "scripts": { "build": "node ../../build.mjs" } }\n');
  await put('packages/a/src/index.ts', 'export const a = 1;\n');
  await put('packages/a/src/index.test.ts', 'test\n');
  await put('packages/b/package.json', '{ "name": "@fake/b", "dependencies": { "@fake/a": "workspace:*" }, "scripts": { "build": "node ../../build.mjs" } }\n');
  await put('packages/b/src/index.ts', 'export const b = 2;\n');
  // The lockfile and links pnpm makes (\`pnpm run\` would make them on the first build otherwise).
  execFileSync('pnpm', ['install', '--offline', '--reporter=silent'], { cwd: root, stdio: 'ignore' });
  execFileSync('git', ['init', '-q'], { cwd: root });
  execFileSync('git', ['add', '.'], { cwd: root });
  // pnpm answers the version this test chooses, and runs the real one otherwise.
  bin = join(root, 'fake-bin');
  const realPnpm = execFileSync('sh', ['-c', 'command -v pnpm'], { encoding: 'utf8' }).trim();
  await put('fake-bin/pnpm', `#!/bin/sh\nif [ "$1" = --version ] && [ -n "$FAKE_PNPM_VERSION" ]; then echo "$FAKE_PNPM_VERSION"; exit 0; fi\nexec '${realPnpm}' "$@"\n`);
  await chmod(join(bin, 'pnpm'), 0o755);
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/** Runs the script on the fake workspace: its exit code, stderr and the packages it built. */
async function start(env: Record<string, string> = {}) {
  await writeFile(join(root, 'builds.log'), '');
  const result = spawnSync(process.execPath, [SCRIPT, root], {
    env: { ...process.env, PATH: `${bin}:${process.env.PATH}`, ...env },
    encoding: 'utf8',
  });
  const built = (await readFile(join(root, 'builds.log'), 'utf8')).split('\n').filter(Boolean);
  return { code: result.status, stdout: result.stdout, stderr: result.stderr, built };
}

describe('npm start builds only what changed (scripts/build-changed.mjs)', () => {
  it('builds every package the first time, then nothing and silently while nothing changed', async () => {
    expect(await start()).toEqual({ code: 0, stdout: '', stderr: 'wolfpack: building a and b (first build)\n', built: ['a', 'b'] });
    expect(await start()).toEqual({ code: 0, stdout: '', stderr: '', built: [] });
    expect(await start()).toEqual({ code: 0, stdout: '', stderr: '', built: [] });
  });

  it('a changed source builds its package and the packages that depend on it', async () => {
    await put('packages/b/src/index.ts', 'export const b = 3;\n');
    expect(await start()).toMatchObject({ code: 0, stderr: 'wolfpack: building b (changed since the last build)\n', built: ['b'] });
    await put('packages/a/src/index.ts', 'export const a = 2;\n');
    expect((await start()).built).toEqual(['a', 'b']);
    // A new file git does not know yet counts; a test file does not.
    await put('packages/a/src/extra.ts', 'export const extra = 1;\n');
    expect((await start()).built).toEqual(['a', 'b']);
    await put('packages/a/src/index.test.ts', 'changed test\n');
    expect((await start()).built).toEqual([]);
    // A source that comes back to what was built last time: that build is the one in dist.
    await put('packages/b/src/index.ts', 'export const b = 4;\n');
    expect((await start()).built).toEqual(['b']);
    await put('packages/b/src/index.ts', 'export const b = 3;\n');
    expect((await start()).built).toEqual(['b']);
    expect(await readFile(join(root, 'packages/b/dist/index.js'), 'utf8')).toBe('export const b = 3;\n');
  });

  it('the lockfile, the Node or pnpm version, NODE_ENV and .env files build again', async () => {
    await writeFile(join(root, 'pnpm-lock.yaml'), `${await readFile(join(root, 'pnpm-lock.yaml'), 'utf8')}\n`);
    expect((await start()).built).toEqual(['a', 'b']);
    expect((await start({ FAKE_PNPM_VERSION: '99.0.0' })).built).toEqual(['a', 'b']);
    expect((await start()).built).toEqual(['a', 'b']);
    expect((await start({ NODE_ENV: 'development' })).built).toEqual(['a', 'b']);
    expect((await start()).built).toEqual(['a', 'b']);
    await put('packages/b/.env', 'VITE_API=x\n');
    expect((await start()).built).toEqual(['b']);
    expect((await start()).built).toEqual([]);
  });

  it('a dist that something else rewrote or that lost a file builds again', async () => {
    // As `pnpm build` after an edit that was then undone leaves it: dist from other sources.
    await put('packages/a/dist/index.js', 'from other sources\n');
    expect((await start()).built).toEqual(['a']);
    await unlink(join(root, 'packages/b/dist/index.js'));
    expect((await start()).built).toEqual(['b']);
    await rm(join(root, 'packages/a/dist'), { recursive: true });
    expect((await start()).built).toEqual(['a']);
    expect((await start()).built).toEqual([]);
  });

  it('a failed build shows its whole output and what to do, stamps nothing, and is tried again', async () => {
    await put('packages/a/src/index.ts', 'FAIL\n');
    const failed = await start();
    expect(failed.code).toBe(1);
    expect(failed.built).toEqual(['a']); // b waits for a and is not built
    expect(failed.stderr).toContain('wolfpack: building a and b (changed since the last build)\n');
    expect(failed.stderr).toContain('src/index.ts(1,1): error TS2304: Cannot find name FAIL.');
    expect(failed.stderr).toContain('wolfpack: building packages/a failed (its output is above), so Wolfpack did not start.');
    expect(existsSync(join(root, 'packages/a/dist/.wolfpack-build-stamp'))).toBe(false);
    expect((await start()).built).toEqual(['a']);
    await put('packages/a/src/index.ts', 'export const a = 5;\n');
    expect(await start()).toMatchObject({ code: 0, built: ['a', 'b'] });
    expect((await start()).built).toEqual([]);
  });

  it('a build that is cut short leaves no stamp, and the next start builds again', async () => {
    await put('packages/a/src/index.ts', 'SLOW\n');
    await writeFile(join(root, 'builds.log'), '');
    const child = spawn(process.execPath, [SCRIPT, root], { env: { ...process.env, PATH: `${bin}:${process.env.PATH}` }, stdio: 'ignore' });
    // Killed once the build has written its dist, before it ended.
    for (let i = 0; i < 600 && !(await readFile(join(root, 'packages/a/dist/index.js'), 'utf8').catch(() => '')).includes('SLOW'); i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const gone = new Promise((resolve) => child.on('exit', resolve));
    child.kill('SIGKILL');
    await gone;
    expect(existsSync(join(root, 'packages/a/dist/.wolfpack-build-stamp'))).toBe(false);
    await put('packages/a/src/index.ts', 'export const a = 5;\n');
    // The sources are those of the last full build again, but dist is not.
    expect((await start()).built).toEqual(['a']);
    expect(await readFile(join(root, 'packages/a/dist/index.js'), 'utf8')).toBe('export const extra = 1;\nexport const a = 5;\n');
    expect((await start()).built).toEqual([]);
  });
});
