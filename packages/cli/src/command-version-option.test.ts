import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { joinCommandVersion } from './command-version-option.js';
import type { CliIo } from './io.js';
import { createProgram } from './program.js';

const io: CliIo = { stdin: new PassThrough(), stdout: new PassThrough(), stderr: new PassThrough(), env: {}, cwd: '/' };
const program = createProgram(io);
const join = (args: string[]) => joinCommandVersion(program, args);

describe('--version after a command', () => {
  it('is the command’s own for export, pull and publish, in every place after the name', () => {
    expect(join(['pull', 'abc', '--version', '3', '-o', 'out'])).toEqual(['pull', 'abc', '--version=3', '-o', 'out']);
    expect(join(['--json', '--server', 'http://x', 'export', '--version', '2', 'abc'])).toEqual(['--json', '--server', 'http://x', 'export', '--version=2', 'abc']);
    expect(join(['publish', 'abc', '--repo', 'r', '--version', '1'])).toEqual(['publish', 'abc', '--repo', 'r', '--version=1']);
    // Without a value the command's parser says what it needs.
    expect(join(['pull', 'abc', '--version'])).toEqual(['pull', 'abc', '--version=']);
  });

  it('leaves the CLI’s own --version alone: before a command, after one without the option, after --, or as another option’s value', () => {
    expect(join(['--version'])).toEqual(['--version']);
    expect(join(['-v', 'pull', 'abc'])).toEqual(['-v', 'pull', 'abc']);
    expect(join(['whoami', '--version'])).toEqual(['whoami', '--version']);
    expect(join(['pull', 'abc', '--', '--version', '3'])).toEqual(['pull', 'abc', '--', '--version', '3']);
    expect(join(['pull', 'abc', '-o', '--version'])).toEqual(['pull', 'abc', '-o', '--version']);
    // --server's value is not taken for the command's name.
    expect(join(['--server', 'pull', 'whoami', '--version'])).toEqual(['--server', 'pull', 'whoami', '--version']);
  });
});
