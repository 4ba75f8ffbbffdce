import { Activity } from 'lucide-react';
import { useEffect, useState } from 'react';
import { runningElapsed, runningStepIds } from '@wolfpack/core';
import { formatClock } from '../lib/format-time';
import type { FeedItem } from '../lib/pipeline-state';
import { cn } from '../lib/cn';
import { Card } from './card';

export interface ActivityFeedProps {
  /** Oldest first; shown newest first. */
  items: readonly FeedItem[];
  /** While engines work, every item shows an animated mark with the hint 'Engines active'. */
  processing: boolean;
  onClear: () => void;
}

/** The dot colour of a feed item type; any type other than these three is grey (spec core §3). */
export function feedDotClass(type: string): string {
  switch (type) {
    case 'success':
      return 'bg-emerald-500';
    case 'warning':
      return 'bg-amber-500';
    case 'error':
      return 'bg-red-500';
    default:
      return 'bg-zinc-400 dark:bg-zinc-500';
  }
}

/** The 'Activity Feed' panel (spec core §2 Activity and progress panels). */
export function ActivityFeed({ items, processing, onClear }: ActivityFeedProps) {
  const newestFirst = [...items].reverse();
  // A step whose end line has not come ticks only while the run goes on: a replayed run that
  // ended without it (its server stopped) does not count on for ever.
  const running = processing ? runningStepIds(items) : new Set<string>();
  return (
    <Card className="flex flex-col" data-testid="activity-feed">
      <div className="flex items-center justify-between gap-3 border-b border-zinc-200 px-5 py-3.5 dark:border-zinc-800">
        <h2 className="flex items-center gap-2 text-base font-semibold">
          <Activity className="h-4 w-4 text-brand" aria-hidden />
          Activity Feed
          {items.length > 0 ? (
            <span className="rounded-full bg-zinc-100 px-1.5 py-0.5 text-xs font-medium text-zinc-600 tabular-nums dark:bg-zinc-800 dark:text-zinc-300">
              {items.length}
            </span>
          ) : null}
        </h2>
        <button
          type="button"
          onClick={onClear}
          disabled={items.length === 0}
          className="cursor-pointer rounded-md px-2 py-1 text-xs font-medium text-zinc-600 transition-colors hover:bg-zinc-100 hover:text-zinc-900 disabled:cursor-default disabled:opacity-50 disabled:hover:bg-transparent dark:text-zinc-400 dark:hover:bg-zinc-800 dark:hover:text-white"
        >
          Clear all
        </button>
      </div>
      <div className="h-96 overflow-y-auto px-2 py-2" role="log" aria-live="polite" aria-label="Activity" tabIndex={0}>
        {newestFirst.length === 0 ? (
          <p className="grid h-full place-items-center px-6 text-center text-sm text-zinc-500 dark:text-zinc-400">
            No activity yet. Start the tool to see updates.
          </p>
        ) : (
          <ul className="flex flex-col">
            {newestFirst.map((item) => (
              <li
                key={item.id}
                data-testid="feed-item"
                data-type={item.type}
                className="flex items-start gap-3 rounded-md px-3 py-2 text-sm hover:bg-zinc-50 dark:hover:bg-zinc-800/50"
              >
                <FeedMark type={item.type} processing={processing} />
                <span className="min-w-0 flex-1 break-words" data-testid="feed-message">
                  {item.message}
                </span>
                {item.step && running.has(item.step.id) ? <StepElapsed startedAt={item.step.startedAt} /> : null}
                <time dateTime={item.timestamp} className="shrink-0 pt-0.5 text-[11px] text-zinc-400 tabular-nums">
                  {formatClock(item.timestamp)}
                </time>
              </li>
            ))}
          </ul>
        )}
      </div>
    </Card>
  );
}

/** A running step's time, counted here each second from its start line (the server sends no ticks). */
function StepElapsed({ startedAt }: { startedAt: string }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return (
    <span className="shrink-0 pt-0.5 text-xs font-medium text-brand tabular-nums" data-testid="step-elapsed" title="Running for" aria-hidden>
      {runningElapsed(startedAt, now)}
    </span>
  );
}

function FeedMark({ type, processing }: { type: string; processing: boolean }) {
  if (processing) {
    return (
      <span className="relative mt-1.5 flex h-2.5 w-2.5 shrink-0" title="Engines active" data-mark="active">
        <span className="absolute inline-flex h-full w-full rounded-full bg-brand opacity-60 motion-safe:animate-ping" />
        <span className="relative inline-flex h-2.5 w-2.5 rounded-full bg-brand" />
        <span className="sr-only">Engines active</span>
      </span>
    );
  }
  return (
    <span
      className={cn('mt-1.5 h-2.5 w-2.5 shrink-0 rounded-full', feedDotClass(type))}
      data-mark="dot"
      aria-hidden
    />
  );
}
