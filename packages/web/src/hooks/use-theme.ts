/**
 * Light or dark theme (spec core §9: light by default, stored in the browser). The class `dark` on
 * <html> switches Tailwind's dark variant.
 */
import { useCallback } from 'react';
import { STORAGE_KEYS } from '../lib/storage-keys';
import { createStoredValue } from './use-stored-value';

export type Theme = 'light' | 'dark';

export const THEME_STORAGE_KEY = STORAGE_KEYS.theme;
export const DEFAULT_THEME: Theme = 'light';

/** Any stored value other than 'dark' or 'light' means the default. */
export function parseTheme(raw: string | null): Theme {
  return raw === 'dark' || raw === 'light' ? raw : DEFAULT_THEME;
}

export const themeStore = createStoredValue<Theme>(THEME_STORAGE_KEY, parseTheme);

/** Puts the theme on the document. */
export function applyTheme(theme: Theme, root: HTMLElement = document.documentElement): void {
  root.classList.toggle('dark', theme === 'dark');
  root.style.colorScheme = theme;
}

/** Applies the stored theme now and whenever it changes; returns the unsubscribe function. */
export function syncThemeToDocument(): () => void {
  applyTheme(themeStore.get());
  return themeStore.subscribe(() => applyTheme(themeStore.get()));
}

/** The current theme with setters; changes are stored and applied at once. */
export function useTheme() {
  const theme = themeStore.use();
  const setTheme = useCallback((next: Theme) => themeStore.set(next), []);
  const toggleTheme = useCallback(() => themeStore.set(themeStore.get() === 'dark' ? 'light' : 'dark'), []);
  return { theme, setTheme, toggleTheme };
}
