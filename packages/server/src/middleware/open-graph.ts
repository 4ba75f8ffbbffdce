import { escapeHtml } from '@wolfpack/core';
import type { CapsuleService } from '../services/community/capsule-service.js';
import type { ListingService } from '../services/community/listing-service.js';

/** What a shared link previews: the page's own title and description. */
export interface OpenGraphMeta {
  title: string;
  description: string;
  type: 'article' | 'website' | 'product';
  /** The page's absolute address. */
  url: string;
}

/** Finds the preview of a page (a public capsule, a live listing), or null for a plain page. */
export type OpenGraphLookup = (path: string, origin: string) => Promise<OpenGraphMeta | null>;

const DESCRIPTION_MAX = 300;

/** The og: and twitter: meta tags of a page, escaped. */
export function openGraphTags(meta: OpenGraphMeta): string {
  const description = clip(meta.description.replace(/\s+/g, ' ').trim(), DESCRIPTION_MAX);
  const tags: Array<[attribute: 'property' | 'name', key: string, value: string]> = [
    ['property', 'og:title', meta.title],
    ['property', 'og:description', description],
    ['property', 'og:type', meta.type],
    ['property', 'og:url', meta.url],
    ['property', 'og:site_name', 'Wolfpack'],
    ['name', 'twitter:card', 'summary'],
    ['name', 'twitter:title', meta.title],
    ['name', 'twitter:description', description],
  ];
  return tags.map(([attribute, key, value]) => `<meta ${attribute}="${key}" content="${escapeHtml(value)}" />`).join('\n    ');
}

/**
 * index.html with the page's tags before </head>, its <title> and description replaced, so a
 * crawler that runs no JavaScript still previews the page.
 */
export function injectOpenGraph(html: string, meta: OpenGraphMeta): string {
  const title = `<title>${escapeHtml(`${meta.title} · Wolfpack`)}</title>`;
  const description = `<meta name="description" content="${escapeHtml(clip(meta.description.replace(/\s+/g, ' ').trim(), DESCRIPTION_MAX))}" />`;
  const tags = `    ${openGraphTags(meta)}\n  `;
  // Replacer functions, never replacement strings: a user's title holding `$&`, `$\``, `$'` or
  // `$1` would otherwise be expanded into pieces of the page.
  let out = html.replace(/<title>[\s\S]*?<\/title>/i, () => title);
  out = out.replace(/<meta\s+name="description"[^>]*>/i, () => description);
  return /<\/head>/i.test(out) ? out.replace(/<\/head>/i, () => `${tags}</head>`) : `${tags}${out}`;
}

/**
 * Previews of /capsules/{slug} (public capsules only: a private one previews as the plain app,
 * giving nothing away) and /showcase/{id} (listings not deleted).
 */
export function openGraphLookup(deps: { capsules: CapsuleService; listings: ListingService }): OpenGraphLookup {
  return async (path, origin) => {
    const capsule = /^\/capsules\/([^/]+)\/?$/.exec(path);
    if (capsule) {
      const preview = await deps.capsules.preview(decodeSafe(capsule[1]!));
      return preview ? { title: preview.title, description: preview.description || 'A PackCast session recording on Wolfpack.', type: 'article', url: `${origin}${path}` } : null;
    }
    const listing = /^\/showcase\/([^/]+)\/?$/.exec(path);
    if (listing) {
      const row = await deps.listings.liveRow(decodeSafe(listing[1]!));
      return row ? { title: row.title, description: row.summary ?? '', type: 'product', url: `${origin}${path}` } : null;
    }
    return null;
  };
}

function decodeSafe(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return '';
  }
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`;
}
