import type { Context, Next } from 'koa';
import { z } from 'zod';
import { AppError, codeForStatus, type ErrorReply } from '@wolfpack/core';
import type { Logger } from '../logger.js';

const GENERIC_500 = 'Something went wrong on the server. Try again; if it keeps happening, report it with the time it happened.';

/** Turns a zod failure into the one error type: 400 with every issue, the first as the sentence. */
export function validationError(error: z.ZodError): AppError {
  const issues = error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message }));
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

export function toAppError(error: unknown): AppError | undefined {
  if (error instanceof AppError) return error;
  if (error instanceof z.ZodError) return validationError(error);
  return fromHttpError(error);
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
      if (appError?.details?.retryAfterSeconds) ctx.set('Retry-After', String(appError.details.retryAfterSeconds));
      ctx.status = appError?.status ?? 500;
      ctx.type = 'application/json';
      ctx.body = reply;
    }
  };
}
