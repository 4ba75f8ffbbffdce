import * as Dialog from '@radix-ui/react-dialog';
import type { Conversation, ProjectSummary } from '@wolfpack/core';
import { ChevronRight, FileCode2, History, LoaderCircle, PlayCircle, X } from 'lucide-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { describeRequestFailure, httpErrorParts } from '../api/client';
import { projectListKeys, useConversations, useRecentProjects } from '../api/library';
import { queryKeys } from '../api/queries';
import { toast } from '../hooks/use-toast';
import { cn } from '../lib/cn';
import { projectTitle } from '../lib/project-list';
import { formatRunDate, runTitle, stageSummary } from '../lib/run-history';
import { Button } from './button';

/** How many entries each list shows; All Projects has the rest. */
const PROJECTS_SHOWN = 8;
const RUNS_SHOWN = 20;

/**
 * The History button and its slide-in panel (spec core §2 History panel): Projects and Recent
 * Runs, both read again whenever the panel opens; Escape closes it.
 */
export function HistoryPanel() {
  const client = useQueryClient();
  const [open, setOpen] = useState(false);
  // Read here, not in the panel's content: Radix may mount the content more than once as it opens.
  // The newest few and the total, not every project: a user may have thousands.
  const projects = useRecentProjects(PROJECTS_SHOWN, { enabled: open });
  const runs = useConversations({ enabled: open });
  const onOpenChange = (next: boolean) => {
    if (next) {
      // Marked stale, both lists are read again as the panel shows (data never goes stale on its own).
      for (const queryKey of [projectListKeys.recent(PROJECTS_SHOWN), queryKeys.conversations]) {
        void client.invalidateQueries({ queryKey, exact: true, refetchType: 'none' });
      }
    }
    setOpen(next);
  };
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Trigger asChild>
        <Button variant="outline" data-testid="history-button">
          <History className="h-4 w-4" aria-hidden />
          History
        </Button>
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-zinc-950/30 backdrop-blur-[1px] transition-opacity duration-200 starting:opacity-0" />
        <Dialog.Content
          className="fixed inset-y-0 right-0 z-50 flex w-full max-w-md flex-col border-l border-zinc-200 bg-white shadow-2xl transition-transform duration-300 ease-out outline-none starting:translate-x-full motion-reduce:transition-none dark:border-zinc-800 dark:bg-zinc-900"
          data-testid="history-panel"
        >
          <div className="flex items-center justify-between border-b border-zinc-200 px-5 py-4 dark:border-zinc-800">
            <div>
              <Dialog.Title className="flex items-center gap-2 text-lg font-semibold">
                <History className="h-5 w-5 text-brand" aria-hidden />
                History
              </Dialog.Title>
              <Dialog.Description className="text-sm text-zinc-500 dark:text-zinc-400">Your projects and recent runs.</Dialog.Description>
            </div>
            <Dialog.Close
              aria-label="Close history"
              className="cursor-pointer rounded-md p-1.5 text-zinc-500 hover:bg-zinc-100 hover:text-zinc-900 dark:hover:bg-zinc-800 dark:hover:text-white"
            >
              <X className="h-5 w-5" aria-hidden />
            </Dialog.Close>
          </div>
          <HistoryLists projects={projects} runs={runs} onLeave={() => setOpen(false)} />
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

interface HistoryListsProps {
  projects: ReturnType<typeof useRecentProjects>;
  runs: ReturnType<typeof useConversations>;
  onLeave: () => void;
}

function HistoryLists({ projects, runs, onLeave }: HistoryListsProps) {
  const navigate = useNavigate();
  // The reads made as the panel opened: older cached lists are not shown meanwhile.
  if (projects.isFetching || runs.isFetching || projects.isPending || runs.isPending) {
    return (
      <p className="flex flex-1 items-center justify-center gap-2 text-sm text-zinc-500" role="status" data-testid="history-loading">
        <LoaderCircle className="h-4 w-4 animate-spin" aria-hidden />
        Loading history...
      </p>
    );
  }
  const error = projects.error ?? runs.error;
  if (httpErrorParts(error)?.status === 401) {
    return (
      <p className="m-5 text-sm text-zinc-600 dark:text-zinc-400" data-testid="history-sign-in">
        <Link to="/login" onClick={onLeave} className="font-medium text-brand-strong hover:underline">
          Sign in
        </Link>{' '}
        to see your projects and runs.
      </p>
    );
  }
  if (error) {
    return (
      <p className="m-5 rounded-lg bg-red-50 p-3 text-sm text-red-700 dark:bg-red-500/10 dark:text-red-300" role="alert">
        {describeRequestFailure(error, { failed: 'History could not be loaded.', exception: 'Check your connection.' })}
      </p>
    );
  }
  const projectList = projects.data?.projects ?? [];
  const projectTotal = projects.data?.total ?? 0;
  const runList = runs.data ?? [];
  if (projectTotal === 0 && runList.length === 0) {
    return (
      <div className="flex flex-1 flex-col items-center justify-center gap-2 p-8 text-center" data-testid="history-empty">
        <span className="grid h-12 w-12 place-items-center rounded-2xl bg-zinc-100 text-zinc-400 dark:bg-zinc-800">
          <History className="h-6 w-6" aria-hidden />
        </span>
        <p className="font-medium">No history yet</p>
        <p className="text-sm text-zinc-500 dark:text-zinc-400">Start your first project to see it here</p>
      </div>
    );
  }

  const openRun = (run: Conversation) => {
    if (!run.projectId) {
      toast({ title: 'No Project', description: 'This conversation did not generate any files' });
      return;
    }
    onLeave();
    void navigate(`/projects/${encodeURIComponent(run.projectId)}`);
  };

  return (
    <div className="flex-1 overflow-y-auto px-3 py-4">
      <Group title="Projects" count={projectTotal} testId="history-projects">
        {projectList.map((project) => (
          <ProjectEntry key={project.id} project={project} onOpen={onLeave} />
        ))}
        {projectTotal > projectList.length ? (
          <Link to="/projects" onClick={onLeave} className="block px-3 py-2 text-sm font-medium text-brand-strong hover:underline">
            View all {projectTotal} projects
          </Link>
        ) : null}
      </Group>
      <Group title="Recent Runs" count={runList.length} testId="history-runs">
        {runList.slice(0, RUNS_SHOWN).map((run) => (
          <RunEntry key={run.id} run={run} onChoose={() => openRun(run)} />
        ))}
      </Group>
    </div>
  );
}

function Group({ title, count, testId, children }: { title: string; count: number; testId: string; children: ReactNode }) {
  return (
    <section className="mb-5" data-testid={testId}>
      <h3 className="mb-1.5 flex items-center justify-between px-3 text-xs font-semibold tracking-wide text-zinc-500 uppercase dark:text-zinc-400">
        {title}
        <span className="rounded-full bg-zinc-100 px-1.5 font-normal tabular-nums dark:bg-zinc-800">{count}</span>
      </h3>
      {count === 0 ? <p className="px-3 py-2 text-sm text-zinc-500">None yet.</p> : <ul className="flex flex-col gap-0.5">{children}</ul>}
    </section>
  );
}

const entryClass =
  'group flex w-full cursor-pointer items-start gap-3 rounded-lg px-3 py-2.5 text-left transition-colors hover:bg-zinc-100 dark:hover:bg-zinc-800/70';

function ProjectEntry({ project, onOpen }: { project: ProjectSummary; onOpen: () => void }) {
  return (
    <li>
      <Link to={`/projects/${encodeURIComponent(project.id)}`} onClick={onOpen} className={entryClass} data-testid="history-project">
        <FileCode2 className="mt-0.5 h-4 w-4 shrink-0 text-brand" aria-hidden />
        <span className="min-w-0 flex-1">
          <span className="block truncate text-sm font-medium">{projectTitle(project.idea)}</span>
          <span className="block text-xs text-zinc-500 dark:text-zinc-400">
            {project.fileCount} {project.fileCount === 1 ? 'file' : 'files'} · {formatRunDate(project.updatedAt)}
          </span>
        </span>
        <ChevronRight className="mt-0.5 h-4 w-4 shrink-0 text-zinc-300 group-hover:text-zinc-500" aria-hidden />
      </Link>
    </li>
  );
}

function RunEntry({ run, onChoose }: { run: Conversation; onChoose: () => void }) {
  const stages = stageSummary(run.stages);
  return (
    <li>
      <button type="button" onClick={onChoose} className={entryClass} data-testid="history-run" data-project-id={run.projectId ?? ''}>
        <PlayCircle className="mt-0.5 h-4 w-4 shrink-0 text-zinc-400" aria-hidden />
        <span className="min-w-0 flex-1">
          <span className="line-clamp-2 text-sm font-medium" data-testid="history-run-idea">
            {runTitle(run.idea)}
          </span>
          <span className="mt-1 flex items-center gap-2 text-xs text-zinc-500 dark:text-zinc-400">
            <time dateTime={run.createdAt} data-testid="history-run-date">
              {formatRunDate(run.createdAt)}
            </time>
            <span
              className={cn(
                'rounded-full px-1.5 py-0.5 font-medium tabular-nums',
                stages.allOk
                  ? 'bg-emerald-100 text-emerald-700 dark:bg-emerald-500/15 dark:text-emerald-400'
                  : 'bg-amber-100 text-amber-800 dark:bg-amber-500/15 dark:text-amber-300',
              )}
              data-testid="history-run-stages"
              data-ok={stages.allOk ? 'true' : 'false'}
              title={stages.failure ?? undefined}
            >
              {stages.label}
            </span>
            {stages.failure ? (
              <span className="truncate text-red-600 dark:text-red-400" data-testid="history-run-failure">
                {stages.failure}
              </span>
            ) : null}
            {run.projectId ? null : <span className="italic">no files</span>}
          </span>
        </span>
      </button>
    </li>
  );
}
