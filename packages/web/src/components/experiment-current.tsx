import { formatExperimentDollars, formatExperimentStatus, formatSavingsPercent, modelATotalCents, type Experiment } from '@wolfpack/core';
import { Bot, Clock, Coins, Percent } from 'lucide-react';
import { runStillOpen } from '../api/experiments';
import { formatProcessingTime, formatTimer } from '../lib/experiment-form';
import { ExperimentCostsForm } from './experiment-costs-form';
import { ExperimentTimer } from './experiment-timer';
import { StatTile } from './stat-tile';

/**
 * The open experiment: the Wolfpack run's status, cost and time (as they arrive), the Replit-only
 * timer, the cost entry and, once computed, the savings.
 */
export function ExperimentCurrent({ experiment }: { experiment: Experiment }) {
  const modelA = modelATotalCents(experiment);
  const waiting = runStillOpen(experiment) ? 'Running…' : '—';
  return (
    <div className="flex flex-col gap-6" data-testid="experiment-current" data-experiment-id={experiment.id}>
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        {/* A name or prompt line without spaces (up to 200 characters) wraps instead of widening the card. */}
        <div className="min-w-0 wrap-anywhere">
          <h3 className="text-lg font-semibold" data-testid="experiment-name">
            {experiment.projectName}
          </h3>
          <p className="text-sm text-zinc-500 dark:text-zinc-400">
            {experiment.promptType} complexity · <span className="whitespace-pre-wrap">{firstLine(experiment.testPrompt)}</span>
          </p>
        </div>
        <span className="rounded-full bg-brand/10 px-3 py-1 text-sm font-medium text-brand-strong" data-testid="experiment-status">
          {formatExperimentStatus(experiment.status)}
        </span>
      </div>

      <section className="flex flex-col gap-3" aria-label="Wolfpack run">
        <h4 className="text-sm font-semibold tracking-wide text-zinc-500 uppercase dark:text-zinc-400">Wolfpack run</h4>
        <dl className="grid grid-cols-2 gap-3">
          <StatTile
            icon={<Coins className="h-4 w-4" aria-hidden />}
            label="Wolfpack cost"
            value={experiment.wolfpackCostCents === null ? waiting : formatExperimentDollars(experiment.wolfpackCostCents)}
            testId="wolfpack-cost"
          />
          <StatTile
            icon={<Bot className="h-4 w-4" aria-hidden />}
            label="Processing time"
            value={experiment.wolfpackProcessingTimeMs === null ? waiting : formatProcessingTime(experiment.wolfpackProcessingTimeMs)}
            testId="wolfpack-time"
          />
        </dl>
      </section>

      <section className="flex flex-col gap-3" aria-label="Replit-only timer">
        <h4 className="text-sm font-semibold tracking-wide text-zinc-500 uppercase dark:text-zinc-400">Replit-only timer</h4>
        <ExperimentTimer experiment={experiment} />
      </section>

      <section className="flex flex-col gap-3" aria-label="Costs">
        <h4 className="text-sm font-semibold tracking-wide text-zinc-500 uppercase dark:text-zinc-400">Costs</h4>
        <ExperimentCostsForm key={experiment.id} experiment={experiment} />
        {experiment.replitOnlyCostCents !== null ? (
          <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3" data-testid="experiment-results">
            <StatTile icon={<Coins className="h-4 w-4" aria-hidden />} label="Model A total" value={modelA === null ? '—' : formatExperimentDollars(modelA)} testId="model-a-total">
              {experiment.wolfpackReplitAssemblyTimeMs !== null ? <dd className="text-xs text-zinc-500">assembly in {formatTimer(experiment.wolfpackReplitAssemblyTimeMs)}</dd> : null}
            </StatTile>
            <StatTile icon={<Clock className="h-4 w-4" aria-hidden />} label="Replit-only cost" value={formatExperimentDollars(experiment.replitOnlyCostCents)} testId="replit-only-cost">
              {experiment.replitOnlyTotalTimeMs !== null ? <dd className="text-xs text-zinc-500">in {formatTimer(experiment.replitOnlyTotalTimeMs)}</dd> : null}
            </StatTile>
            <StatTile
              icon={<Percent className="h-4 w-4" aria-hidden />}
              label="Savings"
              value={experiment.savingsPercent === null ? '—' : formatSavingsPercent(experiment.savingsPercent)}
              testId="experiment-savings"
            />
          </dl>
        ) : null}
      </section>
    </div>
  );
}

function firstLine(text: string): string {
  const line = text.split('\n', 1)[0] ?? '';
  return line.length > 120 ? `${line.slice(0, 119)}…` : line;
}
