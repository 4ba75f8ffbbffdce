import { sqlState } from './plain-sql.js';

/**
 * Errors that say the database cannot be reached right now (stopped, restarting, the network
 * between gone), as PostgreSQL, node-postgres and the pool report them. Such a failure passes:
 * the same statement may succeed once the database is back. SQLSTATE class 08 is "connection
 * exception"; 57P01-57P03 are a shutdown or a database still starting.
 */
const GONE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', '57P01', '57P02', '57P03']);
const GONE_MESSAGES =
  /connection terminated|terminating connection|server closed the connection|connection (?:refused|reset)|timeout exceeded when trying to connect|client has encountered a connection error|the database system is (?:shutting down|starting up|in recovery mode)|not queryable|connection is not open|cannot use a pool after calling end/i;

/** Whether `error` means the database is unreachable for now (worth trying again), not that the statement is wrong. */
export function isDatabaseUnreachable(error: unknown): boolean {
  for (let e = error as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown } | undefined, depth = 0; e && depth < 5; e = e.cause as typeof e, depth++) {
    const code = typeof e.code === 'string' ? e.code : undefined;
    if (code && (GONE_CODES.has(code) || code.startsWith('08'))) return true;
    if (typeof e.message === 'string' && GONE_MESSAGES.test(e.message)) return true;
    // A connect that tried several addresses (IPv4 and IPv6) reports each in an AggregateError.
    if (Array.isArray(e.errors) && e.errors.some((inner) => isDatabaseUnreachable(inner))) return true;
  }
  return false;
}

/** Whether `error` means the database cannot store anything: its disk is full (SQLSTATE 53100, ENOSPC). */
export function isDiskFull(error: unknown): boolean {
  if (sqlState(error) === '53100') return true;
  const message = error instanceof Error ? error.message : String(error);
  return /no space left on device|ENOSPC/i.test(message);
}

/** The database's own words for what went wrong, for a log line or a health reply. */
export function databaseErrorText(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n')[0]!.slice(0, 300) || 'unknown error';
}

/** Whether `error` is a unique violation (SQLSTATE 23505). */
export function isUniqueViolation(error: unknown): boolean {
  return sqlState(error) === '23505' || /duplicate key/i.test(error instanceof Error ? error.message : String(error));
}

/**
 * `write` tried by `retry`, for a write whose rows are unique: when a try fails for want of the
 * database after its commit went through (the answer was lost), the next try finds its own rows
 * there. A unique violation after such a failure is that, not a conflict, when `committed()`
 * confirms it; before any such failure it is thrown as it is.
 */
export async function retryUnique(retry: <R>(write: () => Promise<R>) => Promise<R>, write: () => Promise<void>, committed: () => Promise<boolean>): Promise<void> {
  let lost = false;
  try {
    return await retry(async () => {
      try {
        return await write();
      } catch (error) {
        if (isDatabaseUnreachable(error)) lost = true;
        throw error;
      }
    });
  } catch (error) {
    if (lost && isUniqueViolation(error) && (await committed())) return;
    throw error;
  }
}
