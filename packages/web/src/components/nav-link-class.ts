import { cn } from '../lib/cn';

/** Shared look of a header link; the active one is tinted with the brand colour. */
export function navLinkClass(active: boolean): string {
  return cn(
    'inline-flex cursor-pointer items-center gap-1.5 rounded-lg px-3 py-2 text-sm font-medium transition-colors outline-none focus-visible:ring-2 focus-visible:ring-brand/50',
    active
      ? 'bg-brand/10 text-brand-strong'
      : 'text-zinc-600 hover:bg-zinc-100 hover:text-zinc-900 dark:text-zinc-400 dark:hover:bg-zinc-800 dark:hover:text-zinc-100',
  );
}
