import { PROJECTS_SEARCH_MAX, type ProjectSummary } from '@wolfpack/core';
import { ArrowDownUp, FolderKanban, LogIn, Plus, Search, SearchX, TriangleAlert } from 'lucide-react';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { describeRequestFailure, httpErrorParts, serverErrorText } from '../api/client';
import { useDeleteProject, useFolders, useProjectCounts, useProjectPages } from '../api/library';
import { useMe } from '../api/queries';
import { Button, buttonClass } from '../components/button';
import { Card } from '../components/card';
import { ConfirmDialog } from '../components/confirm-dialog';
import { FolderSidebar, ROOT_LABEL } from '../components/folder-sidebar';
import { ImportProjectButton } from '../components/import-project-dialog';
import { LoadMore } from '../components/load-more';
import { PageSpinner } from '../components/page-spinner';
import { ProjectCard } from '../components/project-card';
import { useFolderActions } from '../hooks/use-folder-actions';
import { toast } from '../hooks/use-toast';
import { cn } from '../lib/cn';
import { buildFolderTree, visibleNodes } from '../lib/folder-tree';
import {
  PROJECT_SORT_LABELS,
  PROJECT_SORTS,
  isProjectSort,
  joinPages,
  projectCountLine,
  projectSortStore,
  projectTitle,
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
        <div className="flex flex-wrap items-center gap-2">
          {user ? <ImportProjectButton /> : null}
          <Link to="/" className={buttonClass('primary', 'md')}>
            <Plus className="h-4 w-4" aria-hidden />
            New project
          </Link>
        </div>
      </header>
      {isPending ? <PageSpinner /> : user ? <Library /> : <SignInNotice />}
    </div>
  );
}

/** How long typing pauses before the search is sent. */
const SEARCH_DELAY_MS = 300;

function Library() {
  const [params, setParams] = useSearchParams();
  const folders = useFolders();
  const counts = useProjectCounts();
  const requested = params.get('folder');
  const q = params.get('q')?.trim() ?? '';
  // An unknown folder (deleted meanwhile, a stale link) shows the root.
  const folderList = folders.data ?? [];
  const selectedId = requested && folderList.some((folder) => folder.id === requested) ? requested : null;
  const selected = folderList.find((folder) => folder.id === selectedId);
  const sort = projectSortStore.use();
  // The server sorts, searches and pages: 50 projects at a time, the next as the list scrolls.
  const list = useProjectPages({ folderId: selectedId, sort, q }, folders.isSuccess || requested === null);
  const actions = useFolderActions();
  const remove = useDeleteProject();
  const [deleting, setDeleting] = useState<ProjectSummary | null>(null);

  const tree = useMemo(() => buildFolderTree(folderList), [folderList]);
  const flatFolders = useMemo(() => visibleNodes(tree, new Set(folderList.map((folder) => folder.id))), [tree, folderList]);
  const folderCounts = counts.data?.byFolder ?? NO_COUNTS;
  const projects = useMemo(() => joinPages(list.data?.pages ?? []), [list.data]);
  // A search counts its matches with its first page; otherwise the folder counts say it.
  const total = q ? list.data?.pages[0]?.total : counts.data ? (folderCounts.get(selectedId) ?? 0) : undefined;

  const setParam = (name: string, value: string | null) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value === null || value === '') next.delete(name);
        else next.set(name, value);
        return next;
      },
      { replace: true },
    );
  const select = (folderId: string | null) => setParam('folder', folderId);

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

  const inFolders = counts.data ? counts.data.total - (folderCounts.get(null) ?? 0) : 0;
  const countLine =
    total === undefined || list.isPending
      ? ''
      : projectCountLine(total, selected?.name) +
        (q ? ` matching "${q}"` : '') +
        (selectedId === null && !q && inFolders > 0 ? ` · ${inFolders} more in folders` : '');
  const { fetchNextPage } = list;
  const loadMore = useCallback(() => void fetchNextPage(), [fetchNextPage]);

  return (
    <div className="grid grid-cols-1 items-start gap-6 lg:grid-cols-[16rem_minmax(0,1fr)]">
      <aside className="lg:sticky lg:top-20">
        <FolderSidebar
          folders={folderList}
          loading={folders.isPending}
          counts={folderCounts}
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
          <div className="flex flex-wrap items-center gap-3">
            <SearchBox initial={q} onSearch={(text) => setParam('q', text.trim())} />
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
        </div>

        {list.isPending ? (
          <div className="grid grid-cols-1 gap-3 xl:grid-cols-2" role="status" aria-label="Loading projects">
            {Array.from({ length: 4 }, (_, i) => (
              <Card key={i} className="h-32 animate-pulse bg-zinc-100/60 dark:bg-zinc-800/40" />
            ))}
          </div>
        ) : list.isError && projects.length === 0 ? (
          <LoadFailed error={list.error} onRetry={() => void list.refetch()} />
        ) : projects.length === 0 ? (
          <Card className="flex flex-col items-center gap-3 px-6 py-14 text-center" data-testid="projects-empty">
            <span className="grid h-12 w-12 place-items-center rounded-2xl bg-zinc-100 text-zinc-400 dark:bg-zinc-800">
              <SearchX className="h-6 w-6" aria-hidden />
            </span>
            <p className="font-medium">No projects found. Try adjusting your filters.</p>
            <p className="max-w-sm text-sm text-zinc-500 dark:text-zinc-400">
              {q
                ? `No idea here contains "${q}".`
                : selectedId === null
                  ? 'Build a project, or pick a folder on the left.'
                  : 'Drag a project onto this folder, or use "Move to…" in a project\u2019s menu.'}
            </p>
          </Card>
        ) : (
          <>
            <ul
              className={cn('grid grid-cols-1 gap-3 transition-opacity xl:grid-cols-2', list.isPlaceholderData && 'opacity-60')}
              aria-busy={list.isPlaceholderData || list.isFetchingNextPage}
              data-testid="project-list"
            >
              {projects.map((project) => (
                <li key={project.id}>
                  <ProjectCard project={project} folders={flatFolders} onDelete={() => setDeleting(project)} onMove={(folderId) => move(project, folderId)} />
                </li>
              ))}
            </ul>
            {list.hasNextPage || (list.data?.pages.length ?? 0) > 1 ? (
              <LoadMore
                hasMore={list.hasNextPage}
                loading={list.isFetchingNextPage}
                failed={list.isFetchNextPageError}
                onLoadMore={loadMore}
                status={total === undefined ? `Showing ${projects.length}` : `Showing ${projects.length} of ${total}`}
              />
            ) : null}
          </>
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

const NO_COUNTS: ReadonlyMap<string | null, number> = new Map();

/**
 * The search field: what is typed is sent once typing pauses (and at once on Enter), so a user
 * with thousands of projects finds one without scrolling to it.
 */
function SearchBox({ initial, onSearch }: { initial: string; onSearch: (text: string) => void }) {
  const [text, setText] = useState(initial);
  const latest = useRef(onSearch);
  latest.current = onSearch;
  // The address changed some other way (back, a link): show its search, unless it is what is typed.
  useEffect(() => setText((current) => (current.trim() === initial ? current : initial)), [initial]);
  useEffect(() => {
    if (text.trim() === initial) return;
    const timer = setTimeout(() => latest.current(text), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text, initial]);
  return (
    <label className="relative flex items-center">
      <Search className="pointer-events-none absolute left-2.5 h-4 w-4 text-zinc-400" aria-hidden />
      <span className="sr-only">Search projects</span>
      <input
        type="search"
        value={text}
        maxLength={PROJECTS_SEARCH_MAX}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter') onSearch(text);
        }}
        placeholder="Search projects"
        className="h-9 w-52 rounded-lg border border-zinc-300 bg-white pr-2.5 pl-8 text-sm text-zinc-900 shadow-xs outline-none placeholder:text-zinc-400 focus-visible:border-brand focus-visible:ring-2 focus-visible:ring-brand/40 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100"
        data-testid="project-search"
      />
    </label>
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
