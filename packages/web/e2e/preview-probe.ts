import type { Page } from 'playwright-core';

/** What a script on a preview's origin gets when it tries Wolfpack's cookies, storage and API. */
export interface ProbeResult {
  origin: string;
  cookie: string;
  /** The keys of the origin's localStorage (after the probe wrote one of its own). */
  storage: string;
  me: string;
  logout: string;
}

/**
 * What a hostile script in a previewed page tries against Wolfpack, run in the page: read the
 * cookies and storage, call Wolfpack's API with the user's session (a read and a sign-out, across
 * origins, with credentials), and toss cookies at Wolfpack's host. The static-site preview and the
 * HTTP-server preview run the same checks, so both isolations are held to one standard.
 */
export async function probeIsolation(page: Page, wolfpackOrigin: string): Promise<ProbeResult> {
  return page.evaluate(async (wolfpack) => {
    const out: Record<string, string> = { origin: self.origin };
    try {
      out['cookie'] = `read:${document.cookie}`;
    } catch (e) {
      out['cookie'] = `blocked:${(e as Error).name}`;
    }
    try {
      localStorage.setItem('probe', '1');
      out['storage'] = `read:${JSON.stringify(Object.keys(localStorage).sort())}`;
    } catch (e) {
      out['storage'] = `blocked:${(e as Error).name}`;
    }
    for (const [key, path, method] of [['me', '/api/auth/me', 'GET'], ['logout', '/api/auth/logout', 'POST']] as const) {
      try {
        const r = await fetch(`${wolfpack}${path}`, { method, credentials: 'include' });
        out[key] = `status:${r.status}:${await r.text()}`;
      } catch (e) {
        out[key] = `blocked:${(e as Error).name}`;
      }
    }
    // Cookies for Wolfpack's host, from the preview's: the browser must refuse them.
    const host = new URL(wolfpack).hostname;
    document.cookie = `tossed=1; domain=${host}; path=/`;
    document.cookie = 'tossed-localhost=1; domain=localhost; path=/';
    return out as unknown as ProbeResult;
  }, wolfpackOrigin);
}
