import { runValue, runValueText, type VerificationSummary } from '@wolfpack/core';
import { CircleCheck, CircleX, Copy, FolderOpen, GitBranch, ListChecks, LoaderCircle, Repeat2, ShieldQuestion, TriangleAlert, Wrench } from 'lucide-react';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { useCopyReplitCode } from '../hooks/use-copy-replit-code';
import { cn } from '../lib/cn';
import { formatElapsed } from '../lib/format-time';
import type { RunResult } from '../lib/pipeline-state';
import { BANNER_PROBLEM_LIMIT, bannerVerdict, type BannerVerdict } from '../lib/verification-view';
import { Button, buttonClass } from './button';

export interface SuccessBannerProps {
  result: RunResult;
  /** What the run was charged, in cents (its latest `cost` event); null when none was reported. */
  spentCents?: number | null | undefined;
  /** Stores the project as the continue-project id and hides the banner. */
  onContinue: () => void;
  onPublish: () => void;
  /** "Repair again": starts a run of Proven Code alone on the project (offered when the gate failed). */
  onRepair: () => void;
}

/** How the banner looks in each state; green and a tick belong to a passed verdict alone. */
type Tone = 'passed' | 'failed' | 'open';

const TONE: Record<Tone, { frame: string; badge: string; icon: typeof CircleCheck }> = {
  passed: {
    frame: 'border-emerald-200 from-emerald-50 via-white to-brand/10 dark:border-emerald-500/30 dark:from-emerald-500/10 dark:via-zinc-900 dark:to-brand/10',
    badge: 'bg-emerald-600 text-white shadow-md shadow-emerald-600/30',
    icon: CircleCheck,
  },
  failed: {
    frame: 'border-red-200 from-red-50 via-white to-white dark:border-red-500/30 dark:from-red-500/10 dark:via-zinc-900 dark:to-zinc-900',
    badge: 'bg-red-600 text-white',
    icon: CircleX,
  },
  open: {
    frame: 'border-amber-200 from-amber-50 via-white to-white dark:border-amber-500/30 dark:from-amber-500/10 dark:via-zinc-900 dark:to-zinc-900',
    badge: 'bg-amber-100 text-amber-800 dark:bg-amber-500/20 dark:text-amber-200',
    icon: ShieldQuestion,
  },
};

/**
 * Shown after a run completes (spec core §2 Home): copy code for Replit, push to GitHub, View
 * Files, Continue Building. What it says about the project is the Proven Code verdict, honestly
 *: only a passed verdict reads as success; a project that could not be run is "not
 * proven"; a failed gate says what failed and can be kept as is or repaired again (a new run of
 * Proven Code alone, charged like a stage). After a repair run the banner says it was one: it
 * generated no new project, and a gate that still fails is no news of success.
 */
export function SuccessBanner({ result, spentCents = null, onContinue, onPublish, onRepair }: SuccessBannerProps) {
  const navigate = useNavigate();
  const { copy, copying } = useCopyReplitCode();
  const value = runValue(result.executionSeconds, spentCents);
  const verdict = bannerVerdict(result.verification);
  // Kept per result, so the next run's failure is shown again even for the same project.
  const [keptResult, setKeptResult] = useState<RunResult | null>(null);
  const kept = verdict === 'failed' && keptResult === result;
  const tone: Tone = verdict === 'passed' ? 'passed' : verdict === 'failed' && !kept ? 'failed' : 'open';
  const { frame, badge, icon: Icon } = TONE[tone];
  const checksLink = `/projects/${encodeURIComponent(result.projectId)}?tab=proven-code`;
  const repaired = result.onlyStages !== null;

  return (
    <section
      className={cn('relative overflow-hidden rounded-xl border bg-gradient-to-br p-5 shadow-sm sm:p-6', frame)}
      aria-labelledby="success-banner-title"
      data-testid="success-banner"
      data-verdict={verdict}
      data-run={repaired ? 'repair' : 'build'}
    >
      <div className="flex items-start gap-4">
        <span className={cn('grid h-11 w-11 shrink-0 place-items-center rounded-full', badge)}>
          <Icon className="h-6 w-6" aria-hidden />
        </span>
        <div className="min-w-0 flex-1">
          <h2 id="success-banner-title" className="text-lg font-semibold" data-testid="success-title">
            {bannerTitle(verdict, kept, repaired)}
          </h2>
          <p className="text-sm text-zinc-600 dark:text-zinc-400" data-testid="success-summary">
            {repaired ? (
              <>
                Repair run: Proven Code alone on the project&apos;s {result.filesGenerated} {result.filesGenerated === 1 ? 'file' : 'files'}, in{' '}
                {formatElapsed(result.executionSeconds)}
              </>
            ) : (
              <>
                {result.filesGenerated} {result.filesGenerated === 1 ? 'file' : 'files'} generated in{' '}
                {formatElapsed(result.executionSeconds)} ·{' '}
                <span data-testid="success-cost-savings" data-outcome={value.outcome}>
                  {runValueText(value)}
                </span>
              </>
            )}
          </p>
          <VerdictLines verdict={verdict} verification={result.verification} kept={kept} />
        </div>
      </div>

      {verdict === 'failed' && !kept && result.verification ? (
        <FailedChecks verification={result.verification} checksLink={checksLink} onKeep={() => setKeptResult(result)} onRepair={onRepair} />
      ) : null}

      <div className="mt-5 grid grid-cols-2 gap-2 sm:flex sm:flex-wrap">
        <Button onClick={() => void copy(result.projectId)} disabled={copying} data-testid="copy-replit">
          {copying ? <LoaderCircle className="h-4 w-4 animate-spin" aria-hidden /> : <Copy className="h-4 w-4" aria-hidden />}
          Copy for Replit
        </Button>
        <Button variant="outline" onClick={onPublish}>
          <GitBranch className="h-4 w-4" aria-hidden />
          Push to GitHub
        </Button>
        <Button variant="outline" onClick={() => navigate(`/projects/${encodeURIComponent(result.projectId)}`)}>
          <FolderOpen className="h-4 w-4" aria-hidden />
          View Files
        </Button>
        <Button variant="outline" onClick={onContinue}>
          <Repeat2 className="h-4 w-4" aria-hidden />
          Continue Building
        </Button>
      </div>
    </section>
  );
}

const TITLE: Record<BannerVerdict, string> = {
  passed: 'Your project is ready',
  failed: 'Your project was built, but it did not pass Proven Code',
  unproven: 'Ready — not proven',
  unknown: 'Ready — not proven',
};

/** After a repair run: it fixed the project, or did not; not "built". */
const REPAIRED_TITLE: Record<BannerVerdict, string> = {
  passed: 'Repaired: your project passes Proven Code',
  failed: 'Repair again did not make it pass Proven Code',
  unproven: 'Repaired — not proven',
  unknown: 'Ready — not proven',
};

/**
 * The heading; "ready" alone only when the gate passed, and a kept failure still says it failed.
 * `repaired`: the run was "Repair again" (Proven Code alone), not a build.
 */
export function bannerTitle(verdict: BannerVerdict, kept: boolean, repaired = false): string {
  if (verdict === 'failed' && kept) return 'Kept as is: it did not pass Proven Code';
  return repaired ? REPAIRED_TITLE[verdict] : TITLE[verdict];
}

function VerdictLines({ verdict, verification, kept }: { verdict: BannerVerdict; verification: VerificationSummary | undefined; kept: boolean }) {
  if (verdict === 'unknown' || verification === undefined) {
    return (
      <p className="mt-1 text-sm text-amber-800 dark:text-amber-300" data-testid="verification-not-proven">
        Proven Code reported nothing for this run, so nothing was proven.
      </p>
    );
  }
  if (verdict === 'passed') {
    return (
      <>
        <p className="mt-1 text-sm text-emerald-700 dark:text-emerald-400" data-testid="verification-passed">
          {verification.proven ? `Proven Code: ${verification.proven}` : `Proven Code: all ${verification.checkedFiles} checked files passed.`}
        </p>
        {verification.notProven ? (
          <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400" data-testid="verification-not-proven">
            Not proven: {verification.notProven}
          </p>
        ) : null}
      </>
    );
  }
  if (verdict === 'unproven') {
    return (
      <>
        <p className="mt-1 text-sm text-amber-800 dark:text-amber-300" data-testid="verification-not-proven">
          Not proven: {verification.notProven || 'the checks that apply to this project could not run.'}
        </p>
        {verification.proven ? (
          <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400" data-testid="verification-proven">
            What was checked: {verification.proven}
          </p>
        ) : null}
      </>
    );
  }
  return kept ? (
    <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400" data-testid="verification-kept">
      The project is saved as it is. Its Proven Code tab lists what failed and can repair it again; Continue Building can fix it too.
    </p>
  ) : verification.notProven ? (
    <p className="mt-1 text-sm text-red-800 dark:text-red-300" data-testid="verification-not-proven">
      {verification.notProven}
    </p>
  ) : null;
}

interface FailedChecksProps {
  verification: VerificationSummary;
  checksLink: string;
  onKeep: () => void;
  onRepair: () => void;
}

/** What failed, first problems first, with the way to every check and the choice to repair or keep it. */
function FailedChecks({ verification, checksLink, onKeep, onRepair }: FailedChecksProps) {
  const shown = verification.problems.slice(0, BANNER_PROBLEM_LIMIT);
  const more = verification.problems.length - shown.length;
  return (
    <div
      className="mt-4 rounded-lg border border-red-200 bg-white/70 p-3 text-sm dark:border-red-500/30 dark:bg-zinc-900/60"
      role="alert"
      data-testid="verification-problems"
    >
      <p className="flex items-center gap-2 font-medium text-red-900 dark:text-red-200">
        <TriangleAlert className="h-4 w-4" aria-hidden />
        What failed
      </p>
      {shown.length > 0 ? (
        <ul className="mt-2 flex max-h-48 flex-col gap-1 overflow-y-auto">
          {shown.map((problem, index) => (
            <li key={`${problem.path}-${problem.check}-${index}`} className="break-words" data-testid="verification-problem">
              <code className="font-mono text-xs">{problem.path}</code>
              <span className="text-zinc-500">: </span>
              {problem.message}
              <span className="text-zinc-500"> ({problem.check})</span>
            </li>
          ))}
        </ul>
      ) : (
        <p className="mt-2 text-zinc-700 dark:text-zinc-300">A check failed without naming a file.</p>
      )}
      {more > 0 ? (
        <p className="mt-1 text-zinc-600 dark:text-zinc-400" data-testid="verification-more">
          and {more} more
        </p>
      ) : null}
      <div className="mt-3 flex flex-wrap gap-2">
        <Button size="sm" onClick={onRepair} data-testid="repair-again">
          <Wrench className="h-4 w-4" aria-hidden />
          Repair again
        </Button>
        <Link
          to={checksLink}
          className={buttonClass('outline', 'sm')}
          data-testid="verification-see-checks"
        >
          <ListChecks className="h-4 w-4" aria-hidden />
          See every check
        </Link>
        <Button size="sm" variant="secondary" onClick={onKeep} data-testid="keep-as-is">
          Keep as is
        </Button>
      </div>
      <p className="mt-2 text-xs text-zinc-600 dark:text-zinc-400" data-testid="repair-again-note">
        Repair again runs Proven Code&apos;s repair rounds once more on the current files, charged like a stage (refunded when they do not make it pass).
      </p>
    </div>
  );
}
