/**
 * The idea a Showcase copy starts with: the listing's title as its first line (the project's
 * title), then the summary, without saying anything twice.
 */
import { LISTING_TITLE_MAX_LENGTH } from '../schemas/community.js';

/**
 * The copy's idea from the listing's title and summary. The draft fills the summary from the idea
 * when the idea has a single line, so the summary often opens with the title already: it is the
 * title, its first line is the title, or its first line is the line the title was cut from (a
 * title of the longest length). Then the summary alone is the idea. Otherwise the title, a blank
 * line and the summary.
 */
export function listingCopyIdea(title: string, summary: string): string {
  const heading = title.trim();
  const body = summary.trim();
  if (body === '' || body === heading) return heading;
  if (heading === '') return body;
  const firstLine = (body.split(/\r?\n/, 1)[0] ?? '').trim();
  const cutFromIt = heading.length >= LISTING_TITLE_MAX_LENGTH && firstLine.startsWith(heading);
  if (firstLine === heading || cutFromIt) return body;
  return `${heading}\n\n${body}`;
}
