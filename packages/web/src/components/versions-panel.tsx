import type { VersionSummary } from '@wolfpack/core';
import { ExternalLink, History, LoaderCircle, RotateCcw } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useSearchParams } from 'react-router-dom';
import { describeRequestFailure, httpErrorParts } from '../api/client';
import { previewHref } from '../api/previews';
import { queryKeys } from '../api/queries';
import { useRestoreVersion, useVersions, versionKeys } from '../api/versions';
import { toast } from '../hooks/use-toast';
import { cn } from '../lib/cn';
import { formatDateTime } from '../lib/format-time';
import { changeCounts, changeCountsSentence, VERDICT_BADGE_CLASS, versionVerdictLabel } from '../lib/version-view';
import { Button, buttonClass } from './button';
import { Card } from './card';
import { ConfirmDialog } from './confirm-dialog';
import { NoticeCard, PageLoadError } from './notice-card';
import { Skeleton } from './skeleton';
import { ToastAction } from './toast';
import { VersionDiff } from './version-diff';

export interface VersionsPanelProps {
  projectId: string;
  /** The project's current version; null from a server that does not say. */
  currentVersion: number | null;
}

/**
 * The project page's Versions tab: every version newest first, what one changed (against the
 * version before it, or against the current files), a preview of it, and restoring it as a new
 * version.
 */
export function VersionsPanel({ projectId, currentVersion }: VersionsPanelProps) {
  const versions = useVersions(projectId);
  const client = useQueryClient();
  // The selected version and what it is compared with are in the address, so a reload or a shared link keeps them.
  const [params, setParams] = useSearchParams();
  const selected = Number(params.get('version'));
  const againstCurrent = params.get('compare') === 'current';
  const select = (changes: Record<string, string | null>) =>
    setParams(
      (previous) => {
        const next = new URLSearchParams(previous);
        for (const [key, value] of Object.entries(changes)) {
          if (value === null) next.delete(key);
          else next.set(key, value);
        }
        return next;
      },
      { replace: true },
    );
  const listedCurrent = versions.data?.current;

  // A run or another tab made a version the cached list does not have yet.
  useEffect(() => {
    if (currentVersion !== null && listedCurrent !== undefined && listedCurrent !== currentVersion) {
      void client.invalidateQueries({ queryKey: versionKeys.list(projectId), exact: true });
    }
  }, [client, projectId, currentVersion, listedCurrent]);

  if (versions.isPending) return <ListSkeleton />;
  if (versions.isError) {
    return <PageLoadError title="The versions could not be loaded" error={versions.error} onRetry={() => void versions.refetch()} testId="versions-error" />;
  }
  const { current, versions: list } = versions.data;
  if (list.length === 0) {
    return (
      <NoticeCard icon={History} title="No versions yet" testId="versions-empty">
        Every build, continue, repair, edit or restore of this project will be listed here.
      </NoticeCard>
    );
  }
  const shown = list.find((version) => version.number === selected) ?? list[0]!;

  return (
    <div className="grid grid-cols-1 gap-4 lg:grid-cols-[20rem_minmax(0,1fr)]" data-testid="versions-panel" data-current={current}>
      <Card className="h-fit overflow-hidden">
        <ol className="flex max-h-[40rem] flex-col divide-y divide-zinc-100 overflow-y-auto dark:divide-zinc-800" aria-label="Versions, newest first">
          {list.map((version) => (
            <li key={version.number}>
              <VersionRow version={version} selected={version.number === shown.number} onSelect={() => select({ version: String(version.number) })} />
            </li>
          ))}
        </ol>
      </Card>
      <VersionDetail
        projectId={projectId}
        version={shown}
        current={current}
        againstCurrent={againstCurrent}
        onCompare={(withCurrent) => select({ compare: withCurrent ? 'current' : null })}
        onRestored={(n) => select({ version: String(n), compare: null })}
      />
    </div>
  );
}

function VersionRow({ version, selected, onSelect }: { version: VersionSummary; selected: boolean; onSelect: () => void }) {
  return (
    <button
      type="button"
      onClick={onSelect}
      aria-current={selected ? 'true' : undefined}
      className={cn(
        'flex w-full cursor-pointer flex-col gap-1 px-4 py-3 text-left text-sm hover:bg-zinc-50 dark:hover:bg-zinc-800/60',
        selected && 'bg-brand/10 hover:bg-brand/10 dark:bg-brand/15 dark:hover:bg-brand/15',
      )}
      data-testid="version-row"
      data-version={version.number}
      data-current={version.current}
    >
      <span className="flex items-center gap-2">
        <span className="font-semibold" data-testid="version-number">
          Version {version.number}
        </span>
        {version.current ? (
          <span className="rounded-full bg-brand px-2 py-0.5 text-xs font-medium text-white" data-testid="version-current">
            Current
          </span>
        ) : null}
        <VerdictBadge verdict={version.verdict} />
      </span>
      <span className="truncate text-zinc-700 dark:text-zinc-300" title={version.label} data-testid="version-label">
        {version.label}
      </span>
      <span className="flex items-center justify-between gap-2 text-xs text-zinc-500 dark:text-zinc-400">
        <time dateTime={version.createdAt}>{formatDateTime(version.createdAt)}</time>
        <span className="font-mono tabular-nums" title={changeCountsSentence(version)} data-testid="version-counts">
          {changeCounts(version)}
        </span>
      </span>
    </button>
  );
}

function VerdictBadge({ verdict }: { verdict: VersionSummary['verdict'] }) {
  return (
    <span className={cn('rounded-full px-2 py-0.5 text-xs font-medium', VERDICT_BADGE_CLASS[verdict ?? 'none'])} data-testid="version-verdict" data-verdict={verdict ?? 'none'}>
      {versionVerdictLabel(verdict)}
    </span>
  );
}

/** The selected version: its actions and what it changed. */
interface VersionDetailProps {
  projectId: string;
  version: VersionSummary;
  current: number;
  /** Compare with the current version rather than the one before (ignored for the current version). */
  againstCurrent: boolean;
  onCompare: (withCurrent: boolean) => void;
  /** The restore made version `n`, which is then shown: what the restore changed. */
  onRestored: (n: number) => void;
}

function VersionDetail({ projectId, version, current, againstCurrent, onCompare, onRestored }: VersionDetailProps) {
  const [confirming, setConfirming] = useState(false);
  const restore = useRestoreVersion(projectId);
  const client = useQueryClient();
  const compareWithCurrent = againstCurrent && !version.current;

  async function confirmRestore() {
    try {
      const reply = await restore.mutateAsync({ n: version.number, expectedVersion: current });
      setConfirming(false);
      onRestored(reply.version.number);
      toast({ title: 'Version restored', description: `Restored version ${version.number} as version ${reply.version.number}` });
    } catch (error) {
      setConfirming(false);
      const conflict = httpErrorParts(error)?.status === 409;
      toast({
        title: 'Restore failed',
        description: describeRequestFailure(error, { failed: 'The version could not be restored. Try again.', exception: 'Check your connection and try again.' }),
        variant: 'destructive',
        // The project moved on: reading it again shows the version that got in first.
        ...(conflict
          ? { action: <ToastAction altText="Reload the project and its versions" onClick={() => void client.invalidateQueries({ queryKey: queryKeys.project(projectId) })}>Reload</ToastAction> }
          : {}),
      });
    }
  }

  return (
    <Card className="flex min-w-0 flex-col gap-4 p-5" data-testid="version-detail" data-version={version.number}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="flex min-w-0 flex-col gap-0.5">
          <h2 className="text-lg font-semibold">Version {version.number}</h2>
          <p className="text-sm break-words text-zinc-600 dark:text-zinc-400">
            {version.label} · {version.fileCount} {version.fileCount === 1 ? 'file' : 'files'} · <time dateTime={version.createdAt}>{formatDateTime(version.createdAt)}</time>
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          <a className={buttonClass('outline', 'sm')} href={previewHref(projectId, '/', version.number)} target="_blank" rel="noopener noreferrer" data-testid="version-preview">
            <ExternalLink className="h-4 w-4" aria-hidden />
            Preview this version
          </a>
          {version.current ? null : (
            <Button size="sm" onClick={() => setConfirming(true)} disabled={restore.isPending} data-testid="version-restore">
              {restore.isPending ? <LoaderCircle className="h-4 w-4 animate-spin" aria-hidden /> : <RotateCcw className="h-4 w-4" aria-hidden />}
              Restore
            </Button>
          )}
        </div>
      </div>
      {version.current ? null : (
        <div className="inline-flex w-fit rounded-lg border border-zinc-200 p-0.5 text-sm dark:border-zinc-700" role="group" aria-label="Compare with">
          <CompareButton active={!compareWithCurrent} onClick={() => onCompare(false)} testId="compare-parent">
            {version.number === 1 ? 'What it started with' : `Against version ${version.number - 1}`}
          </CompareButton>
          <CompareButton active={compareWithCurrent} onClick={() => onCompare(true)} testId="compare-current">
            Against the current version
          </CompareButton>
        </div>
      )}
      {/* Against the current version, the change shown is what a restore would undo: from the current files to this version's. */}
      <VersionDiff projectId={projectId} version={version.number} {...(compareWithCurrent ? { against: current } : {})} />
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={`Restore version ${version.number}?`}
        description={`Its files become version ${current + 1}, the project's current files. Nothing is lost: version ${current} stays listed and can be restored too.`}
        confirmLabel="Restore"
        onConfirm={() => void confirmRestore()}
        pending={restore.isPending}
        testId="restore-dialog"
      />
    </Card>
  );
}

function CompareButton({ active, onClick, testId, children }: { active: boolean; onClick: () => void; testId: string; children: string }) {
  return (
    <button
      type="button"
      onClick={onClick}
      aria-pressed={active}
      className={cn(
        'cursor-pointer rounded-md px-3 py-1',
        active ? 'bg-zinc-900 text-white dark:bg-zinc-100 dark:text-zinc-900' : 'text-zinc-600 hover:text-zinc-900 dark:text-zinc-400 dark:hover:text-white',
      )}
      data-testid={testId}
    >
      {children}
    </button>
  );
}

function ListSkeleton() {
  return (
    <div className="grid grid-cols-1 gap-4 lg:grid-cols-[20rem_minmax(0,1fr)]" role="status" aria-label="Loading versions">
      <Card className="flex flex-col gap-4 p-4">
        {[0, 1, 2].map((row) => (
          <div key={row} className="flex flex-col gap-2">
            <Skeleton shade="strong" className="h-4 w-24 rounded" />
            <Skeleton shade="faint" className="h-3 w-3/4 rounded" />
          </div>
        ))}
      </Card>
      <Card className="h-72 animate-pulse" />
    </div>
  );
}
