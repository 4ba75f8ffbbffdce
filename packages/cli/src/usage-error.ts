/**
 * A mistake in how the CLI was called (a missing flag, a bad value, no terminal to prompt in).
 * The top-level catch in index.ts turns it into exit code 2, like commander's own usage errors;
 * everything a server or the machine gets wrong is an AppError and exits 1.
 */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export function isUsageError(value: unknown): value is UsageError {
  return value instanceof UsageError;
}

/**
 * A usage error ended the way commander's are: a full stop, then where the arguments and options
 * are described. core's schema messages are bare phrases ("Run at least 1 cycle"), written for
 * the web page's form fields.
 */
export function seeHelp(message: string): string {
  const text = message.trim();
  return `${/[.?!)]$/.test(text) ? text : `${text}.`} See \`wolfpack --help\`.`;
}

/** The first problem of a failed core schema check, as a usage error (see {@link seeHelp}). */
export function schemaUsageError(error: { issues: ReadonlyArray<{ message: string }> }, fallback: string): UsageError {
  return new UsageError(seeHelp(error.issues[0]?.message ?? fallback));
}
