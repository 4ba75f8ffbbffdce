/**
 * Which file of a site answers a request path, the way a static host (and a dev server) would:
 * the path itself, then `path.html`, then `path/index.html`; a navigation to a path that names no
 * file and has no extension gets the site's index.html, so an app that routes in the browser
 * (history API) survives a reload on one of its routes. The preview serves sites by it and Proven
 * Code's page check answers Chromium by it, so both find the same files.
 */
export function siteFileFor(path: string, has: (path: string) => boolean, navigation: boolean): string | undefined {
  const bare = path.replace(/^\/+/, '');
  const dir = bare === '' || bare.endsWith('/');
  const candidates = dir ? [`${bare}index.html`] : [bare, `${bare}.html`, `${bare}/index.html`];
  const found = candidates.find(has);
  if (found !== undefined) return found;
  const last = bare.replace(/\/+$/, '').split('/').pop() ?? '';
  return navigation && !/\.\w+$/.test(last) && has('index.html') ? 'index.html' : undefined;
}
