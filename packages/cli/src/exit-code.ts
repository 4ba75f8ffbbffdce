/** The run completed but the Proven Code gate found problems, and `--strict` was given. */
export const EXIT_STRICT = 3;
/**
 * Payment is needed before the command can go on: a run stopped because the account is out of
 * credits (or hit its own --max-cost), resumable with a top-up and `wolfpack attach`; or
 * `wolfpack showcase get` met a paid listing, whose checkout link it printed. Scripts can tell
 * either apart from a failure.
 */
export const EXIT_PAYMENT_REQUIRED = 4;
/** Ctrl+C: the CLI stopped following a run that goes on without it (128 + SIGINT, as shells expect). */
export const EXIT_INTERRUPTED = 130;

/**
 * Ends a command with a particular exit code. The command has already told the person what
 * happened, unless `message` is given, which index.ts prints as the usual one line.
 */
export class ExitCode extends Error {
  override readonly name = 'ExitCode';

  constructor(
    readonly exitCode: number,
    message = '',
  ) {
    super(message);
  }
}

export function isExitCode(value: unknown): value is ExitCode {
  return value instanceof ExitCode;
}
