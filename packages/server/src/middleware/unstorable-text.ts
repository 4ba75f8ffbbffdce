import type { Context, Next } from 'koa';
import { AppError } from '@wolfpack/core';

/**
 * PostgreSQL stores no NUL character (U+0000) in text: an insert with one fails, and was a 500
 * (with the failing statement, the user's values in it, in the log). Text enters through JSON
 * bodies, query strings and paths; each is checked here, and a NUL is refused naming where it is.
 */
const NUL = '\u0000';

/** Where in a parsed JSON value the first NUL is (`attachments.0.name`), or undefined. */
export function nulPath(value: unknown, path = ''): string | undefined {
  if (typeof value === 'string') return value.includes(NUL) ? path || 'the body' : undefined;
  if (typeof value !== 'object' || value === null) return undefined;
  for (const [key, child] of Array.isArray(value) ? value.entries() : Object.entries(value)) {
    const at = path ? `${path}.${key}` : String(key);
    if (String(key).includes(NUL)) return at;
    const found = nulPath(child, at);
    if (found !== undefined) return found;
  }
  return undefined;
}

export function nulError(where: string): AppError {
  return new AppError('BAD_REQUEST', `${where} contains a NUL character (\\u0000), which cannot be stored. Remove it and send it again.`);
}

/** Refuses a path or query string with a NUL in it (percent-encoded as %00), before any route reads it. */
export function refuseUnstorableText() {
  return async function checkText(ctx: Context, next: Next): Promise<void> {
    if (/%00/.test(ctx.path)) throw nulError('The address');
    for (const [name, value] of Object.entries(ctx.query)) {
      if (name.includes(NUL)) throw nulError('A query parameter name');
      for (const one of Array.isArray(value) ? value : [value]) {
        if (one?.includes(NUL)) throw nulError(`The query parameter ${name}`);
      }
    }
    return next();
  };
}
