import type { Context } from 'koa';
import type { z } from 'zod';
import { bodyParser } from '@koa/bodyparser';
import { AppError } from '@wolfpack/core';
import { validationError } from './error-handler.js';
import { nulError, nulPath } from './unstorable-text.js';

/**
 * JSON body parsing with a size limit. Any other content type with a body is refused with 415,
 * so a form post or a text body cannot reach a handler that expects JSON. Every route takes an
 * object: valid JSON of another shape (`null`, `"x"`, `[]`) is refused as that, not as bad syntax.
 */
export function jsonBody(limit: string | number = '100kb') {
  const parse = bodyParser({ enableTypes: ['json'], jsonLimit: limit, jsonStrict: false });
  return async function parseJson(ctx: Context, next: () => Promise<void>): Promise<void> {
    const hasBody = Number(ctx.get('Content-Length') || 0) > 0 || ctx.get('Transfer-Encoding') !== '';
    if (hasBody && !ctx.is('application/json')) {
      throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the body as JSON with Content-Type: application/json.');
    }
    return parse(ctx, async () => {
      const body: unknown = ctx.request.body;
      if (hasBody && (typeof body !== 'object' || body === null || Array.isArray(body))) {
        throw new AppError('BAD_REQUEST', `Send the body as a JSON object ({…}), not ${body === null ? 'null' : Array.isArray(body) ? 'an array' : `a ${typeof body}`}.`);
      }
      const nul = nulPath(body);
      if (nul !== undefined) throw nulError(nul);
      await next();
    });
  };
}

/** Validates a parsed body (or query) with a core schema; a failure is a 400 naming every issue. */
export function parseWith<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value ?? {});
  if (!result.success) throw validationError(result.error);
  return result.data;
}
