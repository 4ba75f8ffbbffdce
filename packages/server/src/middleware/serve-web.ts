import { stat } from 'node:fs/promises';
import type { Context, Next } from 'koa';
import send from 'koa-send';

/**
 * Serves the built web app: files as they are (hashed assets cached for a year), and index.html
 * for every other GET outside /api so client-side routes survive a reload.
 */
export function serveWeb(webDir: string) {
  return async function webApp(ctx: Context, next: Next): Promise<void> {
    if ((ctx.method !== 'GET' && ctx.method !== 'HEAD') || ctx.path === '/api' || ctx.path.startsWith('/api/')) {
      return next();
    }
    const isAsset = ctx.path.startsWith('/assets/');
    try {
      const file = ctx.path === '/' ? 'index.html' : decodeURIComponent(ctx.path.slice(1));
      const info = await stat(`${webDir}/${file}`).catch(() => undefined);
      if (info?.isFile()) {
        await send(ctx, file, {
          root: webDir,
          maxage: isAsset ? 365 * 24 * 3600 * 1000 : 0,
          immutable: isAsset,
        });
        return;
      }
    } catch {
      // A malformed path (bad percent-encoding, traversal) falls through to the app's 404 screen.
    }
    if (isAsset) return next();
    ctx.set('Cache-Control', 'no-cache');
    await send(ctx, 'index.html', { root: webDir });
  };
}
