import { stageStatusLabel } from '@wolfpack/core';
import { Check, X } from 'lucide-react';
import type { StageStatus, StageView } from '../lib/pipeline-state';
import { cn } from '../lib/cn';
import { stageDescriptions, stageIcons } from './stage-icons';

export interface StageDisplayProps {
  stages: readonly StageView[];
  /** The run stopped (interrupted, failed): a running stage does not pulse. */
  paused?: boolean;
}

/** The tile of each status; a stage not in this run is dashed and faint, one that never ran grey, never lit. */
function tileClass(status: StageStatus): string {
  switch (status) {
    case 'complete':
      return 'border-brand bg-brand text-brand-foreground shadow-md shadow-brand/30';
    case 'running':
      return 'border-brand bg-brand/10 text-brand-strong';
    case 'failed':
      return 'border-red-500 bg-red-50 text-red-700 dark:border-red-400 dark:bg-red-500/10 dark:text-red-300';
    case 'pending':
      return 'border-zinc-200 bg-white text-zinc-400 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-500';
    case 'skipped':
      return 'border-dashed border-zinc-200 bg-transparent text-zinc-300 dark:border-zinc-700 dark:text-zinc-600';
    case 'not-run':
      return 'border-zinc-200 bg-zinc-100 text-zinc-400 dark:border-zinc-700 dark:bg-zinc-800 dark:text-zinc-500';
    default: {
      const unreachable: never = status;
      return unreachable;
    }
  }
}

/**
 * The five-stage pipeline display (spec core §1): Planning, Building, Checking, Polishing,
 * Proven Code, each lit as it runs and completes, joined by connectors that fill as the run moves.
 * A stage the run does not do ("Repair again" does Proven Code alone) stays faint.
 */
export function StageDisplay({ stages, paused = false }: StageDisplayProps) {
  return (
    <ol className="grid grid-cols-5 gap-1" aria-label="Pipeline stages" data-testid="stage-display">
      {stages.map((stage, index) => {
        const Icon = stageIcons[stage.role];
        const complete = stage.status === 'complete';
        const running = stage.status === 'running';
        const next = stages[index + 1]?.status;
        const nextStarted = next !== undefined && next !== 'pending' && next !== 'skipped' && next !== 'not-run';
        return (
          <li
            key={stage.role}
            className="relative flex flex-col items-center gap-2 text-center"
            data-status={stage.status}
            title={stageDescriptions[stage.role]}
          >
            {index < stages.length - 1 ? (
              <span
                aria-hidden
                className="absolute top-6 left-[calc(50%+1.75rem)] h-0.5 w-[calc(100%-3.5rem)] overflow-hidden rounded-full bg-zinc-200 dark:bg-zinc-800"
              >
                <span
                  className={cn(
                    'block h-full bg-brand transition-[width] duration-500',
                    complete && nextStarted ? 'w-full' : complete ? 'w-1/2' : 'w-0',
                  )}
                />
              </span>
            ) : null}
            <span
              className={cn('relative grid h-12 w-12 place-items-center rounded-2xl border-2 transition-all duration-300', tileClass(stage.status))}
            >
              {running && !paused ? (
                <span aria-hidden className="absolute inset-0 rounded-2xl ring-4 ring-brand/25 motion-safe:animate-pulse" />
              ) : null}
              <Icon className="h-5 w-5" aria-hidden />
              {complete ? (
                <span className="absolute -right-1.5 -bottom-1.5 grid h-5 w-5 place-items-center rounded-full border-2 border-white bg-emerald-600 text-white dark:border-zinc-900">
                  <Check className="h-3 w-3" strokeWidth={3} aria-hidden />
                </span>
              ) : null}
              {stage.status === 'failed' ? (
                <span className="absolute -right-1.5 -bottom-1.5 grid h-5 w-5 place-items-center rounded-full border-2 border-white bg-red-600 text-white dark:border-zinc-900">
                  <X className="h-3 w-3" strokeWidth={3} aria-hidden />
                </span>
              ) : null}
            </span>
            <span
              className={cn(
                'text-xs font-medium sm:text-sm',
                stage.status === 'pending' && 'text-zinc-500 dark:text-zinc-400',
                (stage.status === 'skipped' || stage.status === 'not-run') && 'text-zinc-400 dark:text-zinc-500',
                stage.status !== 'pending' && stage.status !== 'skipped' && stage.status !== 'not-run' && 'text-zinc-900 dark:text-zinc-100',
              )}
            >
              {stage.role}
            </span>
            <span className="sr-only">{stageStatusLabel(stage, paused)}</span>
          </li>
        );
      })}
    </ol>
  );
}
