/**
 * The "List in Showcase" form's pure pieces: what the fields start from (the server's draft or an
 * existing listing), turning what was typed into the POST/PUT body, the cover checks, and the
 * sentence a failed purchase shows (companion §5, §8).
 */
import {
  COVER_IMAGE_MAX_BYTES,
  COVER_IMAGE_TYPES,
  LISTING_MAX_PRICE_CENTS,
  LISTING_MAX_TAGS,
  LISTING_MIN_PRICE_CENTS,
  LISTING_SUMMARY_MAX_LENGTH,
  LISTING_TITLE_MAX_LENGTH,
  listingTextTooLong,
  type Listing,
  type ListingDraftReply,
} from '@wolfpack/core';
import { httpErrorParts, serverErrorText } from '../api/client';

/** Everything the dialog holds as typed; prices and lists stay text until submitted. */
export interface ListingFormValues {
  title: string;
  summary: string;
  visibility: 'free' | 'commercial';
  /** Dollars as typed, e.g. "19.99". */
  price: string;
  /** Comma-separated. */
  techStack: string;
  /** Comma-separated. */
  tags: string;
  demoUrl: string;
  repoUrl: string;
  /** A data URL of the chosen cover, or null for the generated one. */
  coverImage: string | null;
}

export const EMPTY_LISTING_FORM: ListingFormValues = {
  title: '',
  summary: '',
  visibility: 'free',
  price: '',
  techStack: '',
  tags: '',
  demoUrl: '',
  repoUrl: '',
  coverImage: null,
};

/** The form as the server's draft suggests it (GET /api/listings/draft). */
export function formFromDraft(draft: ListingDraftReply['draft']): ListingFormValues {
  return { ...EMPTY_LISTING_FORM, title: draft.title, summary: draft.summary, techStack: draft.techStack.join(', ') };
}

/** The form for editing a listing; the cover stays as it is unless a new one is chosen. */
export function formFromListing(listing: Listing): ListingFormValues {
  return {
    title: listing.title,
    summary: listing.summary,
    visibility: listing.visibility,
    price: listing.visibility === 'commercial' ? (listing.priceCents / 100).toFixed(2) : '',
    techStack: listing.techStack.join(', '),
    tags: listing.tags.map((tag) => tag.tagName).join(', '),
    demoUrl: listing.demoUrl ?? '',
    repoUrl: listing.repoUrl ?? '',
    coverImage: null,
  };
}

/** Comma-separated text as a list: trimmed, without blanks or repeats (case-insensitive). */
export function splitList(text: string): string[] {
  const seen = new Set<string>();
  const items: string[] = [];
  for (const part of text.split(',')) {
    const item = part.trim();
    if (!item || seen.has(item.toLowerCase())) continue;
    seen.add(item.toLowerCase());
    items.push(item);
  }
  return items;
}

/** Dollars as typed ("19.99", "$5", "5.5") in whole cents; undefined when it is not a price. */
export function dollarsToCents(text: string): number | undefined {
  const match = /^\s*\$?\s*(\d{1,7})(?:\.(\d{1,2}))?\s*$/.exec(text);
  if (!match) return undefined;
  return Number(match[1]) * 100 + Number((match[2] ?? '0').padEnd(2, '0'));
}

/** The body of POST/PUT /api/listings without projectId. */
export interface ListingBody {
  title: string;
  summary: string;
  visibility: 'free' | 'commercial';
  priceCents: number;
  techStack: string[];
  tags: string[];
  demoUrl: string | null;
  repoUrl: string | null;
  coverImage?: string;
}

export type FieldName = 'title' | 'summary' | 'price' | 'tags' | 'demoUrl' | 'repoUrl';
export type ListingFormCheck = { ok: true; body: ListingBody } | { ok: false; errors: Partial<Record<FieldName, string>> };

const URL_PATTERN = /^https?:\/\/[^\s]+$/i;

/**
 * Checks what the server would refuse anyway, so the user hears it next to the field before a
 * round trip; the server stays the judge (its message shows in the form too).
 */
export function checkListingForm(values: ListingFormValues): ListingFormCheck {
  const errors: Partial<Record<FieldName, string>> = {};
  const title = values.title.trim();
  const summary = values.summary.trim();
  const titleTooLong = lengthProblem('title', values.title);
  const summaryTooLong = lengthProblem('summary', values.summary);
  if (!title) errors.title = 'Give the listing a title';
  else if (titleTooLong) errors.title = titleTooLong;
  if (!summary) errors.summary = 'Give the listing a summary';
  else if (summaryTooLong) errors.summary = summaryTooLong;
  let priceCents = 0;
  if (values.visibility === 'commercial') {
    const cents = dollarsToCents(values.price);
    if (cents === undefined) errors.price = 'Enter a price in dollars, e.g. 19.99';
    else if (cents < LISTING_MIN_PRICE_CENTS) errors.price = 'A commercial listing needs a price of at least $1';
    else if (cents > LISTING_MAX_PRICE_CENTS) errors.price = 'The price can be at most $10,000';
    else priceCents = cents;
  }
  const tags = splitList(values.tags);
  if (tags.length > LISTING_MAX_TAGS) errors.tags = `At most ${LISTING_MAX_TAGS} tags`;
  else if (tags.some((tag) => tag.length > 30)) errors.tags = 'Each tag must be at most 30 characters';
  const demoUrl = values.demoUrl.trim();
  const repoUrl = values.repoUrl.trim();
  if (demoUrl && !URL_PATTERN.test(demoUrl)) errors.demoUrl = 'The demo URL must start with http:// or https://';
  if (repoUrl && !URL_PATTERN.test(repoUrl)) errors.repoUrl = 'The repository URL must start with http:// or https://';
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return {
    ok: true,
    body: {
      title,
      summary,
      visibility: values.visibility,
      priceCents,
      techStack: splitList(values.techStack),
      tags,
      demoUrl: demoUrl || null,
      repoUrl: repoUrl || null,
      ...(values.coverImage ? { coverImage: values.coverImage } : {}),
    },
  };
}

/** Why a title or summary is too long (as typed or pasted: nothing is cut), or undefined when it fits. */
export function lengthProblem(field: 'title' | 'summary', text: string): string | undefined {
  const length = text.trim().length;
  return length > (field === 'title' ? LISTING_TITLE_MAX_LENGTH : LISTING_SUMMARY_MAX_LENGTH) ? listingTextTooLong(field, length) : undefined;
}

/** Why a chosen cover file is refused, or null when it can be uploaded. */
export function coverFileProblem(file: { type: string; size: number }): string | null {
  if (!(COVER_IMAGE_TYPES as readonly string[]).includes(file.type)) return 'Choose a PNG, JPEG, WebP or GIF image.';
  if (file.size > COVER_IMAGE_MAX_BYTES) return 'The cover image must be at most 1 MB.';
  return null;
}

/**
 * The server's sentence about one field of a refused request (its `issues`, e.g. a cover image
 * that does not decode: `coverImage`), or undefined when the refusal is about something else.
 */
export function serverFieldProblem(error: unknown, field: string): string | undefined {
  const body = httpErrorParts(error)?.body.trim();
  if (!body?.startsWith('{')) return undefined;
  try {
    const parsed = JSON.parse(body) as { issues?: unknown };
    if (!Array.isArray(parsed.issues)) return undefined;
    const issue = (parsed.issues as Array<{ path?: unknown; message?: unknown }>).find((i) => i.path === field);
    return typeof issue?.message === 'string' && issue.message.trim() ? issue.message : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The toast text of a failed purchase (spec §5, §8): the server's error, else "Purchase failed"
 * for a refusal without one, else "Failed to start checkout process" (the request never got an
 * answer).
 */
export function purchaseFailureText(error: unknown): string {
  const serverText = serverErrorText(error);
  if (serverText !== undefined) return serverText;
  if (httpErrorParts(error)) return 'Purchase failed';
  return 'Failed to start checkout process';
}
