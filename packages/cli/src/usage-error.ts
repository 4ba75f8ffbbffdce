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
