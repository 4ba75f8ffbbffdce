/**
 * Showcase covers: a generated SVG when the seller uploads none, and the check an upload passes.
 */
import { COVER_IMAGE_TYPES } from '../schemas/community.js';
import { escapeHtml } from '../util/escape-html.js';

export type CoverImageType = (typeof COVER_IMAGE_TYPES)[number];

const WIDTH = 1200;
const HEIGHT = 630;
const MAX_LINE = 28;
const MAX_LINES = 4;

/**
 * A 1200×630 cover for a listing without an upload: a two-colour gradient picked from a hash of
 * the title (the same title always gives the same cover) and the title, escaped and wrapped.
 */
export function generatedCoverSvg(title: string): string {
  const hash = fnv1a(title);
  const hue = hash % 360;
  const second = (hue + 40 + ((hash >>> 9) % 100)) % 360;
  const lines = wrap(title.trim() || 'Untitled Project', MAX_LINE, MAX_LINES);
  const lineHeight = 76;
  const top = HEIGHT / 2 - ((lines.length - 1) * lineHeight) / 2;
  const text = lines
    .map((line, i) => `<text x="${WIDTH / 2}" y="${top + i * lineHeight}" text-anchor="middle" dominant-baseline="middle">${escapeXml(line)}</text>`)
    .join('');
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-label="${escapeXml(lines.join(' '))}">` +
    `<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">` +
    `<stop offset="0" stop-color="hsl(${hue}, 70%, 45%)"/><stop offset="1" stop-color="hsl(${second}, 70%, 30%)"/>` +
    `</linearGradient></defs>` +
    `<rect width="${WIDTH}" height="${HEIGHT}" fill="url(#g)"/>` +
    `<g fill="#ffffff" font-family="system-ui, -apple-system, 'Segoe UI', sans-serif" font-size="64" font-weight="700">${text}</g>` +
    `</svg>`
  );
}

/**
 * The image type of an upload read from its first bytes, or null. Only raster formats browsers
 * show as images pass: SVG (which can carry script), HTML and anything unknown are refused, and
 * the declared type of a data URL is never trusted.
 */
export function sniffCoverImage(bytes: Uint8Array): CoverImageType | null {
  const at = (offset: number, ...values: number[]) => values.every((v, i) => bytes[offset + i] === v);
  if (bytes.length >= 8 && at(0, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png';
  if (bytes.length >= 3 && at(0, 0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (bytes.length >= 6 && (at(0, 0x47, 0x49, 0x46, 0x38, 0x37, 0x61) || at(0, 0x47, 0x49, 0x46, 0x38, 0x39, 0x61))) return 'image/gif';
  if (bytes.length >= 12 && at(0, 0x52, 0x49, 0x46, 0x46) && at(8, 0x57, 0x45, 0x42, 0x50)) return 'image/webp';
  return null;
}

/**
 * Text safe inside an XML element or attribute: HTML's five escapes (XML reads them the same), and
 * no control characters, which XML does not allow at all.
 */
export function escapeXml(value: string): string {
  return escapeHtml(value.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, ''));
}

/** Words into at most `maxLines` lines of about `width` characters; an ellipsis marks a cut. */
function wrap(text: string, width: number, maxLines: number): string[] {
  const words = text.split(/\s+/).filter(Boolean).flatMap((word) => chunks(word, width));
  const lines: string[] = [];
  let line = '';
  for (const word of words) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  if (lines.length <= maxLines) return lines;
  const kept = lines.slice(0, maxLines);
  kept[maxLines - 1] = `${kept[maxLines - 1]!.slice(0, width - 1)}…`;
  return kept;
}

/** A word longer than a line, split so it cannot run off the image. */
function chunks(word: string, width: number): string[] {
  const chars = [...word];
  const out: string[] = [];
  for (let i = 0; i < chars.length; i += width) out.push(chars.slice(i, i + width).join(''));
  return out;
}

/** 32-bit FNV-1a over UTF-16 code units: small, stable, good enough to pick colours. */
function fnv1a(value: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < value.length; i += 1) {
    hash ^= value.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}
