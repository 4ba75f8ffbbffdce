/**
 * The process surface a command touches. Passed in rather than read from `process` so unit tests
 * can run the whole program in-process with their own environment and streams.
 */
export interface CliIo {
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
  /** Directory that relative paths (such as `--data-dir`) resolve against. */
  cwd: string;
}

export function processIo(): CliIo {
  return { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, env: process.env, cwd: process.cwd() };
}

/** Same rule as Ink's is-in-ci, so the CLI and Ink agree on when to drop the live view. */
export function isCi(env: NodeJS.ProcessEnv): boolean {
  if (env['CI'] === '0' || env['CI'] === 'false') return false;
  return 'CI' in env || 'CONTINUOUS_INTEGRATION' in env || Object.keys(env).some((key) => key.startsWith('CI_'));
}
