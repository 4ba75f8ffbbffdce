import { Sparkles } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { buttonClass } from './button';
import { Card } from './card';

export interface ComingSoonProps {
  /** The screen's name, shown as the heading. */
  title: string;
  /** One sentence on what the screen will do. */
  description: string;
  children?: ReactNode;
}

/** Stand-in for a screen that a later change fills in. */
export function ComingSoon({ title, description, children }: ComingSoonProps) {
  return (
    <div className="mx-auto max-w-2xl">
      <Card className="overflow-hidden">
        <div className="h-1.5 bg-gradient-to-r from-brand via-brand/60 to-transparent" aria-hidden />
        <div className="flex flex-col items-start gap-4 p-8">
          <span className="inline-flex items-center gap-1.5 rounded-full bg-brand/10 px-2.5 py-1 text-xs font-medium text-brand-strong">
            <Sparkles className="h-3.5 w-3.5" aria-hidden />
            Coming soon
          </span>
          <h1 className="text-2xl font-semibold tracking-tight">{title}</h1>
          <p className="text-zinc-600 dark:text-zinc-400">{description}</p>
          {children}
          <Link to="/" className={buttonClass('outline', 'sm')}>
            Back to Build
          </Link>
        </div>
      </Card>
    </div>
  );
}
