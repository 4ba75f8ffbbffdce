import { ENHANCEMENT_ENGINES_PER_PASS, ENHANCEMENT_PASSES } from '@wolfpack/core';
import { CircleCheck, RotateCcw, TriangleAlert, WandSparkles, X } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { cn } from '../lib/cn';
import type { EnhanceState } from '../lib/enhance-state';
import { formatEstimate } from '../lib/format-time';

export interface EnhanceStatusProps {
  state: EnhanceState;
  onDismiss: () => void;
  onRestore: () => void;
}

/** The pass the engines are working on: finished steps fill pass 1 first. */
export function activePass(current: number): number {
  return Math.min(ENHANCEMENT_PASSES, Math.floor(current / ENHANCEMENT_ENGINES_PER_PASS) + 1);
}

/**
 * AI Enhance's progress and outcome inside the prompt card (spec core §4 Enhance, §9): while
 * enhancing, the percentage (finished steps of 8) and a time estimate ('~Ns' or '~Nm Ns'); once
 * finished, what happened to the prompt.
 */
export function EnhanceStatus({ state, onDismiss, onRestore }: EnhanceStatusProps) {
  if (state.phase === 'idle') return null;
  if (state.phase === 'enhancing') return <EnhanceProgress state={state} />;

  const dismiss = (
    <button
      type="button"
      onClick={onDismiss}
      aria-label="Dismiss"
      className="cursor-pointer rounded p-1 opacity-70 transition-opacity hover:opacity-100"
    >
      <X className="h-4 w-4" aria-hidden />
    </button>
  );
  const box = 'flex items-center gap-3 rounded-lg border px-3 py-2.5 text-sm';

  switch (state.outcome) {
    case 'enhanced':
      return (
        <div
          className={cn(box, 'border-emerald-200 bg-emerald-50 text-emerald-950 dark:border-emerald-500/30 dark:bg-emerald-500/10 dark:text-emerald-100')}
          role="status"
          data-testid="enhance-status"
          data-phase="finished"
          data-outcome="enhanced"
        >
          <CircleCheck className="h-4 w-4 shrink-0 text-emerald-600 dark:text-emerald-400" aria-hidden />
          <p className="min-w-0 flex-1">
            <span className="font-medium">Prompt enhanced.</span>{' '}
            <span className="opacity-80">Review it, edit anything you like, then start the pack.</span>
          </p>
          <button
            type="button"
            onClick={onRestore}
            className="inline-flex shrink-0 cursor-pointer items-center gap-1 rounded-md px-2 py-1 text-xs font-medium hover:bg-emerald-100 dark:hover:bg-emerald-500/15"
          >
            <RotateCcw className="h-3.5 w-3.5" aria-hidden />
            Restore original
          </button>
          {dismiss}
        </div>
      );
    case 'kept-original':
      return (
        <div
          className={cn(box, 'border-amber-300 bg-amber-50 text-amber-950 dark:border-amber-500/40 dark:bg-amber-500/10 dark:text-amber-100')}
          role="status"
          data-testid="enhance-status"
          data-phase="finished"
          data-outcome="kept-original"
        >
          <TriangleAlert className="h-4 w-4 shrink-0" aria-hidden />
          <p className="min-w-0 flex-1">The engines returned no enhanced prompt, so your original prompt is kept.</p>
          {dismiss}
        </div>
      );
    default:
      return (
        <div
          className={cn(box, 'border-red-200 bg-red-50 text-red-900 dark:border-red-500/30 dark:bg-red-500/10 dark:text-red-100')}
          role="alert"
          data-testid="enhance-status"
          data-phase="finished"
          data-outcome="failed"
        >
          <TriangleAlert className="h-4 w-4 shrink-0" aria-hidden />
          <p className="min-w-0 flex-1">
            <span className="font-medium">AI Enhance failed.</span>{' '}
            <span className="opacity-85">{state.error ?? 'Your prompt is unchanged.'}</span>
          </p>
          {dismiss}
        </div>
      );
  }
}

function EnhanceProgress({ state }: { state: EnhanceState }) {
  const remaining = useCountdown(state.estimatedRemainingSeconds);
  const pass = activePass(state.current);
  return (
    <div
      className="flex flex-col gap-2 rounded-lg border border-brand/30 bg-brand/5 px-3.5 py-3"
      role="status"
      aria-live="polite"
      data-testid="enhance-status"
      data-phase="enhancing"
    >
      <div className="flex items-center justify-between gap-3 text-sm">
        <span className="flex min-w-0 items-center gap-2 font-medium text-brand-strong">
          <WandSparkles className="h-4 w-4 shrink-0 motion-safe:animate-pulse" aria-hidden />
          <span className="truncate">
            Enhancing your prompt · pass {pass} of {ENHANCEMENT_PASSES}
          </span>
        </span>
        <span className="font-semibold tabular-nums" data-testid="enhance-percent">
          {state.percent}%
        </span>
      </div>
      <div
        className="h-2 overflow-hidden rounded-full bg-white ring-1 ring-brand/15 dark:bg-zinc-900"
        role="progressbar"
        aria-label="Enhancement progress"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={state.percent}
      >
        <div
          className="progress-sheen relative h-full overflow-hidden rounded-full bg-gradient-to-r from-brand/70 to-brand transition-[width] duration-500 ease-out"
          style={{ width: `${Math.max(state.percent, 3)}%` }}
          data-testid="enhance-bar"
        />
      </div>
      <div className="flex justify-between text-xs text-zinc-600 tabular-nums dark:text-zinc-400">
        <span data-testid="enhance-steps">
          Step {state.current} of {state.total}
        </span>
        <span data-testid="enhance-estimate">
          {remaining === null ? 'Estimating time…' : `${formatEstimate(remaining)} left`}
        </span>
      </div>
    </div>
  );
}

/**
 * The server's estimate, counting down between step events so it never looks frozen; null until
 * the first estimate arrives.
 */
function useCountdown(estimate: number | null): number | null {
  const receivedAt = useRef(Date.now());
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    receivedAt.current = Date.now();
    setNow(receivedAt.current);
  }, [estimate]);
  useEffect(() => {
    if (estimate === null) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [estimate]);
  if (estimate === null) return null;
  return Math.max(0, estimate - Math.max(0, (now - receivedAt.current) / 1000));
}
