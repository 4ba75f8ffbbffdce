import type { ProjectSummary } from '@wolfpack/core';
import { ArrowDownUp, FolderKanban, LogIn, Plus, SearchX, TriangleAlert } from 'lucide-react';
import { useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { describeRequestFailure, httpErrorParts, serverErrorText } from '../api/client';
import { useAllProjects, useDeleteProject, useFolderProjects, useFolders } from '../api/library';
import { useMe } from '../api/queries';
import { Button, buttonClass } from '../components/button';
import { Card } from '../components/card';
import { ConfirmDialog } from '../components/confirm-dialog';
import { FolderSidebar, ROOT_LABEL } from '../components/folder-sidebar';
import { PageSpinner } from '../components/page-spinner';
import { ProjectCard } from '../components/project-card';
import { useFolderActions } from '../hooks/use-folder-actions';
import { toast } from '../hooks/use-toast';
import { buildFolderTree, projectCounts, visibleNodes } from '../lib/folder-tree';
import {
  PROJECT_SORT_LABELS,
  PROJECT_SORTS,
  isProjectSort,
  projectCountLine,
  projectSortStore,
  projectTitle,
  sortProjects,
} from '../lib/project-list';

/** All Projects (/projects, spec core §2): the folder sidebar beside the selected folder's projects. */
export function ProjectsPage() {
  const { user, isPending } = useMe();
  return (
    <div className="flex flex-col gap-6">
      <header className="flex flex-wrap items-end justify-between gap-4">
        <div className="flex flex-col gap-1">
          <h1 className="flex items-center gap-2.5 text-3xl font-semibold tracking-tight">
            <FolderKanban className="h-7 w-7 text-brand" aria-hidden />
            All Projects
          </h1>
          <p className="text-zinc-600 dark:text-zinc-400">
            Everything the pack built for you. Organise projects in folders: drag a card onto a folder, or use its menu.
          </p>
        </div>
        <Link to="/" className={buttonClass('primary', 'md')}>
          <Plus className="h-4 w-4" aria-hidden />
          New project
        </Link>
      </header>
      {isPending ? <PageSpinner /> : user ? <Library /> : <SignInNotice />}
    </div>
  );
}

function Library() {
  const [params, setParams] = useSearchParams();
  const folders = useFolders();
  const all = useAllProjects();
  const requested = params.get('folder');
  // An unknown folder (deleted meanwhile, a stale link) shows the root.
  const folderList = folders.data ?? [];
  const selectedId = requested && folderList.some((folder) => folder.id === requested) ? requested : null;
  const selected = folderList.find((folder) => folder.id === selectedId);
  const list = useFolderProjects(selectedId, folders.isSuccess || requested === null);
  const sort = projectSortStore.use();
  const actions = useFolderActions();
  const remove = useDeleteProject();
  const [deleting, setDeleting] = useState<ProjectSummary | null>(null);

  const tree = useMemo(() => buildFolderTree(folderList), [folderList]);
  const flatFolders = useMemo(() => visibleNodes(tree, new Set(folderList.map((folder) => folder.id))), [tree, folderList]);
  const counts = useMemo(() => projectCounts(all.data ?? []), [all.data]);
  const projects = useMemo(() => sortProjects(list.data ?? [], sort), [list.data, sort]);

  const select = (folderId: string | null) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (folderId === null) next.delete('folder');
        else next.set('folder', folderId);
        return next;
      },
      { replace: true },
    );

  async function confirmDelete() {
    if (!deleting) return;
    const title = projectTitle(deleting.idea);
    try {
      await remove.mutateAsync(deleting.id);
      toast({ title: 'Project deleted', description: `"${title}" was successfully deleted.` });
      setDeleting(null);
    } catch (error) {
      toast({ title: 'Error', description: serverErrorText(error) ?? 'Failed to delete project', variant: 'destructive' });
    }
  }

  const move = (project: ProjectSummary, folderId: string | null) => {
    const label = folderId === null ? ROOT_LABEL : `"${folderList.find((folder) => folder.id === folderId)?.name ?? 'the folder'}"`;
    void actions.moveProject(project.id, folderId, label);
  };

  const inFolders = (all.data?.length ?? 0) - (counts.get(null) ?? 0);
  const countLine = list.data
    ? projectCountLine(projects.length, selected?.name) +
      (selectedId === null && inFolders > 0 ? ` · ${inFolders} more in folders` : '')
    : '';

  return (
    <div className="grid items-start gap-6 lg:grid-cols-[16rem_minmax(0,1fr)]">
      <aside className="lg:sticky lg:top-20">
        <FolderSidebar
          folders={folderList}
          loading={folders.isPending}
          counts={counts}
          selectedId={selectedId}
          onSelect={select}
          actions={actions}
        />
      </aside>

      <section className="flex min-w-0 flex-col gap-4" aria-labelledby="folder-heading">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <div className="min-w-0">
            <h2 id="folder-heading" className="truncate text-lg font-semibold" data-testid="folder-heading">
              {selected?.name ?? ROOT_LABEL}
            </h2>
            <p className="text-sm text-zinc-500 dark:text-zinc-400" data-testid="project-count" aria-live="polite">
              {countLine || '\u00a0'}
            </p>
          </div>
          <label className="flex items-center gap-2 text-sm text-zinc-600 dark:text-zinc-400">
            <ArrowDownUp className="h-4 w-4" aria-hidden />
            <span className="sr-only sm:not-sr-only">Sort</span>
            <select
              value={sort}
              onChange={(event) => isProjectSort(event.target.value) && projectSortStore.set(event.target.value)}
              className="h-9 cursor-pointer rounded-lg border border-zinc-300 bg-white px-2.5 text-sm text-zinc-900 shadow-xs outline-none focus-visible:border-brand focus-visible:ring-2 focus-visible:ring-brand/40 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100"
              data-testid="sort-select"
            >
              {PROJECT_SORTS.map((value) => (
                <option key={value} value={value}>
                  {PROJECT_SORT_LABELS[value]}
                </option>
              ))}
            </select>
          </label>
        </div>

        {list.isPending ? (
          <div className="grid gap-3 xl:grid-cols-2" role="status" aria-label="Loading projects">
            {Array.from({ length: 4 }, (_, i) => (
              <Card key={i} className="h-32 animate-pulse bg-zinc-100/60 dark:bg-zinc-800/40" />
            ))}
          </div>
        ) : list.isError ? (
          <LoadFailed error={list.error} onRetry={() => void list.refetch()} />
        ) : projects.length === 0 ? (
          <Card className="flex flex-col items-center gap-3 px-6 py-14 text-center" data-testid="projects-empty">
            <span className="grid h-12 w-12 place-items-center rounded-2xl bg-zinc-100 text-zinc-400 dark:bg-zinc-800">
              <SearchX className="h-6 w-6" aria-hidden />
            </span>
            <p className="font-medium">No projects found. Try adjusting your filters.</p>
            <p className="max-w-sm text-sm text-zinc-500 dark:text-zinc-400">
              {selectedId === null
                ? 'Build a project, or pick a folder on the left.'
                : 'Drag a project onto this folder, or use "Move to…" in a project\u2019s menu.'}
            </p>
          </Card>
        ) : (
          <ul className="grid gap-3 xl:grid-cols-2" data-testid="project-list">
            {projects.map((project) => (
              <li key={project.id}>
                <ProjectCard project={project} folders={flatFolders} onDelete={() => setDeleting(project)} onMove={(folderId) => move(project, folderId)} />
              </li>
            ))}
          </ul>
        )}
      </section>

      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => (open ? undefined : setDeleting(null))}
        title="Delete this project?"
        description={
          deleting ? `"${projectTitle(deleting.idea)}" and its ${deleting.fileCount} ${deleting.fileCount === 1 ? 'file' : 'files'} are removed for good.` : ''
        }
        pending={remove.isPending}
        onConfirm={() => void confirmDelete()}
        testId="delete-project-dialog"
      />
    </div>
  );
}

function LoadFailed({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const unauthorized = httpErrorParts(error)?.status === 401;
  if (unauthorized) return <SignInNotice />;
  return (
    <Card className="flex flex-col items-center gap-3 px-6 py-12 text-center" data-testid="projects-error" role="alert">
      <TriangleAlert className="h-8 w-8 text-red-500" aria-hidden />
      <p className="font-medium">Failed to fetch projects</p>
      <p className="text-sm text-zinc-500 dark:text-zinc-400">
        {describeRequestFailure(error, { failed: 'The server could not list them.', exception: 'Check your connection.' })}
      </p>
      <Button variant="outline" onClick={onRetry}>
        Try again
      </Button>
    </Card>
  );
}

function SignInNotice() {
  return (
    <Card className="mx-auto flex w-full max-w-md flex-col items-center gap-3 p-8 text-center" data-testid="projects-sign-in">
      <span className="grid h-14 w-14 place-items-center rounded-2xl bg-brand/10 text-brand-strong">
        <LogIn className="h-7 w-7" aria-hidden />
      </span>
      <h2 className="text-xl font-semibold">Sign in to see your projects</h2>
      <p className="text-sm text-zinc-600 dark:text-zinc-400">Projects and folders belong to the account that built them.</p>
      <Link to="/login" className={buttonClass('primary', 'md', 'mt-2')}>
        Sign in
      </Link>
    </Card>
  );
}
