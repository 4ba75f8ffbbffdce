import type { VerificationRecord, VerificationVerdict } from '@wolfpack/core';
import { CircleCheck, CircleX, LoaderCircle, RefreshCw, ShieldQuestion, TriangleAlert, Wrench } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { describeRequestFailure, httpErrorParts } from '../api/client';
import { useRecheckProject } from '../api/verification';
import { cn } from '../lib/cn';
import { formatDateTime } from '../lib/format-time';
import { VERDICT_LABEL } from '../lib/verification-view';
import type { HomeLocationState } from '../routes/home';
import { Button } from './button';
import { Card } from './card';
import { NoticeCard } from './notice-card';
import { VerificationCheckList } from './verification-check-list';

export interface ProvenCodePanelProps {
  projectId: string;
  /** The project's current record; null or absent when it has none (built before records were kept). */
  verification: VerificationRecord | null | undefined;
}

/**
 * The Proven Code tab of the project page: the verdict of the current version, what was
 * and was not proven, every check with its files, command and output, and a Re-check that runs
 * them all again on the current files (no engine, nothing charged). When the gate failed, "Repair
 * again" starts a run of Proven Code alone (charged like a stage) and follows it on the build
 * screen, which has the run's progress, reconnection and result banner.
 */
export function ProvenCodePanel({ projectId, verification }: ProvenCodePanelProps) {
  const recheck = useRecheckProject(projectId);
  const navigate = useNavigate();
  const recheckButton = <RecheckButton pending={recheck.isPending} onClick={() => recheck.mutate()} />;
  const action =
    verification?.verdict === 'failed' ? (
      <div className="flex flex-wrap gap-2">
        <Button
          onClick={() => void navigate('/', { state: { repairProjectId: projectId } satisfies HomeLocationState })}
          disabled={recheck.isPending}
          data-testid="proven-repair-again"
        >
          <Wrench className="h-4 w-4" aria-hidden />
          Repair again
        </Button>
        {recheckButton}
      </div>
    ) : (
      recheckButton
    );
  const status = (
    <>
      {recheck.isPending ? <RecheckProgress /> : null}
      {recheck.isError ? <RecheckFailure error={recheck.error} /> : null}
    </>
  );

  if (!verification) {
    return (
      <div className="flex flex-col gap-3">
        <NoticeCard icon={ShieldQuestion} title="No verification record for this version yet" testId="proven-none" actions={action}>
          Re-check runs every Proven Code check on the current files. It calls no engine and costs nothing.
        </NoticeCard>
        {status}
      </div>
    );
  }

  return (
    <div className="flex flex-col gap-4" data-testid="proven-code" data-verdict={verification.verdict}>
      <Card className="flex flex-col gap-4 p-5">
        <div className="flex flex-wrap items-start justify-between gap-3">
          <VerdictHeading verdict={verification.verdict} version={verification.version} createdAt={verification.createdAt} />
          {action}
        </div>
        <dl className="flex flex-col gap-2 text-sm">
          <div>
            <dt className="font-medium">Proven</dt>
            <dd className="text-zinc-700 dark:text-zinc-300" data-testid="proven-sentence">
              {verification.proven}
            </dd>
          </div>
          {verification.notProven ? (
            <div>
              <dt className="font-medium">Not proven</dt>
              <dd className="text-zinc-700 dark:text-zinc-300" data-testid="not-proven-sentence">
                {verification.notProven}
              </dd>
            </div>
          ) : null}
        </dl>
        {verification.verdict === 'failed' ? (
          <p className="text-xs text-zinc-600 dark:text-zinc-400" data-testid="proven-repair-note">
            Repair again runs Proven Code&apos;s repair rounds once more on the current files, charged like a stage (refunded when they do
            not make it pass); the build screen shows it as it runs.
          </p>
        ) : null}
        <p className="text-xs text-zinc-500" data-testid="proven-coverage">
          {verification.coveredFiles.length} of {verification.coveredFiles.length + verification.uncoveredFiles.length} files covered by a check
          {verification.executed ? ' · ran in the sandbox' : ' · nothing was run'}
        </p>
        {status}
      </Card>
      <VerificationCheckList checks={verification.checks} />
    </div>
  );
}

const VERDICT_STYLE: Record<VerificationVerdict, { icon: typeof CircleCheck; badge: string }> = {
  // Green and a tick for passed only: "not proven" must never look like success.
  passed: { icon: CircleCheck, badge: 'bg-emerald-600 text-white' },
  failed: { icon: CircleX, badge: 'bg-red-600 text-white' },
  unproven: { icon: ShieldQuestion, badge: 'bg-amber-100 text-amber-900 dark:bg-amber-500/20 dark:text-amber-200' },
};

function VerdictHeading({ verdict, version, createdAt }: { verdict: VerificationVerdict; version: number; createdAt: string }) {
  const { icon: Icon, badge } = VERDICT_STYLE[verdict];
  return (
    <div className="flex items-center gap-3">
      <span className={cn('grid h-10 w-10 shrink-0 place-items-center rounded-full', badge)}>
        <Icon className="h-5 w-5" aria-hidden />
      </span>
      <div className="flex flex-col">
        <h2 className="text-lg font-semibold">
          Proven Code: <span data-testid="proven-verdict">{VERDICT_LABEL[verdict]}</span>
        </h2>
        <p className="text-xs text-zinc-500" data-testid="proven-checked-at">
          Version {version} · checked <time dateTime={createdAt}>{formatDateTime(createdAt)}</time>
        </p>
      </div>
    </div>
  );
}

/**
 * Why the re-check gave no record. Refused for the user's share of sandboxes (429: this project is
 * being checked, or they have as many running or waiting as an account may) it never started, and
 * the server's sentence says what to wait for; anything else stopped it on the way.
 */
function RecheckFailure({ error }: { error: Error }) {
  const refused = httpErrorParts(error)?.status === 429;
  return (
    <p
      className={cn(
        'flex items-start gap-2 rounded-lg border p-3 text-sm',
        refused
          ? 'border-amber-200 bg-amber-50 text-amber-900 dark:border-amber-500/30 dark:bg-amber-500/10 dark:text-amber-200'
          : 'border-red-200 bg-red-50 text-red-800 dark:border-red-500/30 dark:bg-red-500/10 dark:text-red-200',
      )}
      role="alert"
      data-testid="recheck-error"
    >
      <TriangleAlert className="mt-0.5 h-4 w-4 shrink-0" aria-hidden />
      {refused ? 'The re-check did not start: ' : 'The re-check did not finish: '}
      {describeRequestFailure(error, { failed: 'the server could not run it.', exception: 'check your connection and try again.' })}
    </p>
  );
}

function RecheckButton({ pending, onClick }: { pending: boolean; onClick: () => void }) {
  return (
    <Button variant="outline" onClick={onClick} disabled={pending} data-testid="recheck-button">
      {pending ? <LoaderCircle className="h-4 w-4 animate-spin" aria-hidden /> : <RefreshCw className="h-4 w-4" aria-hidden />}
      {pending ? 'Re-checking…' : 'Re-check'}
    </Button>
  );
}

/** A re-check runs the project in the sandbox and can take half a minute: show that it is going. */
function RecheckProgress() {
  const [seconds, setSeconds] = useState(0);
  useEffect(() => {
    const started = Date.now();
    const timer = setInterval(() => setSeconds(Math.floor((Date.now() - started) / 1000)), 1000);
    return () => clearInterval(timer);
  }, []);
  return (
    <p className="flex items-center gap-2 rounded-lg bg-zinc-100 p-3 text-sm text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300" role="status" data-testid="recheck-progress">
      <LoaderCircle className="h-4 w-4 shrink-0 animate-spin text-brand" aria-hidden />
      Running every check again on the current files; this can take up to 30 seconds ({seconds} s so far).
    </p>
  );
}
