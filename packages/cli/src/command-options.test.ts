import { spawnSync } from 'node:child_process';
import { NJIN_ITERATE_MODES } from '@wolfpack/core';
import { describe, expect, it } from 'vitest';
import { ITERATE_MODES } from './command-options.js';
import { BIN } from './testing/cli-harness.js';

describe('command options', () => {
  it("offers exactly core's iterate modes", () => {
    expect([...ITERATE_MODES]).toEqual([...NJIN_ITERATE_MODES]);
  });

  it('answers --help without loading core, Ink, React or any command module', () => {
    // Every module the process resolves is reported on stderr by a resolve hook.
    const hook = `data:text/javascript,${encodeURIComponent(
      "import { registerHooks } from 'node:module'; registerHooks({ resolve(specifier, context, next) { const r = next(specifier, context); process.stderr.write('LOADED ' + r.url + '\\n'); return r; } });",
    )}`;
    const result = spawnSync(process.execPath, ['--import', hook, BIN, '--help'], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toContain('Usage: wolfpack');
    const loaded = result.stderr.split('\n').filter((line) => line.startsWith('LOADED ')).map((line) => line.slice(7));
    expect(loaded.some((url) => url.endsWith('/program.js'))).toBe(true);
    const heavy = loaded.filter((url) => /\/(ink|react|zod)\/|\/core\/dist\/index\.js$|\/commands\//.test(url));
    expect(heavy).toEqual([]);
  });
});
