import { readFile, stat } from 'node:fs/promises';
import type { Context, Next } from 'koa';
import send from 'koa-send';
import { injectOpenGraph, type OpenGraphLookup } from './open-graph.js';

export interface ServeWebOptions {
  /** Link previews (Open Graph) for pages that have one: public capsules, live listings. */
  openGraph?: OpenGraphLookup;
  /** WOLFPACK_PUBLIC_ORIGIN: the site's address in og:url, when the server sits behind one. */
  publicOrigin?: string | undefined;
}

/**
 * Serves the built web app: files as they are (hashed assets cached for a year), and index.html
 * for every other GET outside /api so client-side routes survive a reload. Pages with a link
 * preview get index.html with their Open Graph tags, for crawlers that run no JavaScript.
 */
export function serveWeb(webDir: string, options: ServeWebOptions = {}) {
  const lookup = options.openGraph;
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
    const meta = lookup ? await lookup(ctx.path, options.publicOrigin ?? `${ctx.protocol}://${ctx.host}`) : null;
    if (meta) {
      ctx.type = 'html';
      ctx.body = injectOpenGraph(await readFile(`${webDir}/index.html`, 'utf8'), meta);
      return;
    }
    await send(ctx, 'index.html', { root: webDir });
  };
}
