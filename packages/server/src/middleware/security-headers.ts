import type { Context, Next } from 'koa';

/** Headers every reply carries: no MIME sniffing, no framing by other sites, no referrer leaks. */
export function securityHeaders() {
  return async function setSecurityHeaders(ctx: Context, next: Next): Promise<void> {
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('X-Frame-Options', 'DENY');
    ctx.set('Referrer-Policy', 'strict-origin-when-cross-origin');
    ctx.set('Cross-Origin-Opener-Policy', 'same-origin');
    if (ctx.path.startsWith('/api/')) ctx.set('Cache-Control', 'no-store');
    await next();
  };
}
