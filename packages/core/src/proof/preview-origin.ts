/**
 * Where a project's preview lives: at the root of an origin of its own, `p-<project id>.` in front
 * of a preview domain, so that root-relative URLs, client-side routing, storage and the project's
 * own cookies work as on its real domain, and nothing of it shares an origin (or a site) with
 * Wolfpack or with another project's preview.
 *
 * Without a configured preview domain it is `localhost`: browsers resolve every `*.localhost`
 * name to the loopback address, so `npm start` needs no DNS. `localhost` is a top-level name to
 * browsers, so a preview cannot set a cookie for `localhost` itself (Wolfpack's host when opened
 * as http://localhost:3000), nor for another preview. A configured domain
 * (WOLFPACK_PREVIEW_HOST) must be a registrable domain of its own for the same reason.
 *
 * Pure functions over host strings.
 */

/** The paths of Wolfpack's own on a preview origin (the link's sign-in); everything else is the project's. */
export const PREVIEW_RESERVED_PREFIX = '/__wolfpack__/';
/** Where a signed link is exchanged for the preview's cookie. */
export const PREVIEW_ENTER_PATH = `${PREVIEW_RESERVED_PREFIX}enter`;
/** The cookie that holds a preview's access, scoped to its one host. */
export const PREVIEW_COOKIE = '__wolfpack_preview';
/** The cookie that remembers Wolfpack's own origin on a preview's host, for its pages' links back ("Repair again"). */
export const PREVIEW_APP_COOKIE = '__wolfpack_app';
/** Cookies of Wolfpack's on a preview's host: never the project's to read or set. */
export const PREVIEW_COOKIE_PREFIX = '__wolfpack_';

/** An http(s) origin (`http://127.0.0.1:3000`), or undefined for anything else. */
export function httpOrigin(value: string | undefined): string | undefined {
  if (!value) return undefined;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && value.replace(/\/$/, '') === url.origin ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const LABEL = new RegExp(`^p-(${UUID})\\.(.+)$`);
const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]']);

/** A Host header's name and port, lower-cased; undefined when it is not one. */
export function splitHost(host: string | undefined): { name: string; port?: string } | undefined {
  if (!host) return undefined;
  const match = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::(\d{1,5}))?$/.exec(host.trim().toLowerCase());
  if (!match) return undefined;
  return { name: match[1]!, ...(match[2] ? { port: match[2] } : {}) };
}

/** Whether a Host names this machine's loopback (`localhost`, `127.0.0.1`, `[::1]`, `*.localhost`). */
export function isLoopbackHost(host: string | undefined): boolean {
  const name = splitHost(host)?.name;
  return name !== undefined && (LOOPBACK_NAMES.has(name) || name.endsWith('.localhost') || /^127\.\d+\.\d+\.\d+$/.test(name));
}

/**
 * The project whose preview a request's Host names, or undefined when it names none (Wolfpack
 * itself). `base` is the configured preview domain (`preview.example.net`); `p-<id>.localhost`
 * always names a preview too, as only this machine's browser can reach it.
 */
export function previewProjectOf(host: string | undefined, base: string | undefined): string | undefined {
  const name = splitHost(host)?.name;
  const match = name === undefined ? null : LABEL.exec(name);
  if (!match) return undefined;
  const parent = match[2]!;
  const configured = base === undefined ? undefined : splitHost(base)?.name;
  return parent === 'localhost' || parent === configured ? match[1] : undefined;
}

export interface PreviewOriginInput {
  /** `http` or `https`, as the browser reached Wolfpack. */
  proto: string;
  /** The configured preview domain, with a port when it is not the scheme's (`preview.example.net`). */
  base: string | undefined;
  /** The Host the browser used to reach Wolfpack. */
  requestHost: string | undefined;
  /** The port the request arrived on, for a Host without one. */
  localPort: number | undefined;
}

/** The origin of a project's preview, e.g. `http://p-<id>.localhost:3000`. */
export function previewOrigin(projectId: string, input: PreviewOriginInput): string {
  if (input.base !== undefined) return `${input.proto}://p-${projectId}.${input.base.toLowerCase()}`;
  // The port the browser used (a forwarded port differs from the one the server listens on).
  const port = splitHost(input.requestHost)?.port ?? (input.localPort === undefined ? undefined : String(input.localPort));
  const implicit = (input.proto === 'http' && port === '80') || (input.proto === 'https' && port === '443');
  return `${input.proto}://p-${projectId}.localhost${port === undefined || implicit ? '' : `:${port}`}`;
}

/**
 * A path the link may open inside the preview: root-relative and staying on the preview's
 * origin (never `//host`, never a scheme), else `/`.
 */
export function pathInsidePreview(path: string | undefined): string {
  if (!path || !path.startsWith('/') || path.startsWith('//') || path.startsWith('/\\') || /[\u0000-\u001f]/.test(path)) return '/';
  return path.startsWith(PREVIEW_RESERVED_PREFIX) ? '/' : path;
}
