import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UsageError } from './usage-error.js';
import { checkOutputDir, writeProject } from './write-project.js';

let base: string;
let out: string;

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'wolfpack-write-'));
  out = join(base, 'out');
});
afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

/** Every file under `dir`, as relative paths. */
async function tree(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => !entry.isDirectory())
    .map((entry) => join(entry.parentPath, entry.name).slice(dir.length + 1))
    .sort();
}

describe('writeProject', () => {
  it('writes every file byte for byte, creating folders, and normalises harmless spellings', async () => {
    const files = { 'index.html': '<h1>Hi ✔</h1>\n', 'src/lib/app.js': 'export const a = 1;\r\n', './src//util.ts': 'x' };
    const result = await writeProject(out, files);
    expect(result).toEqual({ dir: out, written: ['index.html', 'src/lib/app.js', 'src/util.ts'], refused: [] });
    expect(await tree(out)).toEqual(['index.html', 'src/lib/app.js', 'src/util.ts']);
    expect(await readFile(join(out, 'index.html'), 'utf8')).toBe('<h1>Hi ✔</h1>\n');
    expect(await readFile(join(out, 'src/lib/app.js'), 'utf8')).toBe('export const a = 1;\r\n');
  });

  it('refuses hostile paths and writes nothing outside the folder', async () => {
    const hostile = [
      '../escape.txt',
      'a/../../escape.txt',
      '/tmp/absolute.txt',
      `${base}/absolute.txt`,
      'C:/windows.txt',
      'a\\..\\..\\escape.txt',
      '.git/config',
      'nul\0.txt',
      '',
      'dir/',
    ];
    const files = Object.fromEntries([...hostile.map((path) => [path, 'evil'] as const), ['ok.txt', 'fine'] as const]);
    const result = await writeProject(out, files);
    expect(result.written).toEqual(['ok.txt']);
    expect(result.refused.map((r) => r.path).sort()).toEqual([...hostile].sort());
    for (const { reason } of result.refused) expect(reason).toMatch(/is not a safe file path|outside/);
    expect(await tree(out)).toEqual(['ok.txt']);
    expect((await readdir(base)).sort()).toEqual(['out']);
  });

  it('does not write through a symbolic link that points out of the folder', async () => {
    const elsewhere = join(base, 'elsewhere');
    await mkdir(elsewhere);
    await mkdir(out);
    await symlink(elsewhere, join(out, 'src'));
    await symlink(join(elsewhere, 'target.txt'), join(out, 'linked.txt'));
    const result = await writeProject(out, { 'src/app.js': 'evil', 'linked.txt': 'evil', 'ok.txt': 'fine' }, { force: true });
    expect(result.written).toEqual(['ok.txt']);
    expect(result.refused.map((r) => r.path).sort()).toEqual(['linked.txt', 'src/app.js']);
    expect(await readdir(elsewhere)).toEqual([]);
  });

  it('will not write into a folder with files unless forced, and then replaces same-named files', async () => {
    await mkdir(out);
    await writeFile(join(out, 'keep.txt'), 'mine');
    await writeFile(join(out, 'app.js'), 'old');
    await expect(writeProject(out, { 'app.js': 'new' })).rejects.toThrow(UsageError);
    expect(await readFile(join(out, 'app.js'), 'utf8')).toBe('old');

    const result = await writeProject(out, { 'app.js': 'new' }, { force: true });
    expect(result.written).toEqual(['app.js']);
    expect(await readFile(join(out, 'app.js'), 'utf8')).toBe('new');
    expect(await readFile(join(out, 'keep.txt'), 'utf8')).toBe('mine');
  });
});

describe('checkOutputDir', () => {
  it('accepts a new or empty folder and refuses a file or a full folder', async () => {
    await expect(checkOutputDir(join(base, 'new'))).resolves.toBeUndefined();
    await mkdir(out);
    await expect(checkOutputDir(out)).resolves.toBeUndefined();
    await writeFile(join(out, 'a.txt'), 'a');
    await expect(checkOutputDir(out)).rejects.toThrow(/is not empty.*--force/);
    await expect(checkOutputDir(out, { force: true })).resolves.toBeUndefined();
    await expect(checkOutputDir(join(out, 'a.txt'))).rejects.toThrow(/is a file, not a folder/);
  });
});
