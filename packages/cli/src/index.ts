// The errors module alone: the whole of core (its schemas) would slow every start, --help included.
import { isAppError } from '@wolfpack/core/errors';
import { CommanderError } from 'commander';
import { isExitCode } from './exit-code.js';
import { processIo, type CliIo } from './io.js';
import { wantsColor } from './output.js';
import { createProgram } from './program.js';
import { isUsageError, seeHelp } from './usage-error.js';

/** Exit codes: 0 success, 1 the command failed, 2 it was called wrongly; 3, 4, 5 and 130 in exit-code.ts. */
export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;

/**
 * Runs `wolfpack` with `argv` (without node and the script) and returns the exit code. This is the
 * one place that catches: every error becomes exactly one line on stderr and an exit code.
 */
export async function main(argv: readonly string[], io: CliIo = processIo()): Promise<number> {
  try {
    await createProgram(io).parseAsync([...argv], { from: 'user' });
    return EXIT_OK;
  } catch (error) {
    const { message, exitCode } = describeError(error, io.env);
    if (message !== undefined) {
      const color = wantsColor(io.stderr, io.env, argv.includes('--no-color') ? false : undefined);
      const prefix = color ? '\u001B[31mwolfpack:\u001B[39m' : 'wolfpack:';
      io.stderr.write(`${prefix} ${message}\n`);
    }
    return exitCode;
  }
}

interface Described {
  /** undefined when commander already printed what the person needs (help, version). */
  message: string | undefined;
  exitCode: number;
}

export function describeError(error: unknown, env: NodeJS.ProcessEnv): Described {
  if (error instanceof CommanderError) {
    // --help and --version "fail" with exit code 0; a bare `wolfpack` printed its help to stderr.
    if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version') return { message: undefined, exitCode: EXIT_OK };
    if (error.code === 'commander.help') return { message: undefined, exitCode: EXIT_USAGE };
    return { message: commanderSentence(error.message), exitCode: EXIT_USAGE };
  }
  if (isExitCode(error)) return { message: error.message === '' ? undefined : oneLine(error.message), exitCode: error.exitCode };
  if (isUsageError(error)) return { message: oneLine(error.message), exitCode: EXIT_USAGE };
  if (isAppError(error)) return { message: oneLine(error.message), exitCode: EXIT_FAILURE };
  // A bug, not a situation we foresaw: still one line, with the stack on request.
  const detail = error instanceof Error ? (env['WOLFPACK_DEBUG'] ? (error.stack ?? error.message) : error.message) : String(error);
  return {
    message: env['WOLFPACK_DEBUG'] ? `Unexpected error: ${detail}` : `Unexpected error: ${oneLine(detail)} (set WOLFPACK_DEBUG=1 for details)`,
    exitCode: EXIT_FAILURE,
  };
}

/** "error: unknown option '--jsn'\n(Did you mean --json?)" → "Unknown option '--jsn' (did you mean --json?). See `wolfpack --help`." */
function commanderSentence(message: string): string {
  const text = oneLine(message.replace(/^error:\s*/i, '')).replace(/\(Did you mean/g, '(did you mean');
  return seeHelp(text.charAt(0).toUpperCase() + text.slice(1));
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').trim();
}
