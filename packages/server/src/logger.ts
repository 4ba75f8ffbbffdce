/**
 * A small leveled logger. Messages never include request bodies, cookies, tokens or passwords;
 * errors are printed with their stack on the server only, never sent to clients.
 */
export interface Logger {
  info(message: string): void;
  warn(message: string, error?: unknown): void;
  error(message: string, error?: unknown): void;
}

export function consoleLogger(quiet = false): Logger {
  const stamp = () => new Date().toISOString();
  return {
    info: (message) => {
      if (!quiet) console.log(`${stamp()} info ${message}`);
    },
    warn: (message, error) => console.warn(`${stamp()} warn ${message}`, ...(error ? [describeError(error)] : [])),
    error: (message, error) => console.error(`${stamp()} error ${message}`, ...(error ? [describeError(error)] : [])),
  };
}

/**
 * An error as the log may show it. A database error's message is the failing statement with the
 * values a user sent in it: only the database's reason and the SQLSTATE are kept, with the stack.
 */
export function describeError(error: unknown): unknown {
  if (!(error instanceof Error)) return error;
  const sqlState = (error as { sqlState?: unknown; code?: unknown }).sqlState ?? (/^[0-9A-Z]{5}$/.test(String((error as { code?: unknown }).code)) ? (error as { code?: unknown }).code : undefined);
  const statement = /^\s*(insert|update|delete|select|with|merge|copy)\b/i.test(error.message);
  if (sqlState === undefined && !statement) return error;
  // MikroORM writes "<statement> - <reason>"; the driver's own error holds the reason alone.
  const cause = (error as { cause?: unknown }).cause;
  const reason = cause instanceof Error && !/^\s*(insert|update|delete|select|with)\b/i.test(cause.message) ? cause.message : (error.message.split(' - ').pop() ?? '');
  const frames = (error.stack ?? '').split('\n').filter((line) => /^\s+at /.test(line));
  return `${error.name}${sqlState ? ` (SQLSTATE ${String(sqlState)})` : ''}: ${statement && reason === error.message ? 'a database statement failed' : reason}\n${frames.join('\n')}`;
}

export const silentLogger: Logger = { info: () => {}, warn: () => {}, error: () => {} };
