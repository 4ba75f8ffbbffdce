import type { FileDiff } from '@wolfpack/core';
import { ChevronRight, LoaderCircle, TriangleAlert } from 'lucide-react';
import { Component, lazy, Suspense, useState, type ReactNode } from 'react';
import { describeRequestFailure } from '../api/client';
import { useVersionDiff } from '../api/versions';
import { cn } from '../lib/cn';
import { changeCountsSentence, diffHeading, FILE_STATUS_CLASS, FILE_STATUS_LABEL, FILES_OPEN_AT_FIRST } from '../lib/version-view';
import { Button } from './button';
import { Skeleton } from './skeleton';

// CodeMirror loads with the first diff shown, never with the page.
const FileDiffView = lazy(() => import('./file-diff-view'));

export interface VersionDiffProps {
  projectId: string;
  version: number;
  /** The version to compare with; undefined: the one before `version`. */
  against?: number;
}

/** What changed in a version, file by file: its status and path, and the change itself in CodeMirror. */
export function VersionDiff({ projectId, version, against }: VersionDiffProps) {
  const diff = useVersionDiff(projectId, version, against);

  if (diff.isPending) {
    return (
      <div className="flex flex-col gap-2" role="status" aria-label="Loading the changes">
        <Skeleton shade="strong" className="h-4 w-1/3 rounded" />
        <Skeleton className="h-24 w-full rounded-lg" />
        <Skeleton className="h-24 w-full rounded-lg" />
      </div>
    );
  }
  if (diff.isError) {
    return (
      <div className="flex flex-wrap items-center gap-3 rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-800 dark:border-red-500/30 dark:bg-red-500/10 dark:text-red-200" role="alert" data-testid="version-diff-error">
        <TriangleAlert className="h-4 w-4 shrink-0" aria-hidden />
        <span className="min-w-0 flex-1">
          {describeRequestFailure(diff.error, { failed: 'The changes could not be read.', exception: 'Check your connection and try again.' })}
        </span>
        <Button variant="outline" size="sm" onClick={() => void diff.refetch()}>
          Try again
        </Button>
      </div>
    );
  }

  const { from, to, files } = diff.data;
  return (
    <section className="flex flex-col gap-3" aria-label="Changes" data-testid="version-diff" data-from={from} data-to={to}>
      <p className="text-sm text-zinc-600 dark:text-zinc-400">
        <span className="font-medium text-zinc-900 dark:text-zinc-100" data-testid="version-diff-heading">
          {diffHeading(from, to)}
        </span>
        {' · '}
        <span data-testid="version-diff-counts">{changeCountsSentence(diff.data)}</span>
      </p>
      {files.length === 0 ? (
        <p className="rounded-lg border border-dashed border-zinc-300 p-4 text-sm text-zinc-600 dark:border-zinc-700 dark:text-zinc-400" data-testid="version-diff-empty">
          No file differs: both versions have the same files.
        </p>
      ) : (
        <ul className="flex flex-col gap-2">
          {files.map((file, index) => (
            <FileChange key={file.path} file={file} openAtFirst={index < FILES_OPEN_AT_FIRST} />
          ))}
        </ul>
      )}
    </section>
  );
}

/** One file: a header that folds it, and its change once open (a folded file lays out no editor). */
function FileChange({ file, openAtFirst }: { file: FileDiff; openAtFirst: boolean }) {
  const [open, setOpen] = useState(openAtFirst);
  return (
    <li className="overflow-hidden rounded-lg border border-zinc-200 dark:border-zinc-800" data-testid="version-diff-file" data-status={file.status} data-path={file.path}>
      <button
        type="button"
        onClick={() => setOpen((current) => !current)}
        aria-expanded={open}
        className="flex w-full cursor-pointer items-center gap-2 bg-zinc-50 px-3 py-2 text-left text-sm hover:bg-zinc-100 dark:bg-zinc-900 dark:hover:bg-zinc-800"
      >
        <ChevronRight className={cn('h-4 w-4 shrink-0 transition-transform', open && 'rotate-90')} aria-hidden />
        <span className={cn('rounded px-1.5 py-0.5 text-xs font-medium', FILE_STATUS_CLASS[file.status])} data-testid="version-diff-status">
          {FILE_STATUS_LABEL[file.status]}
        </span>
        <span className="min-w-0 truncate font-mono text-xs" data-testid="version-diff-path">
          {file.path}
        </span>
      </button>
      {open ? (
        <ViewerBoundary patch={file.patch}>
          <Suspense
            fallback={
              <div className="flex items-center gap-2 p-3 text-xs text-zinc-500" role="status">
                <LoaderCircle className="h-4 w-4 animate-spin" aria-hidden />
                Loading the viewer…
              </div>
            }
          >
            <FileDiffView path={file.path} before={file.before} after={file.after} />
          </Suspense>
        </ViewerBoundary>
      ) : null}
    </li>
  );
}

/**
 * When the viewer's code cannot be downloaded (offline, or a deploy replaced its chunk), the
 * server's unified patch stands in as plain text: the change can still be read.
 */
class ViewerBoundary extends Component<{ patch: string; children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    return (
      <div className="flex flex-col gap-2 p-3" data-testid="version-diff-patch">
        <p className="text-xs text-amber-700 dark:text-amber-400">The diff viewer could not be loaded; the change is shown as a patch. Reload the page to try again.</p>
        <pre className="max-h-[36rem] overflow-auto rounded bg-zinc-50 p-3 font-mono text-xs whitespace-pre dark:bg-zinc-950">{this.props.patch}</pre>
      </div>
    );
  }
}
