import type { Context, Next } from 'koa';

/** Headers every reply carries: no MIME sniffing, no framing by other sites, no referrer leaks. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
  'Cross-Origin-Opener-Policy': 'same-origin',
};

/** Sets {@link SECURITY_HEADERS}, and no caching of the API's replies. */
export function securityHeaders() {
  return async function setSecurityHeaders(ctx: Context, next: Next): Promise<void> {
    ctx.set(SECURITY_HEADERS);
    if (ctx.path.startsWith('/api/')) ctx.set('Cache-Control', 'no-store');
    await next();
  };
}
