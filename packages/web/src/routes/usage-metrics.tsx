import { formatDollars, formatHours, formatSeconds, type SavingsFigures, type SavingsReply } from '@wolfpack/core';
import { CalendarDays, ChartLine, Clock, Gauge, Infinity as InfinityIcon, PiggyBank, ShieldCheck, Sparkles } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { useMe, useSavings } from '../api/queries';
import { Card } from '../components/card';
import { SavingsChart } from '../components/savings-chart';
import { PageHeader, SectionCard } from '../components/section-card';
import { LoadingBlock, SignInPrompt } from '../components/sign-in-prompt';

/** The comparison block (companion §2 Savings Dashboard, §1 claims). */
const COMPARISON = [
  { icon: Gauge, value: '2.5x', label: 'faster' },
  { icon: PiggyBank, value: '40%', label: 'lower cost' },
  { icon: ShieldCheck, value: 'Superior', label: 'quality' },
] as const;

/**
 * Savings Dashboard (/usage-metrics): all-time and this month's time saved, cost saved and runs,
 * per-run averages, the comparison, and a chart of the last 6 months, from GET /api/savings.
 */
export function UsageMetricsPage() {
  const { user, isPending: mePending } = useMe();
  const savings = useSavings(user !== null);

  return (
    <div className="mx-auto flex max-w-5xl flex-col gap-6">
      <PageHeader
        icon={<ChartLine className="h-7 w-7" aria-hidden />}
        title="Savings Dashboard"
        description="Time and money the pack saved you compared with building by hand."
      />
      {!mePending && user === null ? (
        <SignInPrompt what="your savings" />
      ) : savings.data ? (
        <Dashboard data={savings.data} />
      ) : savings.isError ? (
        <p className="text-sm text-red-600 dark:text-red-400">Your savings could not be loaded. Reload the page to try again.</p>
      ) : (
        <LoadingBlock rows={3} label="Loading your savings" />
      )}
    </div>
  );
}

function Dashboard({ data }: { data: SavingsReply }) {
  return (
    <>
      <div className="grid grid-cols-1 gap-6 md:grid-cols-2">
        <Period icon={<InfinityIcon className="h-5 w-5" aria-hidden />} title="All time" figures={data.allTime} testId="savings-all-time" />
        <Period icon={<CalendarDays className="h-5 w-5" aria-hidden />} title="This month" figures={data.thisMonth} testId="savings-this-month" />
      </div>

      <SectionCard icon={<Clock className="h-5 w-5" aria-hidden />} title="Per run" description="Averages over all your runs." testId="savings-per-run">
        <dl className="grid grid-cols-1 gap-3 sm:grid-cols-3">
          <Tile label="Time saved per run" value={formatHours(data.perRun.timeSavedHours)} testId="per-run-time" />
          <Tile label="Cost saved per run" value={formatDollars(data.perRun.costSavedDollars)} testId="per-run-cost" />
          <Tile label="Average engine time" value={formatSeconds(data.perRun.seconds)} testId="per-run-seconds" />
        </dl>
      </SectionCard>

      <SectionCard
        icon={<ChartLine className="h-5 w-5" aria-hidden />}
        title="Last 6 months"
        description="Cost saved (bars) and time saved (line) per month."
        testId="savings-months"
      >
        <SavingsChart months={data.months} />
      </SectionCard>

      <Card className="overflow-hidden" data-testid="savings-comparison">
        <div className="bg-gradient-to-r from-brand/15 via-brand/5 to-transparent p-6">
          <p className="flex items-center gap-2 text-sm font-semibold">
            <Sparkles className="h-4 w-4 text-brand" aria-hidden />
            Wolfpack compared with building by hand
          </p>
          <ul className="mt-4 grid grid-cols-1 gap-3 sm:grid-cols-3">
            {COMPARISON.map(({ icon: Icon, value, label }) => (
              <li key={label} className="flex items-center gap-3 rounded-lg bg-white/70 p-3 dark:bg-zinc-900/70">
                <span className="grid h-9 w-9 place-items-center rounded-lg bg-brand/15 text-brand-strong">
                  <Icon className="h-4.5 w-4.5" aria-hidden />
                </span>
                <p className="font-semibold">
                  {value} <span className="font-normal text-zinc-600 dark:text-zinc-400">{label}</span>
                </p>
              </li>
            ))}
          </ul>
          <p className="mt-4 text-sm text-zinc-700 dark:text-zinc-300" data-testid="savings-claims">
            We also claim <span className="font-semibold">80% fewer iterations</span>, and a typical project costing{' '}
            <span className="font-semibold">$2–3</span> instead of <span className="font-semibold">$15–20</span>. These are claims about
            the pack in general, not measurements of your runs: yours are the figures above.
          </p>
          <p className="mt-4 text-xs text-zinc-500 dark:text-zinc-400">
            How we count: time saved is a run&apos;s engine seconds / 60 x 2.5 hours; cost saved is its seconds x $0.05.{' '}
            <Link to="/how-it-works" className="font-medium text-brand-strong hover:underline">
              Learn more
            </Link>
          </p>
        </div>
      </Card>
    </>
  );
}

function Period({ icon, title, figures, testId }: { icon: ReactNode; title: string; figures: SavingsFigures; testId: string }) {
  return (
    <SectionCard icon={icon} title={title} testId={testId}>
      <dl className="grid grid-cols-3 gap-3">
        <Tile label="Time saved" value={formatHours(figures.timeSavedHours)} testId={`${testId}-time`} />
        <Tile label="Cost saved" value={formatDollars(figures.costSavedDollars)} testId={`${testId}-cost`} accent />
        <Tile label="Runs" value={String(figures.runs)} testId={`${testId}-runs`} />
      </dl>
    </SectionCard>
  );
}

function Tile({ label, value, testId, accent = false }: { label: string; value: string; testId: string; accent?: boolean }) {
  return (
    <div className="rounded-lg bg-zinc-50 px-3 py-2.5 dark:bg-zinc-800/50">
      <dt className="text-xs text-zinc-500 dark:text-zinc-400">{label}</dt>
      <dd className={`text-xl font-semibold tabular-nums ${accent ? 'text-emerald-700 dark:text-emerald-400' : ''}`} data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}
