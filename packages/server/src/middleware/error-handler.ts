import type { Context, Next } from 'koa';
import { z } from 'zod';
import { AppError, codeForStatus, type ErrorReply } from '@wolfpack/core';
import { isDatabaseUnreachable, isDiskFull } from '../db/database-faults.js';
import type { Logger } from '../logger.js';

const GENERIC_500 = 'Something went wrong on the server. Try again; if it keeps happening, report it with the time it happened.';

/** What a value of each type zod names is, in a sentence. */
const EXPECTED: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false (a JSON boolean, without quotes)',
  array: 'a list (a JSON array)',
  object: 'an object',
};

/**
 * An issue as a sentence that says what to send. Zod's own wording for a value of the wrong type
 * ("Invalid input: expected string, received undefined") names neither the field nor what to do.
 */
function readable(issue: z.core.$ZodIssue, path: string): string {
  if (pastSafeIntegers(issue)) return `${path || 'The value'} must be a whole number between -${Number.MAX_SAFE_INTEGER} and ${Number.MAX_SAFE_INTEGER}.`;
  if (issue.code !== 'invalid_type' || !issue.message.startsWith('Invalid input')) return issue.message;
  const expected = EXPECTED[issue.expected] ?? issue.expected;
  const received = /received (\w+)/.exec(issue.message)?.[1];
  if (!path) return `Send the request body as ${expected}${received ? `, not ${received}` : ''}.`;
  return received === 'undefined' ? `${path} is required: send ${expected}.` : `${path} must be ${expected}${received ? `, not ${received}` : ''}.`;
}

/** Zod's own bound on whole numbers (beyond it, integers are not exact), reported beside the field's real bounds. */
function pastSafeIntegers(issue: z.core.$ZodIssue): boolean {
  return (
    (issue.code === 'too_big' && Number(issue.maximum) === Number.MAX_SAFE_INTEGER) ||
    (issue.code === 'too_small' && Number(issue.minimum) === -Number.MAX_SAFE_INTEGER)
  );
}

/**
 * Turns a zod failure into the one error type: 400 with every issue, the first as the sentence.
 * A value of the wrong type breaks every other rule on it too ("demo-alpha" as a list of engines is
 * also "more than 8 engines"), so only its type is named; a number past the safe integers is
 * named by the rule it breaks (1e308 cycles is "at most 5", not "not a whole number").
 */
export function validationError(error: z.ZodError): AppError {
  const byPath = new Map<string, z.core.$ZodIssue[]>();
  for (const issue of error.issues) {
    const path = issue.path.join('.');
    byPath.set(path, [...(byPath.get(path) ?? []), issue]);
  }
  const issues = [...byPath].flatMap(([path, found]) => {
    const wrongType = found.find((issue) => issue.code === 'invalid_type');
    const kept = wrongType ? [wrongType] : found.some((issue) => !pastSafeIntegers(issue)) ? found.filter((issue) => !pastSafeIntegers(issue)) : found;
    return [...new Set(kept.map((issue) => readable(issue, path)))].map((message) => ({ path, message }));
  });
  const first = issues[0];
  const message = first ? first.message : 'The request is not valid.';
  return new AppError('BAD_REQUEST', message, { issues });
}

/** Errors thrown by Koa's own machinery and body parsing (http-errors): status + exposed message. */
function fromHttpError(error: unknown): AppError | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const e = error as { status?: unknown; statusCode?: unknown; expose?: unknown; message?: unknown; type?: unknown };
  const status = typeof e.status === 'number' ? e.status : typeof e.statusCode === 'number' ? e.statusCode : undefined;
  if (!status || status >= 500) return undefined;
  if (status === 413) return new AppError('PAYLOAD_TOO_LARGE', 'The request body is too large. Send less data at once.');
  if (e.type === 'entity.parse.failed' || (status === 400 && error instanceof SyntaxError)) {
    return new AppError('BAD_REQUEST', 'The request body is not valid JSON. Check the syntax and send it again.');
  }
  if (status === 415) return new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the body as JSON with Content-Type: application/json.');
  const message = e.expose && typeof e.message === 'string' ? e.message : 'The request could not be processed.';
  return new AppError(codeForStatus(status), message);
}

/**
 * A database that is away or full is the server's state, not a fault of the request: 503 with a
 * Retry-After, so a client or a load balancer tries again, and never a bare 500.
 */
function fromDatabaseFault(error: unknown): AppError | undefined {
  if (isDiskFull(error)) {
    return new AppError('SERVICE_UNAVAILABLE', "The server's disk is full, so this could not be saved. Try again later; if it keeps happening, tell the operator.", { retryAfterSeconds: 30 });
  }
  if (isDatabaseUnreachable(error)) {
    return new AppError('SERVICE_UNAVAILABLE', 'Wolfpack cannot reach its database right now. Try again in a few seconds.', { retryAfterSeconds: 5 });
  }
  return undefined;
}

export function toAppError(error: unknown): AppError | undefined {
  if (error instanceof AppError) return error;
  if (error instanceof z.ZodError) return validationError(error);
  return fromHttpError(error) ?? fromDatabaseFault(error);
}

/**
 * The only place that turns errors into replies: `{ success: false, error, code }` plus details,
 * with the status from core's table. Anything unexpected is logged and answered as a bare 500.
 */
export function errorHandler(log: Logger) {
  return async function handleErrors(ctx: Context, next: Next): Promise<void> {
    try {
      await next();
    } catch (error) {
      const appError = toAppError(error);
      if (ctx.headerSent || !ctx.writable) {
        if (!appError) log.error('error after the reply had started', error);
        return;
      }
      const reply: ErrorReply = appError
        ? { success: false, error: appError.message, code: appError.code, ...appError.details }
        : { success: false, error: GENERIC_500, code: 'INTERNAL' };
      if (!appError) log.error(`${ctx.method} ${ctx.path} failed`, error);
      else if (appError.code === 'SERVICE_UNAVAILABLE' && !(error instanceof AppError)) log.warn(`${ctx.method} ${ctx.path}: ${appError.message}`);
      if (appError?.details?.retryAfterSeconds) ctx.set('Retry-After', String(appError.details.retryAfterSeconds));
      ctx.status = appError?.status ?? 500;
      ctx.type = 'application/json';
      ctx.body = reply;
    }
  };
}
