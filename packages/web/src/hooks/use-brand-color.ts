/**
 * The user's brand colour (spec core §9: default #10b981, stored in the browser). It is written
 * to CSS variables on <html> that primary buttons and links use.
 */
import { useCallback } from 'react';
import { STORAGE_KEYS } from '../lib/storage-keys';
import { createStoredValue } from './use-stored-value';

export const BRAND_COLOR_STORAGE_KEY = STORAGE_KEYS.brandColor;
export const DEFAULT_BRAND_COLOR = '#10b981';

const HEX_COLOR = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;

/** True for a CSS hex colour of the form #rgb or #rrggbb. */
export function isValidHexColor(value: unknown): value is string {
  return typeof value === 'string' && HEX_COLOR.test(value.trim());
}

/**
 * The colour to use for a stored or typed value: a valid hex colour in lower-case #rrggbb form,
 * anything else (missing, empty, a name, a broken hex) the default.
 */
export function normalizeBrandColor(value: string | null | undefined): string {
  if (!isValidHexColor(value)) return DEFAULT_BRAND_COLOR;
  const hex = value.trim().toLowerCase();
  if (hex.length === 4) return `#${[...hex.slice(1)].map((c) => c + c).join('')}`;
  return hex;
}

/** What a finished entry in the colour text box stands for, and what to tell the user about it. */
export interface CommittedBrandColor {
  color: string;
  /** Why the entry is not used; null when it is a valid colour. */
  problem: string | null;
}

/**
 * The colour a finished entry (the text box left, or Enter) sets (spec companion §4: an invalid
 * hex value falls back to a default hue): a valid hex colour as typed, anything else the default,
 * with a sentence that says so and what to enter.
 */
export function committedBrandColor(text: string): CommittedBrandColor {
  const typed = text.trim();
  if (isValidHexColor(typed)) return { color: normalizeBrandColor(typed), problem: null };
  const what = typed ? `"${typed}"` : 'An empty value';
  return { color: DEFAULT_BRAND_COLOR, problem: `${what} is not a valid colour, so the default colour is used. Enter a hex colour such as ${DEFAULT_BRAND_COLOR}.` };
}

/**
 * White or near-black text, whichever reads better on `hex`, so a pale brand colour keeps legible
 * primary buttons. Uses perceived brightness (YIQ), which keeps white on mid-tone colours such as
 * the default emerald, as people expect, and switches to dark text only on light ones.
 */
export function readableForeground(hex: string): '#ffffff' | '#09090b' {
  const color = normalizeBrandColor(hex);
  const [r, g, b] = [1, 3, 5].map((offset) => Number.parseInt(color.slice(offset, offset + 2), 16)) as [
    number,
    number,
    number,
  ];
  const brightness = (r * 299 + g * 587 + b * 114) / 1000;
  return brightness > 160 ? '#09090b' : '#ffffff';
}

export const brandColorStore = createStoredValue<string>(BRAND_COLOR_STORAGE_KEY, normalizeBrandColor);

/** Writes the colour and its readable foreground to the document's CSS variables. */
export function applyBrandColor(color: string, root: HTMLElement = document.documentElement): void {
  const brand = normalizeBrandColor(color);
  root.style.setProperty('--brand', brand);
  root.style.setProperty('--brand-foreground', readableForeground(brand));
}

/** Applies the stored colour now and whenever it changes; returns the unsubscribe function. */
export function syncBrandColorToDocument(): () => void {
  applyBrandColor(brandColorStore.get());
  return brandColorStore.subscribe(() => applyBrandColor(brandColorStore.get()));
}

/**
 * The current brand colour. `setBrandColor` stores only valid hex colours and reports whether it
 * did, so a half-typed value in a text box does not reset the colour while it is typed; a
 * finished invalid entry is turned into the default by {@link committedBrandColor}.
 */
export function useBrandColor() {
  const brandColor = brandColorStore.use();
  const setBrandColor = useCallback((next: string): boolean => {
    if (!isValidHexColor(next)) return false;
    brandColorStore.set(normalizeBrandColor(next));
    return true;
  }, []);
  const resetBrandColor = useCallback(() => brandColorStore.set(DEFAULT_BRAND_COLOR), []);
  return { brandColor, setBrandColor, resetBrandColor, defaultBrandColor: DEFAULT_BRAND_COLOR };
}
