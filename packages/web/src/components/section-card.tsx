import { useId, type ReactNode } from 'react';
import { cn } from '../lib/cn';
import { Card } from './card';

export interface SectionCardProps {
  icon: ReactNode;
  title: string;
  description?: ReactNode;
  children: ReactNode;
  testId?: string;
  /** An anchor other screens link to (e.g. 'buy-credits'). */
  id?: string;
  /** Extra classes of the body. */
  bodyClass?: string;
  /** Something on the right of the heading (a link, a badge). */
  action?: ReactNode;
}

/** A titled card of a settings-like screen: icon badge, heading and one line, then the content. */
export function SectionCard({ icon, title, description, children, testId, id, bodyClass, action }: SectionCardProps) {
  const headingId = useId();
  return (
    <Card className="scroll-mt-24 overflow-hidden" data-testid={testId} id={id}>
      <section aria-labelledby={headingId}>
        <div className="flex items-start gap-3 border-b border-zinc-100 px-6 py-4 dark:border-zinc-800">
          <span className="grid h-9 w-9 shrink-0 place-items-center rounded-lg bg-brand/10 text-brand-strong">{icon}</span>
          <div className="min-w-0 flex-1">
            <h2 id={headingId} className="font-semibold">
              {title}
            </h2>
            {description ? <p className="text-sm text-zinc-500 dark:text-zinc-400">{description}</p> : null}
          </div>
          {action ? <div className="shrink-0">{action}</div> : null}
        </div>
        <div className={cn('flex flex-col gap-6 p-6', bodyClass)}>{children}</div>
      </section>
    </Card>
  );
}

/** A screen's title block: an icon, the h1 and one line under it. */
export function PageHeader({ icon, title, description, children }: { icon: ReactNode; title: string; description: ReactNode; children?: ReactNode }) {
  return (
    <header className="flex flex-col gap-2">
      {children}
      <h1 className="flex items-center gap-2.5 text-3xl font-semibold tracking-tight">
        <span className="text-brand">{icon}</span>
        {title}
      </h1>
      <p className="text-zinc-600 dark:text-zinc-400">{description}</p>
    </header>
  );
}
