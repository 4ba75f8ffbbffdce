import type { Context, Next } from 'koa';
import { AppError } from '@wolfpack/core';
import { signedInAs, type AuthenticatedUser, type AuthService } from '../services/accounts/auth-service.js';
import type { UserRow } from '../services/accounts/session-store.js';
import { tokenRefusalError, type TokenService } from '../services/accounts/token-service.js';

/** How often an active session's idle deadline is pushed back (each push is one write). */
const TOUCH_INTERVAL_MS = 60_000;

export interface AuthState {
  user?: AuthenticatedUser;
  /** Set when the request authenticated with a personal API token. */
  tokenId?: string;
  /** The row of the user the session belongs to, read with the session (null: that account is gone). */
  sessionUser?: UserRow | null;
}

/**
 * Finds who is calling: a Bearer personal token, else the session cookie. A Bearer header that
 * does not match a live token is a 401 at once rather than a silent fall back to the cookie.
 */
export function authenticate(auth: AuthService, tokens: TokenService) {
  return async function resolveUser(ctx: Context, next: Next): Promise<void> {
    const state = ctx.state as AuthState;
    const header = ctx.get('Authorization');
    // An njin API key is not a login: only /api/njin/iterate reads it, itself.
    if (header && !/^Bearer\s+njin_/i.test(header)) {
      const match = /^Bearer\s+(\S+)$/i.exec(header);
      const resolved = match ? await tokens.resolve(match[1]!) : { refused: 'unknown' as const };
      if ('refused' in resolved) throw tokenRefusalError(resolved);
      const user = await auth.findById(resolved.userId);
      // The account was closed: its tokens mean nothing here any more.
      if (!user) throw tokenRefusalError({ refused: 'unknown' });
      state.user = user;
      state.tokenId = resolved.tokenId;
      return next();
    }
    const session = ctx.session;
    const userId = session?.userId;
    if (session && typeof userId === 'string') {
      // Read with the session in one statement; looked up on its own only if that did not happen.
      const read = state.sessionUser !== undefined && (state.sessionUser === null || state.sessionUser.id === userId) ? state.sessionUser : undefined;
      const user = read !== undefined ? signedInAs(read) : await auth.findById(userId);
      delete state.sessionUser;
      if (user) {
        state.user = user;
        if (touchDue(session)) session.lastSeen = Date.now();
      } else {
        // The account is gone: end the session instead of keeping a dangling one.
        ctx.session = null;
      }
    }
    return next();
  };
}

/** Whether this request pushes the session's idle deadline back (a write, and its cookie again). */
export function touchDue(session: Readonly<Record<string, unknown>>): boolean {
  const lastSeen = typeof session.lastSeen === 'number' ? session.lastSeen : 0;
  return Date.now() - lastSeen > TOUCH_INTERVAL_MS;
}

/**
 * A route's first middleware where the body is large: a caller who is not signed in is refused
 * before a byte of the body is read or parsed (the rest of it is discarded unparsed).
 */
export async function signedIn(ctx: Context, next: Next): Promise<void> {
  requireUser(ctx);
  await next();
}

/** The signed-in user, or a 401 that says what to do. */
export function requireUser(ctx: Context): AuthenticatedUser {
  const user = (ctx.state as AuthState).user;
  if (!user) throw new AppError('UNAUTHORIZED', 'You are not signed in. Sign in and try again.');
  return user;
}
