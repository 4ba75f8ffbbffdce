import { cn } from '../lib/cn';

const SHADE_CLASS = {
  /** Headings and titles: a step darker than the text under them. */
  strong: 'bg-zinc-200 dark:bg-zinc-800',
  base: 'bg-zinc-100 dark:bg-zinc-800',
  /** Body text under a strong line. */
  faint: 'bg-zinc-100 dark:bg-zinc-800/70',
} as const;

export interface SkeletonProps {
  /** Size and shape (`h-4 w-3/4 rounded`, `aspect-[16/9]`). */
  className: string;
  /** @default 'base' */
  shade?: keyof typeof SHADE_CLASS;
}

/** A grey pulsing stand-in for a line of text, a picture or an icon while its data loads. */
export function Skeleton({ className, shade = 'base' }: SkeletonProps) {
  return <div className={cn('animate-pulse', SHADE_CLASS[shade], className)} />;
}
