/**
 * A command run by a script or CI, where nothing is drawn, never loads Ink: with it and what it
 * imports (es-toolkit's 415 modules among them), such a command started in twice the time
 * (`pnpm bench startup`). What is loaded is read from Node's own module resolution, through a
 * hook preloaded in the real binary's process.
 */
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './testing/cli-harness.js';

/** Prints every bare package the process resolves, once, on stderr. */
const HOOK = `
import { registerHooks } from 'node:module';
const seen = new Set();
registerHooks({
  resolve(specifier, context, next) {
    const name = specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0];
    if (!/^[.\\/]|^node:|^file:|^data:/.test(specifier) && !seen.has(name)) {
      seen.add(name);
      process.stderr.write('[resolved ' + name + ']\\n');
    }
    return next(specifier, context);
  },
});
`;
const NODE_OPTIONS = `--import=data:text/javascript;base64,${Buffer.from(HOOK).toString('base64')}`;

describe('a command without a terminal', () => {
  // Signed out: a config file that does not exist.
  const config = join(tmpdir(), `wolfpack-no-config-${randomUUID()}.json`);
  const resolved = (stderr: string) => [...stderr.matchAll(/^\[resolved (.+)\]$/gm)].map((m) => m[1]);

  it.each([
    ['projects', ['projects']],
    ['projects rm --yes', ['projects', 'rm', 'abc123', '--yes']],
    ['build --json', ['build', 'A habit tracker', '--json']],
    ['whoami', ['whoami']],
  ])('%s loads its command and not Ink', async (_name, args) => {
    const result = await runCli(['--server', 'http://127.0.0.1:9', ...args], { env: { NODE_OPTIONS, WOLFPACK_CONFIG: config } });
    expect(result.stderr).toContain('Not logged in to http://127.0.0.1:9');
    expect(result.code).toBe(1);
    const packages = resolved(result.stderr);
    // The hook saw the command's own libraries, so its silence about Ink means something.
    expect(packages).toEqual(expect.arrayContaining(['commander', 'zod']));
    expect(packages.filter((p) => /^(ink|ink-spinner|es-toolkit)$/.test(p!))).toEqual([]);
  });
});
