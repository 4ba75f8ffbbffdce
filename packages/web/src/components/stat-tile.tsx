import type { ReactNode } from 'react';
import { Card } from './card';

export interface StatTileProps {
  icon: ReactNode;
  label: string;
  value: ReactNode;
  /** On the value, where tests read the figure. */
  testId: string;
  /** More `<dd>` lines under the value (a note on the figure). */
  children?: ReactNode;
}

/** One headline figure in a `<dl>` grid: icon and label above, the value large below. */
export function StatTile({ icon, label, value, testId, children }: StatTileProps) {
  return (
    <Card className="flex flex-col gap-1 p-4">
      <dt className="flex items-center gap-1.5 text-xs font-medium tracking-wide text-zinc-500 uppercase dark:text-zinc-400">
        <span className="text-brand">{icon}</span>
        {label}
      </dt>
      <dd className="text-2xl font-semibold tabular-nums" data-testid={testId}>
        {value}
      </dd>
      {children}
    </Card>
  );
}
