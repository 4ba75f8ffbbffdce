import { TriangleAlert, type LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { describeRequestFailure } from '../api/client';
import { cn } from '../lib/cn';
import { Button, buttonClass } from './button';
import { Card } from './card';

/** The colour of the square behind the icon: what kind of news the card brings. */
export type NoticeTone = 'neutral' | 'brand' | 'warning' | 'danger';

const TONE_CLASS: Record<NoticeTone, string> = {
  neutral: 'bg-zinc-100 text-zinc-500 dark:bg-zinc-800 dark:text-zinc-400',
  brand: 'bg-brand/10 text-brand-strong',
  warning: 'bg-amber-100 text-amber-700 dark:bg-amber-500/15 dark:text-amber-300',
  danger: 'bg-red-100 text-red-700 dark:bg-red-500/15 dark:text-red-300',
};

export interface NoticeLink {
  to: string;
  label: string;
  icon?: LucideIcon;
  testId?: string;
}

export interface NoticeCardProps {
  icon: LucideIcon;
  /** @default 'neutral' */
  tone?: NoticeTone;
  title: ReactNode;
  /**
   * `h1` when the notice is all the page has to say (not found, could not load): the card then sits
   * centred in a narrow column. `h2` when it stands in for a list under the page's own heading: the
   * card then fills the list's place.
   * @default 'h2'
   */
  heading?: 'h1' | 'h2';
  /** The sentence under the title. */
  children?: ReactNode;
  /** Where to go from here: a primary button-styled link under the text. */
  link?: NoticeLink;
  /** Buttons under the text (after `link`), for actions that are not a place to go. */
  actions?: ReactNode;
  testId: string;
  /** `alert` where a failure should be announced as soon as it shows. */
  role?: 'alert';
}

/**
 * A centred card for the states a screen is in instead of its content: empty, not found, signed
 * out, failed to load. One component so these read alike on every screen.
 */
export function NoticeCard({ icon: Icon, tone = 'neutral', title, heading = 'h2', children, link, actions, testId, role }: NoticeCardProps) {
  const Heading = heading;
  const page = heading === 'h1';
  const card = (
    <Card className={cn('flex w-full flex-col items-center gap-3 text-center', page ? 'max-w-md p-8' : 'p-10')} role={role} data-testid={testId}>
      <span className={cn('grid place-items-center rounded-2xl', page ? 'h-14 w-14' : 'h-12 w-12', TONE_CLASS[tone])}>
        <Icon className={page ? 'h-7 w-7' : 'h-6 w-6'} aria-hidden />
      </span>
      <Heading className={cn('font-semibold', page ? 'text-xl' : 'text-lg')}>{title}</Heading>
      {children ? <p className="max-w-md text-sm text-zinc-600 dark:text-zinc-400">{children}</p> : null}
      {link || actions ? (
        <div className="mt-2 flex flex-wrap justify-center gap-2">
          {link ? (
            <Link to={link.to} className={buttonClass('primary', page ? 'md' : 'sm')} data-testid={link.testId}>
              {link.icon ? <link.icon className="h-4 w-4" aria-hidden /> : null}
              {link.label}
            </Link>
          ) : null}
          {actions}
        </div>
      ) : null}
    </Card>
  );
  return page ? <div className="flex justify-center py-10">{card}</div> : card;
}

/**
 * A detail page whose one record could not be read (not a 404): the server's reason, or a hint
 * about the connection, and a way to try again.
 */
export function PageLoadError({ title, error, onRetry, testId }: { title: string; error: unknown; onRetry: () => void; testId: string }) {
  return (
    <NoticeCard
      icon={TriangleAlert}
      tone="danger"
      heading="h1"
      title={title}
      testId={testId}
      actions={
        <Button variant="outline" onClick={onRetry}>
          Try again
        </Button>
      }
    >
      {describeRequestFailure(error, { failed: 'The server could not read it. Try again in a moment.', exception: 'Check your connection and try again.' })}
    </NoticeCard>
  );
}
