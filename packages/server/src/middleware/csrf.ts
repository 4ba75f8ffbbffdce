import type { Context, Next } from 'koa';
import { AppError } from '@wolfpack/core';
import type { AuthState } from './authenticate.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Refuses cross-site state changes made with the browser's ambient credentials. It runs after
 * authentication and keys on what authenticated the request: one signed in by a personal API
 * token carries no ambient credential and is not checked; anything else is, whatever other
 * headers it carries (an njin key in Authorization is no login, so the session cookie would act).
 * Browsers send Sec-Fetch-Site; older ones send Origin; a client that sends neither is not a
 * browser, so nobody could have forged its request from another site.
 */
export function csrfProtection(publicOrigin: string | undefined) {
  return async function checkSameOrigin(ctx: Context, next: Next): Promise<void> {
    if (SAFE_METHODS.has(ctx.method) || (ctx.state as AuthState).tokenId !== undefined) return next();
    const site = ctx.get('Sec-Fetch-Site');
    const origin = ctx.get('Origin');
    let crossSite = false;
    if (site) {
      // 'none' is a navigation the user started (typed URL, bookmark), not a forged request.
      crossSite = site !== 'same-origin' && site !== 'none';
    } else if (origin) {
      // Koa 3's ctx.origin echoes the Origin header, so compare with protocol + Host instead.
      crossSite = origin !== `${ctx.protocol}://${ctx.host}` && origin !== publicOrigin;
    }
    // Login CSRF needs no cookie, so a browser's cross-site write is refused whether or not it has one.
    if (crossSite) {
      throw new AppError(
        'FORBIDDEN',
        'This request came from another site and was refused. Open Wolfpack directly and try again.',
      );
    }
    return next();
  };
}
