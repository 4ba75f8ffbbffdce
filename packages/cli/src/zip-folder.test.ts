import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { strFromU8, unzipSync } from 'fflate';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SYMLINK_SKIP_REASON, zipFolder } from './zip-folder.js';

let dir: string;
let outside: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'wolfpack-zip-folder-'));
  outside = await mkdtemp(join(tmpdir(), 'wolfpack-zip-outside-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
  await rm(outside, { recursive: true, force: true });
});

describe('zipFolder', () => {
  it('zips the files an import keeps with paths relative to the folder, and lists what it left out', async () => {
    await mkdir(join(dir, 'src/lib'), { recursive: true });
    await mkdir(join(dir, 'node_modules/left-pad'), { recursive: true });
    await mkdir(join(dir, 'packages/app/dist'), { recursive: true });
    await mkdir(join(dir, '.git'), { recursive: true });
    await writeFile(join(dir, 'package.json'), '{"name":"app"}\n');
    await writeFile(join(dir, 'src/index.js'), 'console.log("héllo");\n');
    await writeFile(join(dir, 'src/lib/util.js'), 'export const x = 1;\n');
    await writeFile(join(dir, 'node_modules/left-pad/index.js'), 'module.exports = 1;\n');
    await writeFile(join(dir, 'packages/app/dist/out.js'), 'built\n');
    await writeFile(join(dir, '.git/HEAD'), 'ref: refs/heads/main\n');
    await writeFile(join(dir, '.DS_Store'), 'junk');
    await writeFile(join(outside, 'secret.txt'), 'not yours\n');
    await symlink(join(outside, 'secret.txt'), join(dir, 'link.txt'));
    await symlink(outside, join(dir, 'linked-folder'));

    const zipped = await zipFolder(dir);
    const entries = unzipSync(zipped.zip);
    expect(Object.keys(entries).sort()).toEqual(['package.json', 'src/index.js', 'src/lib/util.js']);
    expect(strFromU8(entries['src/index.js']!)).toBe('console.log("héllo");\n');
    expect(zipped.files).toEqual(['package.json', 'src/index.js', 'src/lib/util.js']);
    expect(zipped.skipped).toEqual([
      { path: '.DS_Store', reason: expect.stringContaining('operating system') },
      { path: '.git/', reason: '.git/ is not imported: version control data is not part of the project' },
      { path: 'link.txt', reason: SYMLINK_SKIP_REASON },
      { path: 'linked-folder', reason: SYMLINK_SKIP_REASON },
      { path: 'node_modules/', reason: 'node_modules/ is not imported: dependencies are installed from the package manifest' },
      { path: 'packages/app/dist/', reason: 'dist/ is not imported: build output is made again from the source' },
    ]);
  });

  it('gives an empty zip for a folder with nothing to import', async () => {
    const zipped = await zipFolder(dir);
    expect(zipped.files).toEqual([]);
    expect(unzipSync(zipped.zip)).toEqual({});
  });
});
