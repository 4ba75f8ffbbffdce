/**
 * What crosses the preview proxy between the browser and a previewed HTTP server, both ways. The
 * app is served at the root of its own origin (preview-origin.ts), so what the browser sends there
 * is the app's own: its cookies, its Authorization. Wolfpack's credentials never reach it (the
 * browser keeps Wolfpack's session cookie for Wolfpack's host), except the preview's access
 * cookie, which is taken out here. Both ways, what only concerns the connection goes, and so does
 * anything a front proxy (nginx) would obey instead of passing on.
 *
 * - Cookies the app sets are kept to its one host: a Domain attribute is dropped (a preview at
 *   p-<id>.preview.example.net must not set cookies for its siblings), and the preview's access
 *   cookie cannot be overwritten.
 * - A redirect stays on the preview's origin: to the app's own paths, whatever host it names
 *   (the app sees itself at localhost, or at the preview host).
 *
 * Pure functions over plain header records (Node's IncomingHttpHeaders shape).
 */
import { PREVIEW_COOKIE_PREFIX } from './preview-origin.js';

export type HeaderRecord = Record<string, string | string[] | undefined>;

/** Where the app is served from, as the browser sees it. */
export interface PreviewMount {
  /** The Host the browser used: the preview's own. */
  host: string;
  /** `http` or `https`, as the browser used. */
  proto: string;
}

// Hop-by-hop headers (RFC 9110 7.6.1), what the proxy sets itself, and what a front proxy obeys.
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'http2-settings']);
const NOT_FOR_APP = new Set(['proxy-authorization', 'x-admin-secret']);
const SET_BY_PROXY = /^(host|forwarded|x-forwarded-.*|x-real-ip)$/;
const FOR_FRONT_PROXY = /^(x-accel-.*|x-sendfile|x-lighttpd-send-file|x-lighttpd-send-tempfile|alt-svc|proxy-authenticate)$/;

/** The names a Connection header lists as hop-by-hop. */
function connectionNamed(headers: HeaderRecord): string[] {
  return String(headers['connection'] ?? '')
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean);
}

/** A Cookie header without Wolfpack's cookies of the preview's host; undefined when nothing else is left. */
export function cookiesForApp(cookie: string | string[] | undefined): string | undefined {
  if (cookie === undefined) return undefined;
  const kept = (Array.isArray(cookie) ? cookie.join('; ') : cookie)
    .split(';')
    .map((c) => c.trim())
    .filter((c) => c !== '' && !c.split('=')[0]!.trim().startsWith(PREVIEW_COOKIE_PREFIX));
  return kept.length > 0 ? kept.join('; ') : undefined;
}

/** The request headers the app gets. */
export function headersForApp(headers: HeaderRecord, mount: PreviewMount): Record<string, string | string[]> {
  const named = connectionNamed(headers);
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    const key = name.toLowerCase();
    if (value === undefined || key === 'cookie' || HOP_BY_HOP.has(key) || NOT_FOR_APP.has(key) || SET_BY_PROXY.test(key) || named.includes(key)) continue;
    out[key] = value;
  }
  const cookie = cookiesForApp(headers['cookie']);
  if (cookie !== undefined) out['cookie'] = cookie;
  out['host'] = mount.host;
  out['x-forwarded-host'] = mount.host;
  out['x-forwarded-proto'] = mount.proto;
  return out;
}

/** A redirect target on the preview's origin: the path of whatever the app named. */
export function locationInPreview(location: string): string {
  const trimmed = location.trim();
  if (trimmed.startsWith('/') && !trimmed.startsWith('//') && !trimmed.startsWith('/\\')) return trimmed;
  if (!/^[a-z][a-z0-9+.-]*:|^[/\\]{2}/i.test(trimmed)) return trimmed; // relative to the current path
  let url: URL;
  try {
    url = new URL(trimmed, 'http://preview.invalid');
  } catch {
    return '/';
  }
  // Another site (or a javascript: URL) would leave the preview: its path here instead.
  return url.protocol === 'http:' || url.protocol === 'https:' ? `${url.pathname}${url.search}${url.hash}` : '/';
}

/** One Set-Cookie of the app, kept to its host; undefined when it would touch a cookie of Wolfpack's. */
export function cookieFromApp(setCookie: string): string | undefined {
  const [pair, ...attributes] = setCookie.split(';');
  if (pair === undefined || pair.split('=')[0]!.trim().startsWith(PREVIEW_COOKIE_PREFIX)) return undefined;
  const kept = attributes.filter((a) => a.split('=')[0]!.trim().toLowerCase() !== 'domain');
  return [pair, ...kept].join(';');
}

/** The response headers the browser gets from the app. */
export function headersFromApp(headers: HeaderRecord): Record<string, string | string[]> {
  const named = connectionNamed(headers);
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    const key = name.toLowerCase();
    if (value === undefined || HOP_BY_HOP.has(key) || FOR_FRONT_PROXY.test(key) || named.includes(key)) continue;
    if (key === 'set-cookie') {
      const cookies = (Array.isArray(value) ? value : [value]).map(cookieFromApp).filter((c): c is string => c !== undefined);
      if (cookies.length > 0) out[key] = cookies;
      continue;
    }
    out[key] = key === 'location' ? locationInPreview(String(value)) : value;
  }
  return out;
}
