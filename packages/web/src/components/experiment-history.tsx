import { formatExperimentDollars, formatExperimentStatus, formatSavingsPercent, type Experiment } from '@wolfpack/core';
import { cn } from '../lib/cn';
import { formatDateTime } from '../lib/format-time';

/** The user's experiments, newest first; choosing one opens it as the current experiment. */
export function ExperimentHistory({ experiments, currentId, onOpen }: { experiments: Experiment[]; currentId: string | null; onOpen: (id: string) => void }) {
  if (experiments.length === 0) {
    return (
      <p className="text-sm text-zinc-500 dark:text-zinc-400" data-testid="experiment-history-empty">
        No experiments yet. Start one above.
      </p>
    );
  }
  return (
    <ul className="flex flex-col divide-y divide-zinc-100 dark:divide-zinc-800" data-testid="experiment-history">
      {experiments.map((experiment) => (
        <li key={experiment.id}>
          <button
            type="button"
            onClick={() => onOpen(experiment.id)}
            aria-current={experiment.id === currentId ? 'true' : undefined}
            className={cn(
              'flex w-full cursor-pointer flex-wrap items-center justify-between gap-2 rounded-lg px-3 py-3 text-left hover:bg-zinc-50 dark:hover:bg-zinc-800/50',
              experiment.id === currentId && 'bg-brand/5',
            )}
            data-testid="experiment-history-item"
          >
            <span className="flex min-w-0 flex-col">
              <span className="truncate font-medium" title={experiment.projectName}>
                {experiment.projectName}
              </span>
              <span className="text-xs text-zinc-500 dark:text-zinc-400">
                {formatDateTime(experiment.createdAt)} · {experiment.promptType}
              </span>
            </span>
            <span className="flex items-center gap-3 text-sm">
              <span data-testid="history-status">{formatExperimentStatus(experiment.status)}</span>
              {experiment.wolfpackCostCents !== null ? <span className="tabular-nums">{formatExperimentDollars(experiment.wolfpackCostCents)}</span> : null}
              {experiment.savingsPercent !== null ? (
                <span className="font-semibold text-brand-strong tabular-nums" data-testid="history-savings">
                  {formatSavingsPercent(experiment.savingsPercent)} saved
                </span>
              ) : null}
            </span>
          </button>
        </li>
      ))}
    </ul>
  );
}
