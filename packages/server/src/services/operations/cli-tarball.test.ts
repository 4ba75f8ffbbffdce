import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CliTarball } from './cli-tarball.js';

const roots: string[] = [];
afterEach(async () => {
  await Promise.all(roots.splice(0).map((root) => rm(root, { recursive: true, force: true })));
});

/** A repository whose CLI pack script is `script`. */
async function repository(script: string): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'wolfpack-cli-tarball-'));
  roots.push(root);
  await mkdir(join(root, 'packages', 'cli', 'scripts'), { recursive: true });
  await writeFile(join(root, 'packages', 'cli', 'package.json'), JSON.stringify({ name: '@wolfpack/cli', version: '1.2.3' }));
  await writeFile(join(root, 'packages', 'cli', 'scripts', 'pack.mjs'), script);
  return root;
}

describe('the CLI tarball built on first request', () => {
  it('says what failed when the build throws, without the paths it names or the source line Node prints first', async () => {
    const root = await repository("import { rename } from 'node:fs/promises';\nawait rename('/no-such-dir/wolfpack-a.tgz', '/no-such-dir/wolfpack-b.tgz');\n");
    const error = await new CliTarball({ root }).file().catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    expect((error as Error).message).toBe(
      "This server has no CLI tarball (building it failed: ENOENT: no such file or directory). Run `pnpm pack:cli` in the server's Wolfpack repository, then try again.",
    );
  });

  it('serves the file the build wrote', async () => {
    const root = await repository("import { mkdir, writeFile } from 'node:fs/promises';\nawait mkdir('dist-cli', { recursive: true });\nawait writeFile('dist-cli/wolfpack-cli-1.2.3.tgz', 'tarball');\n");
    expect(await new CliTarball({ root }).file()).toEqual({ path: join(root, 'dist-cli', 'wolfpack-cli-1.2.3.tgz'), fileName: 'wolfpack-cli-1.2.3.tgz', size: 7 });
  });
});
