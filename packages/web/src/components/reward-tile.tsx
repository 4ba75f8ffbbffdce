import type { ReactNode } from 'react';
import { cn } from '../lib/cn';

export interface RewardTileProps {
  icon: ReactNode;
  /** The reward in large type: `$15 credit`, `Unlimited`. */
  amount: string;
  /** What the reward is for, after the amount. */
  text: string;
  /** Brand border and tint, for the figure the row adds up to. */
  highlight?: boolean;
}

/** One reward in a row of them (`<ul>` or `<ol>`), on Pack Perks and in Outdoors' social tab. */
export function RewardTile({ icon, amount, text, highlight = false }: RewardTileProps) {
  return (
    <li className={cn('flex items-start gap-3 rounded-xl border p-4', highlight ? 'border-brand bg-brand/5' : 'border-zinc-200 dark:border-zinc-800')}>
      <span className="grid h-8 w-8 shrink-0 place-items-center rounded-lg bg-brand/15 text-brand-strong">{icon}</span>
      <p className="text-sm">
        <span className="block text-xl font-semibold">{amount}</span>
        <span className="text-zinc-600 dark:text-zinc-400">{text}</span>
      </p>
    </li>
  );
}
