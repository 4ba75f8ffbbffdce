import { Check, CirclePause, ExternalLink, LoaderCircle, Minus, Send, X } from 'lucide-react';
import { formatCents, progressDisplay, remainingEstimate, stageStatusLabel, type PipelineProgress as Progress } from '@wolfpack/core';
import { useEffect, useRef, useState } from 'react';
import { formatElapsed, formatEstimate } from '../lib/format-time';
import { isRunActive, type RunPhase, type StageStatus, type StageView } from '../lib/pipeline-state';
import { cn } from '../lib/cn';
import { Card } from './card';
import { StageDisplay } from './stage-display';

export interface PipelineProgressProps {
  phase: RunPhase;
  stages: readonly StageView[];
  progress: Progress | null;
  /** What the run has been charged so far, in cents; null before its first charge (free engines never charge). */
  spentCents: number | null;
  /** When set, '6. Open Preview' and '7. Publish to the coding platform' appear. */
  completedProjectId: string | null;
  onPublish: () => void;
}

const phaseBadges: Partial<Record<RunPhase, { label: string; className: string }>> = {
  starting: { label: 'Starting', className: 'bg-brand/10 text-brand-strong' },
  running: { label: 'Running', className: 'bg-brand/10 text-brand-strong' },
  reconnecting: { label: 'Reconnecting…', className: 'bg-amber-100 text-amber-800 dark:bg-amber-500/15 dark:text-amber-300' },
  interrupted: { label: 'Interrupted', className: 'bg-amber-100 text-amber-800 dark:bg-amber-500/15 dark:text-amber-300' },
  disconnected: { label: 'Disconnected', className: 'bg-amber-100 text-amber-800 dark:bg-amber-500/15 dark:text-amber-300' },
  complete: { label: 'Complete', className: 'bg-emerald-100 text-emerald-800 dark:bg-emerald-500/15 dark:text-emerald-300' },
  failed: { label: 'Failed', className: 'bg-red-100 text-red-700 dark:bg-red-500/15 dark:text-red-300' },
};

const rowClass = 'flex items-center gap-3 rounded-lg px-3 py-2.5';

/** Row background and status colour of each stage status. */
function rowTone(status: StageStatus, stopped: boolean): { row: string | false; label: string } {
  switch (status) {
    case 'complete':
      return { row: 'bg-zinc-50 dark:bg-zinc-800/40', label: 'text-emerald-700 dark:text-emerald-400' };
    case 'running':
      return { row: 'bg-brand/5', label: stopped ? 'text-amber-700 dark:text-amber-300' : 'text-brand-strong' };
    case 'failed':
      return { row: 'bg-red-50 dark:bg-red-500/10', label: 'text-red-700 dark:text-red-300' };
    case 'pending':
      return { row: false, label: 'text-zinc-400' };
    case 'skipped':
      return { row: 'opacity-60', label: 'text-zinc-400' };
    case 'not-run':
      return { row: false, label: 'text-zinc-500 dark:text-zinc-400' };
    default: {
      const unreachable: never = status;
      return unreachable;
    }
  }
}

/**
 * The 'Pipeline Progress' panel (spec core §2 Activity and progress panels): the five-stage
 * display, a progress bar whose width is the percentage, elapsed time and estimate, and each stage
 * as pending (its number), running (spinner, 'In Progress'), complete (check, 'Complete'), failed
 * (red, 'Failed: …' or a gate that did not pass), not run (grey: the run failed before it) or not in this run (a repair does Proven Code alone; what earlier
 * runs did in the other stages is not this run's work, so it is not shown as done).
 */
export function PipelineProgress({ phase, stages, progress, spentCents, completedProjectId, onPublish }: PipelineProgressProps) {
  const active = isRunActive(phase);
  // The bar and "Stage n of 5" count the stage under way (core's rule), not only those finished.
  const shown = progress ? progressDisplay(progress, active && stages.some((stage) => stage.status === 'running')) : null;
  const percent = Math.max(0, Math.min(100, shown?.percent ?? 0));
  const badge = phaseBadges[phase];
  const { elapsed, remaining } = useLiveTimes(progress, active);
  // A stage that was running when the run stopped is shown paused, not spinning.
  const stopped = phase === 'interrupted' || phase === 'disconnected' || phase === 'failed';
  const inRun = stages.filter((stage) => stage.status !== 'skipped');
  const partial = inRun.length < stages.length;
  return (
    <Card className="flex flex-col gap-5 p-5 sm:p-6" data-testid="pipeline-progress">
      <div className="flex items-center justify-between gap-3">
        <h2 className="text-base font-semibold">Pipeline Progress</h2>
        {badge ? (
          <span className={cn('rounded-full px-2.5 py-0.5 text-xs font-medium', badge.className)} data-testid="run-phase">
            {badge.label}
          </span>
        ) : null}
      </div>

      {partial ? (
        <p className="-mt-2 text-sm text-zinc-600 dark:text-zinc-400" data-testid="run-scope">
          Repair again: this run does {inRun.map((stage) => stage.role).join(', ')} only, on the project&apos;s current files. The
          other stages are not part of it.
        </p>
      ) : null}

      <StageDisplay stages={stages} paused={stopped} />

      <div className="flex flex-col gap-2">
        <div className="flex items-baseline justify-between text-sm">
          <span className="font-medium tabular-nums" data-testid="progress-percent">
            {percent}%
          </span>
          <span className="text-xs text-zinc-500 tabular-nums dark:text-zinc-400">
            {shown ? `Stage ${shown.stage} of ${shown.total}` : 'Waiting for the first stage'}
          </span>
        </div>
        <div
          className="h-2.5 overflow-hidden rounded-full bg-zinc-100 dark:bg-zinc-800"
          role="progressbar"
          aria-label="Pipeline progress"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={percent}
        >
          <div
            className={cn(
              'relative h-full overflow-hidden rounded-full bg-gradient-to-r from-brand/80 to-brand transition-[width] duration-500 ease-out',
              active && 'progress-sheen',
            )}
            style={{ width: `${percent}%` }}
            data-testid="progress-bar"
          />
        </div>
        <div className="flex justify-between text-xs text-zinc-500 tabular-nums dark:text-zinc-400">
          <span>Elapsed {formatElapsed(elapsed)}</span>
          <span>
            {phase === 'complete'
              ? 'Done'
              : remaining !== null && active
                ? `ETA ${formatEstimate(remaining)}`
                : 'ETA —'}
          </span>
        </div>
        {spentCents !== null ? (
          <p className="text-xs text-zinc-500 tabular-nums dark:text-zinc-400" data-testid="run-cost">
            {phase === 'complete' ? 'Cost of this run' : 'Cost so far'}:{' '}
            <span className="font-medium text-zinc-700 dark:text-zinc-200">{formatCents(spentCents)}</span>
          </p>
        ) : null}
      </div>

      <ol className="flex flex-col gap-1" aria-label="Stage status">
        {stages.map((stage) => {
          const tone = rowTone(stage.status, stopped);
          return (
            <li
              key={stage.role}
              data-testid={`stage-row-${stage.number}`}
              data-status={stage.status}
              className={cn(rowClass, tone.row)}
            >
              <StageMark stage={stage} stopped={stopped} />
              <span className="min-w-0 flex-1">
                <span className="block text-sm font-medium">{stage.role}</span>
                {stage.engine ? <span className="block truncate text-xs text-zinc-500">{stage.engine}</span> : null}
              </span>
              {stage.status !== 'pending' && stage.status !== 'skipped' && stage.status !== 'not-run' ? (
                <span className="text-xs text-zinc-500 tabular-nums">{formatElapsed(stage.executionTime)}</span>
              ) : null}
              <span className={cn('max-w-64 min-w-28 text-right text-xs font-medium', tone.label)} data-testid="stage-status">
                {stageStatusLabel(stage, stopped)}
              </span>
            </li>
          );
        })}
        {completedProjectId ? (
          <>
            <li>
              <a
                href={`/preview/${encodeURIComponent(completedProjectId)}`}
                target="_blank"
                rel="noopener noreferrer"
                className={cn(rowClass, 'group w-full text-sm font-medium text-brand-strong transition-colors hover:bg-brand/10')}
                data-testid="open-preview"
              >
                <ExternalLink className="h-4 w-4" aria-hidden />
                6. Open Preview
              </a>
            </li>
            <li>
              <button
                type="button"
                onClick={onPublish}
                className={cn(
                  rowClass,
                  'w-full cursor-pointer text-left text-sm font-medium text-brand-strong transition-colors hover:bg-brand/10',
                )}
                data-testid="publish-action"
              >
                <Send className="h-4 w-4" aria-hidden />
                7. Publish to the coding platform
              </button>
            </li>
          </>
        ) : null}
      </ol>
    </Card>
  );
}

/**
 * Elapsed time and estimate that keep moving between stage events: the server's values plus the
 * time since they arrived, while the run is active.
 */
function useLiveTimes(progress: Progress | null, active: boolean) {
  const receivedAt = useRef(Date.now());
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    receivedAt.current = Date.now();
    setNow(receivedAt.current);
  }, [progress]);
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => setNow(Date.now()), 500);
    return () => clearInterval(timer);
  }, [active]);
  const since = active ? Math.max(0, (now - receivedAt.current) / 1000) : 0;
  return {
    elapsed: (progress?.elapsedSeconds ?? 0) + since,
    // null when unknown (no stage finished yet, or the estimate ran out): shown as '—', never '~0s'.
    remaining: remainingEstimate(progress, since),
  };
}

function StageMark({ stage, stopped }: { stage: StageView; stopped: boolean }) {
  const mark = 'grid h-7 w-7 shrink-0 place-items-center rounded-full';
  switch (stage.status) {
    case 'running':
      return stopped ? (
        <span className={cn(mark, 'bg-amber-100 text-amber-700 dark:bg-amber-500/15 dark:text-amber-300')}>
          <CirclePause className="h-4 w-4" aria-hidden />
        </span>
      ) : (
        <span className={cn(mark, 'bg-brand/15 text-brand-strong')}>
          <LoaderCircle className="h-4 w-4 animate-spin" aria-hidden />
        </span>
      );
    case 'complete':
      return (
        <span className={cn(mark, 'bg-emerald-600 text-white')}>
          <Check className="h-4 w-4" strokeWidth={3} aria-hidden />
        </span>
      );
    case 'failed':
      return (
        <span className={cn(mark, 'bg-red-600 text-white')} data-mark="failed">
          <X className="h-4 w-4" strokeWidth={3} aria-hidden />
        </span>
      );
    case 'pending':
      return (
        <span className={cn(mark, 'border border-zinc-300 text-xs font-semibold text-zinc-500 dark:border-zinc-600')}>
          {stage.number}
        </span>
      );
    case 'skipped':
      return (
        <span className={cn(mark, 'border border-dashed border-zinc-300 text-zinc-400 dark:border-zinc-600')}>
          <Minus className="h-4 w-4" aria-hidden />
        </span>
      );
    case 'not-run':
      return (
        <span className={cn(mark, 'bg-zinc-200 text-zinc-500 dark:bg-zinc-700 dark:text-zinc-400')} data-mark="not-run">
          <Minus className="h-4 w-4" aria-hidden />
        </span>
      );
    default: {
      const unreachable: never = stage.status;
      return unreachable;
    }
  }
}
