/**
 * Proven Code failed: a run's gate found problems under `--strict` or `--require-proof`, or
 * `wolfpack verify` found them.
 */
export const EXIT_STRICT = 3;
/**
 * Proven Code did not fail but proved nothing it should have (the checks that apply could not run,
 * say on a server without a sandbox, or there is no record): `--require-proof` and `wolfpack
 * verify`. Apart from 3 so a script can tell "broken" from "could not tell".
 */
export const EXIT_NOT_PROVEN = 5;
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
