/**
 * What crosses the preview proxy between the browser and a previewed HTTP server, both ways. The
 * app is untrusted and served from Wolfpack's own host (under the signed link), so:
 *
 * - it never sees Wolfpack's credentials: no Cookie (the browser sends Wolfpack's session cookie
 *   on top-level navigations to the link), no Authorization, no admin secret;
 * - the browser gets only an allowlist of its response headers. Anything that acts on the whole
 *   host is dropped: Set-Cookie (a cookie for Wolfpack's host could shadow or overwrite the
 *   session's), Clear-Site-Data (would sign the user out), Strict-Transport-Security, Alt-Svc,
 *   its own CSP and CORS headers (the route sets the preview's), and headers a front proxy might
 *   obey (X-Accel-Redirect and the like). Redirects to its own paths stay inside the link.
 *
 * Pure functions over plain header records (Node's IncomingHttpHeaders shape).
 */

export type HeaderRecord = Record<string, string | string[] | undefined>;

/** Where the app is served from, as the browser sees it. */
export interface PreviewMount {
  /** The link's path, without the trailing slash: `/preview/{id}/{token}`. */
  prefix: string;
  /** The Host the browser used. */
  host: string;
  /** `http` or `https`, as the browser used. */
  proto: string;
}

// Hop-by-hop headers (RFC 9110 7.6.1) and what the proxy sets itself, besides the credentials.
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'http2-settings']);
const CREDENTIALS = new Set(['cookie', 'authorization', 'proxy-authorization', 'x-admin-secret']);
const SET_BY_PROXY = /^(host|forwarded|x-forwarded-.*|x-real-ip)$/;

/** The request headers the app gets. */
export function headersForApp(headers: HeaderRecord, mount: PreviewMount): Record<string, string | string[]> {
  const named = String(headers['connection'] ?? '')
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean);
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    const key = name.toLowerCase();
    if (value === undefined || HOP_BY_HOP.has(key) || CREDENTIALS.has(key) || SET_BY_PROXY.test(key) || named.includes(key)) continue;
    out[key] = value;
  }
  out['host'] = mount.host;
  out['x-forwarded-host'] = mount.host;
  out['x-forwarded-proto'] = mount.proto;
  // Apps that know the convention (and Flask's ProxyFix, Express's req.baseUrl helpers) can build links inside the preview.
  out['x-forwarded-prefix'] = mount.prefix;
  return out;
}

// What the browser may get from the app: about the content itself, never about the host.
const RESPONSE_ALLOWED = new Set([
  'content-type',
  'content-length',
  'content-encoding',
  'content-language',
  'content-disposition',
  'content-range',
  'accept-ranges',
  'etag',
  'last-modified',
  'expires',
  'vary',
  'location',
  'retry-after',
  'allow',
  'age',
]);

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '0.0.0.0', '[::1]', '[::]']);

/** A redirect target, kept inside the link when it points at the app itself. */
export function locationInLink(location: string, mount: PreviewMount): string {
  if (location.startsWith('/') && !location.startsWith('//')) return location.startsWith(`${mount.prefix}/`) ? location : `${mount.prefix}${location}`;
  let url: URL;
  try {
    url = new URL(location);
  } catch {
    return location; // relative to the current path: already inside the link
  }
  if (LOOPBACK.has(url.hostname) || url.host === mount.host) {
    return url.pathname.startsWith(`${mount.prefix}/`) ? `${url.pathname}${url.search}${url.hash}` : `${mount.prefix}${url.pathname}${url.search}${url.hash}`;
  }
  return location;
}

/** The response headers the browser gets from the app (the caller adds the preview's CSP and CORS). */
export function headersFromApp(headers: HeaderRecord, mount: PreviewMount): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    const key = name.toLowerCase();
    if (value === undefined || !RESPONSE_ALLOWED.has(key)) continue;
    out[key] = key === 'location' ? locationInLink(String(value), mount) : value;
  }
  return out;
}

const HEADER_LIST = /^[\w-]+(\s*,\s*[\w-]+)*$/;

/**
 * The answer to a CORS preflight, or undefined when the request is not one. The app's pages run in
 * an opaque origin, so their fetches of the app's own API are cross-origin; credentials never go
 * with them (`*` forbids it), so allowing them gives nothing a holder of the link does not have.
 */
export function preflightHeaders(method: string, headers: HeaderRecord): Record<string, string> | undefined {
  if (method !== 'OPTIONS' || headers['access-control-request-method'] === undefined) return undefined;
  const asked = String(headers['access-control-request-headers'] ?? '').trim();
  return {
    'access-control-allow-origin': '*',
    'access-control-allow-methods': 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS',
    ...(HEADER_LIST.test(asked) ? { 'access-control-allow-headers': asked } : {}),
    'access-control-max-age': '600',
  };
}
