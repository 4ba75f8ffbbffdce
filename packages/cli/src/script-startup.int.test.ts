/**
 * A command run by a script or CI, where nothing is drawn, never loads Ink: with it and what it
 * imports (es-toolkit's 415 modules among them), such a command started in twice the time
 * (`pnpm bench startup`). What is loaded is read from Node's own module resolution, through a
 * hook preloaded in the real binary's process, and the bundle's record of what its files hold.
 */
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './testing/cli-harness.js';
import { loadedFrom, PRINT_LOADED } from './testing/loaded-modules.js';

describe('a command without a terminal', () => {
  // Signed out: a config file that does not exist.
  const config = join(tmpdir(), `wolfpack-no-config-${randomUUID()}.json`);

  it.each([
    ['projects', ['projects']],
    ['projects rm --yes', ['projects', 'rm', 'abc123', '--yes']],
    ['build --json', ['build', 'A habit tracker', '--json']],
    ['whoami', ['whoami']],
  ])('%s loads its command and not Ink', async (_name, args) => {
    const result = await runCli(['--server', 'http://127.0.0.1:9', ...args], { env: { NODE_OPTIONS: PRINT_LOADED, WOLFPACK_CONFIG: config } });
    expect(result.stderr).toContain('Not logged in to http://127.0.0.1:9');
    expect(result.code).toBe(1);
    const loaded = loadedFrom(result.stderr);
    // The command's own libraries are seen, so the absence of Ink means something.
    expect(loaded).toEqual(expect.arrayContaining(['commander', 'zod']));
    expect(loaded.filter((from) => /^(ink|ink-spinner|es-toolkit)$/.test(from))).toEqual([]);
  });
});
