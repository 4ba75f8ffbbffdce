/** `node dist/main.js` (here from source): what the Docker image runs, configured by the environment only. */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

it('stops on a wrong setting before it opens anything, naming the variable and what it takes, and exits 1', async () => {
  const scratch = await mkdtemp(join(tmpdir(), 'wolfpack-main-'));
  try {
    const dataDir = join(scratch, 'data');
    const child = spawn(process.execPath, ['--conditions=@wolfpack/source', '--import', 'tsx', fileURLToPath(new URL('./main.ts', import.meta.url))], {
      env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', WOLFPACK_DATA_DIR: dataDir, WOLFPACK_PREVIEW_SERVERS: 'two', WOLFPACK_RUN_LEASE_SECONDS: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toMatch(
      /^\S+ error Wolfpack could not start: Invalid configuration: WOLFPACK_PREVIEW_SERVERS: WOLFPACK_PREVIEW_SERVERS must be a whole number of at least 1; WOLFPACK_RUN_LEASE_SECONDS: WOLFPACK_RUN_LEASE_SECONDS must be a number of seconds above 0\n$/,
    );
    expect(existsSync(dataDir)).toBe(false);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}, 120_000);
