import type { Capsule } from '@wolfpack/core';
import { Clock, Coins, Eye, Lock, Radio, Share2 } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { formatCapsuleCost, formatCapsuleDuration, formatCount } from '../lib/capsule-format';
import { formatDate } from '../lib/format-time';
import { cn } from '../lib/cn';
import { Card } from './card';
import { Skeleton } from './skeleton';

export interface CapsuleCardProps {
  capsule: Capsule;
  /** Buttons under the counts (My capsules); without them the whole card links to the capsule. */
  actions?: ReactNode;
  /** Show the Public / Private badge (only the owner needs it). */
  showVisibility?: boolean;
}

/** The public page of a capsule. */
export function capsulePath(slug: string): string {
  return `/capsules/${encodeURIComponent(slug)}`;
}

/**
 * One capsule as a card: title, description, project, counts and headline metrics. On discovery
 * the whole card is a link; on My capsules the owner's buttons sit at the bottom instead.
 */
export function CapsuleCard({ capsule, actions, showVisibility = false }: CapsuleCardProps) {
  const linked = actions === undefined;
  return (
    <Card
      className={cn('relative flex flex-col gap-3 p-5 transition-all', linked && 'hover:border-brand/40 hover:shadow-md')}
      data-testid="capsule-card"
      data-capsule-id={capsule.id}
      data-slug={capsule.slug}
    >
      <div className="flex items-start gap-3">
        <span className="grid h-10 w-10 shrink-0 place-items-center rounded-xl bg-brand/10 text-brand-strong">
          <Radio className="h-5 w-5" aria-hidden />
        </span>
        <div className="min-w-0 flex-1">
          <h3 className="line-clamp-2 font-semibold break-words" title={capsule.title} data-testid="capsule-card-title">
            {linked ? (
              <Link
                to={capsulePath(capsule.slug)}
                className="outline-none after:absolute after:inset-0 after:rounded-xl hover:text-brand-strong focus-visible:after:ring-2 focus-visible:after:ring-brand"
              >
                {capsule.title}
              </Link>
            ) : (
              capsule.title
            )}
          </h3>
          <p className="truncate text-xs text-zinc-500 dark:text-zinc-400">
            {capsule.projectName} · {formatDate(capsule.createdAt)}
          </p>
        </div>
        {showVisibility ? (
          <span
            className={cn(
              'inline-flex shrink-0 items-center gap-1 rounded-full px-2 py-0.5 text-xs font-medium',
              capsule.isPublic
                ? 'bg-emerald-100 text-emerald-800 dark:bg-emerald-500/15 dark:text-emerald-300'
                : 'bg-zinc-100 text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300',
            )}
            data-testid="capsule-visibility"
          >
            {capsule.isPublic ? <Eye className="h-3 w-3" aria-hidden /> : <Lock className="h-3 w-3" aria-hidden />}
            {capsule.isPublic ? 'Public' : 'Private'}
          </span>
        ) : null}
      </div>
      {capsule.description ? (
        <p className="line-clamp-3 text-sm break-words text-zinc-600 dark:text-zinc-400">{capsule.description}</p>
      ) : null}
      <dl className="mt-auto flex flex-wrap gap-x-4 gap-y-1 text-xs text-zinc-500 tabular-nums dark:text-zinc-400">
        <Stat icon={<Eye className="h-3.5 w-3.5" aria-hidden />} label="Views" value={formatCount(capsule.viewCount)} testId="capsule-card-views" />
        <Stat icon={<Share2 className="h-3.5 w-3.5" aria-hidden />} label="Shares" value={formatCount(capsule.shareCount)} testId="capsule-card-shares" />
        {capsule.metrics ? (
          <>
            <Stat icon={<Clock className="h-3.5 w-3.5" aria-hidden />} label="Duration" value={formatCapsuleDuration(capsule.metrics.totalDuration)} />
            <Stat icon={<Coins className="h-3.5 w-3.5" aria-hidden />} label="Cost" value={formatCapsuleCost(capsule.metrics.totalCost)} />
          </>
        ) : null}
      </dl>
      {actions ? <div className="flex flex-wrap gap-2 border-t border-zinc-100 pt-3 dark:border-zinc-800">{actions}</div> : null}
    </Card>
  );
}

function Stat({ icon, label, value, testId }: { icon: ReactNode; label: string; value: string; testId?: string }) {
  return (
    <div className="inline-flex items-center gap-1" title={label}>
      <dt className="inline-flex items-center">
        {icon}
        <span className="sr-only">{label}</span>
      </dt>
      <dd data-testid={testId}>{value}</dd>
    </div>
  );
}

/** A grey stand-in for a card while the list loads. */
export function CapsuleCardSkeleton() {
  return (
    <Card className="flex flex-col gap-3 p-5" aria-hidden data-testid="capsule-card-skeleton">
      <div className="flex items-start gap-3">
        <Skeleton className="h-10 w-10 shrink-0 rounded-xl" />
        <div className="flex flex-1 flex-col gap-2">
          <Skeleton className="h-4 w-3/4 rounded" />
          <Skeleton className="h-3 w-1/2 rounded" />
        </div>
      </div>
      <Skeleton className="h-3 w-full rounded" />
      <Skeleton className="h-3 w-5/6 rounded" />
      <Skeleton className="h-3 w-1/3 rounded" />
    </Card>
  );
}
