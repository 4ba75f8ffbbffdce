import { spawnSync } from 'node:child_process';
import { NJIN_ITERATE_MODES } from '@wolfpack/core';
import { describe, expect, it } from 'vitest';
import { ITERATE_MODES } from './command-options.js';
import { BIN } from './testing/cli-harness.js';
import { loadedFrom, PRINT_LOADED } from './testing/loaded-modules.js';

describe('command options', () => {
  it("offers exactly core's iterate modes", () => {
    expect([...ITERATE_MODES]).toEqual([...NJIN_ITERATE_MODES]);
  });

  it('answers --help without loading core, Ink, React, zod or any command module', () => {
    const result = spawnSync(process.execPath, [BIN, '--help'], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', NODE_OPTIONS: PRINT_LOADED } });
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toContain('Usage: wolfpack');
    const loaded = loadedFrom(result.stderr);
    expect(loaded).toContain('packages/cli/src/program.ts');
    const heavy = loaded.filter((from) => /^(ink|react|zod)$|^packages\/core\/src\/index\.ts$|^packages\/cli\/src\/commands\//.test(from));
    expect(heavy).toEqual([]);
  });
});
