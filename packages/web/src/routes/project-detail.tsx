import type { ProjectDetailReply } from '@wolfpack/core';
import {
  ArrowLeft,
  CalendarDays,
  ChevronDown,
  Copy,
  Download,
  FileQuestion,
  Files,
  HardDrive,
  History,
  ListChecks,
  LoaderCircle,
  LogIn,
  Repeat2,
  Sparkles,
  Store,
} from 'lucide-react';
import { useMemo, useState, type ReactNode } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { httpErrorParts } from '../api/client';
import { useProject } from '../api/queries';
import { Button } from '../components/button';
import { Card } from '../components/card';
import { ProjectFilesTab } from '../components/project-files-tab';
import { ListInShowcaseDialog } from '../components/list-in-showcase-dialog';
import { NoticeCard, PageLoadError } from '../components/notice-card';
import { Skeleton } from '../components/skeleton';
import { PromptEvolutionPanel } from '../components/prompt-evolution-panel';
import { ProjectPreview } from '../components/project-preview';
import { ProvenCodePanel } from '../components/proven-code-panel';
import { usePublishDialog } from '../components/publish-dialog';
import { Tabs } from '../components/tabs';
import { VersionsPanel } from '../components/versions-panel';
import { toast } from '../hooks/use-toast';
import { cn } from '../lib/cn';
import { continueProjectIdStore } from '../lib/build-stores';
import { downloadProjectZip } from '../lib/download-zip';
import { buildFileTree, defaultFile } from '../lib/file-tree';
import { formatDateTime } from '../lib/format-time';
import { formatBytes, utf8Length } from '../lib/highlight';
import type { HomeLocationState } from './home';

type TabKey = 'files' | 'versions' | 'prompt-evolution' | 'proven-code';
const TAB_KEYS: readonly TabKey[] = ['files', 'versions', 'prompt-evolution', 'proven-code'];

/**
 * Project detail (/projects/:id, spec core §2): the files, the prompt evolution, the Proven Code
 * record and the actions.
 */
export function ProjectDetailPage() {
  const { id = '' } = useParams();
  const project = useProject(id);

  if (project.isPending) return <DetailSkeleton />;
  if (project.isError) {
    const status = httpErrorParts(project.error)?.status;
    // A malformed id is as missing as an unknown one; the server says 404 for another user's too.
    if (status === 404 || status === 400) return <ProjectNotFound />;
    if (status === 401) return <SignInToView />;
    return <PageLoadError title="This project could not be loaded" error={project.error} onRetry={() => void project.refetch()} testId="project-error" />;
  }
  return <ProjectView detail={project.data} />;
}

function ProjectView({ detail }: { detail: ProjectDetailReply }) {
  const { project, files } = detail;
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const tab: TabKey = TAB_KEYS.find((key) => key === params.get('tab')) ?? 'files';
  const tree = useMemo(() => buildFileTree(files), [files]);
  const requested = params.get('file');
  const selected = requested !== null && Object.hasOwn(project.fsIndex, requested) ? requested : defaultFile(tree);
  const totalBytes = useMemo(
    () => Object.values(project.fsIndex).reduce((sum, content) => sum + utf8Length(content), 0),
    [project.fsIndex],
  );

  const setParam = (key: string, value: string | null) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value === null) next.delete(key);
        else next.set(key, value);
        return next;
      },
      { replace: true },
    );

  // Copy/Paste to Replit opens the publish dialog (spec core §2), which can also just copy the code.
  const publish = usePublishDialog();
  const [downloading, setDownloading] = useState(false);
  const [listing, setListing] = useState(false);

  function continueProject() {
    continueProjectIdStore.set(project.id);
    toast({ title: 'Continue Mode Enabled', description: 'Describe what to add or change; the next run builds on this project.' });
    void navigate('/', { state: { idea: project.idea } satisfies HomeLocationState });
  }

  async function download() {
    setDownloading(true);
    try {
      await downloadProjectZip(project.id);
    } catch {
      toast({ title: 'Download Failed', description: 'Export failed', variant: 'destructive' });
    } finally {
      setDownloading(false);
    }
  }

  return (
    <div className="flex flex-col gap-6" data-testid="project-detail">
      <Link
        to="/projects"
        className="inline-flex w-fit items-center gap-1.5 text-sm font-medium text-zinc-600 hover:text-zinc-900 dark:text-zinc-400 dark:hover:text-white"
      >
        <ArrowLeft className="h-4 w-4" aria-hidden />
        All projects
      </Link>

      <Card className="overflow-hidden">
        <div className="h-1 bg-gradient-to-r from-brand via-brand/50 to-transparent" aria-hidden />
        <div className="flex flex-col gap-5 p-5 sm:p-6">
          <div className="flex flex-col gap-4 lg:flex-row lg:items-start lg:justify-between">
            <IdeaHeading idea={project.idea} />
            <div className="flex shrink-0 flex-wrap gap-2">
              <Button onClick={continueProject} data-testid="continue-project">
                <Repeat2 className="h-4 w-4" aria-hidden />
                Continue
              </Button>
              <Button variant="outline" onClick={() => publish.open(project.id, project.idea)} data-testid="copy-replit">
                <Copy className="h-4 w-4" aria-hidden />
                Copy/Paste to Replit
              </Button>
              <Button variant="outline" onClick={() => void download()} disabled={downloading} data-testid="download-zip">
                {downloading ? (
                  <LoaderCircle className="h-4 w-4 animate-spin" aria-hidden />
                ) : (
                  <Download className="h-4 w-4" aria-hidden />
                )}
                Download ZIP
              </Button>
              <Button variant="outline" onClick={() => setListing(true)} data-testid="list-in-showcase">
                <Store className="h-4 w-4" aria-hidden />
                List in Showcase
              </Button>
            </div>
          </div>
          <dl className="grid grid-cols-2 gap-3 border-t border-zinc-100 pt-4 text-sm sm:grid-cols-4 dark:border-zinc-800">
            <Fact icon={<CalendarDays className="h-4 w-4" aria-hidden />} label="Created" testId="project-created">
              <time dateTime={project.createdAt}>{formatDateTime(project.createdAt)}</time>
            </Fact>
            <Fact icon={<CalendarDays className="h-4 w-4" aria-hidden />} label="Updated">
              <time dateTime={project.updatedAt}>{formatDateTime(project.updatedAt)}</time>
            </Fact>
            <Fact icon={<Files className="h-4 w-4" aria-hidden />} label="Files">
              {files.length}
            </Fact>
            <Fact icon={<HardDrive className="h-4 w-4" aria-hidden />} label="Size">
              {formatBytes(totalBytes)}
            </Fact>
          </dl>
          {files.length > 0 ? <ProjectPreview projectId={project.id} /> : null}
        </div>
      </Card>

      <Tabs<TabKey>
        label="Project views"
        value={tab}
        onChange={(next) => setParam('tab', next === 'files' ? null : next)}
        items={[
          {
            key: 'files',
            label: (
              <>
                <Files className="h-4 w-4" aria-hidden />
                Files
                <span className="rounded-full bg-zinc-200/80 px-1.5 text-xs tabular-nums dark:bg-zinc-700">{files.length}</span>
              </>
            ),
          },
          {
            key: 'versions',
            label: (
              <>
                <History className="h-4 w-4" aria-hidden />
                Versions
              </>
            ),
          },
          {
            key: 'prompt-evolution',
            label: (
              <>
                <Sparkles className="h-4 w-4" aria-hidden />
                Prompt Evolution
              </>
            ),
          },
          {
            key: 'proven-code',
            label: (
              <>
                <ListChecks className="h-4 w-4" aria-hidden />
                Proven Code
              </>
            ),
          },
        ]}
      >
        {tab === 'files' ? (
          <ProjectFilesTab detail={detail} selected={selected} tree={tree} onSelect={(path) => setParam('file', path)} />
        ) : tab === 'prompt-evolution' ? (
          <PromptEvolutionPanel projectId={project.id} />
        ) : tab === 'versions' ? (
          <VersionsPanel projectId={project.id} currentVersion={detail.version ?? null} />
        ) : (
          <ProvenCodePanel projectId={project.id} verification={detail.verification} />
        )}
      </Tabs>
      {publish.dialog}
      <ListInShowcaseDialog target={listing ? { kind: 'create', projectId: project.id } : null} onClose={() => setListing(false)} />
    </div>
  );
}

/**
 * The idea's first line as the heading and, when there is more to it, the rest below, so heading
 * and text together read as the whole idea.
 */
function IdeaHeading({ idea }: { idea: string }) {
  const trimmed = idea.trim();
  const newline = trimmed.indexOf('\n');
  const firstLine = (newline === -1 ? trimmed : trimmed.slice(0, newline)).trim();
  const rest = newline === -1 ? '' : trimmed.slice(newline + 1).trim();
  const title = firstLine || 'Untitled Project';
  const hasMore = rest.length > 0;
  const long = rest.length > 360 || rest.split('\n').length > 5;
  const [expanded, setExpanded] = useState(false);
  return (
    <div className="flex min-w-0 flex-col gap-2">
      <span className="text-xs font-medium tracking-wide text-brand-strong uppercase">Project</span>
      <h1 className="text-2xl font-semibold tracking-tight break-words sm:text-3xl" data-testid="project-title">
        {title}
      </h1>
      {hasMore ? (
        <div className="flex max-w-3xl flex-col items-start gap-1">
          <p
            className={cn(
              'text-sm leading-relaxed break-words whitespace-pre-wrap text-zinc-600 dark:text-zinc-400',
              long && !expanded && 'line-clamp-4',
            )}
            data-testid="project-idea"
          >
            {rest}
          </p>
          {long ? (
            <button
              type="button"
              onClick={() => setExpanded((current) => !current)}
              aria-expanded={expanded}
              className="inline-flex cursor-pointer items-center gap-1 text-sm font-medium text-brand-strong hover:underline"
            >
              {expanded ? 'Show less' : 'Show the full idea'}
              <ChevronDown className={cn('h-4 w-4 transition-transform', expanded && 'rotate-180')} aria-hidden />
            </button>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}

function Fact({ icon, label, children, testId }: { icon: ReactNode; label: string; children: ReactNode; testId?: string }) {
  return (
    <div className="flex min-w-0 flex-col gap-0.5">
      <dt className="flex items-center gap-1.5 text-xs text-zinc-500 dark:text-zinc-400">
        {icon}
        {label}
      </dt>
      <dd className="truncate font-medium tabular-nums" data-testid={testId}>
        {children}
      </dd>
    </div>
  );
}

/** Spec core §2: a missing project shows 'Project not found' with a link home. */
function ProjectNotFound() {
  return (
    <NoticeCard icon={FileQuestion} heading="h1" title="Project not found" testId="project-not-found" link={{ to: '/', label: 'Go home', icon: ArrowLeft, testId: 'not-found-home' }}>
      It may have been deleted, or it belongs to another account. Check the link, or build something new.
    </NoticeCard>
  );
}

function SignInToView() {
  return (
    <NoticeCard icon={LogIn} tone="brand" heading="h1" title="Sign in to see this project" testId="project-sign-in" link={{ to: '/login', label: 'Sign in' }}>
      Projects belong to the account that built them.
    </NoticeCard>
  );
}

function DetailSkeleton() {
  return (
    <div className="flex flex-col gap-6" role="status" aria-label="Loading project">
      <Skeleton shade="strong" className="h-5 w-28 rounded" />
      <Card className="flex flex-col gap-4 p-6">
        <Skeleton shade="strong" className="h-3 w-16 rounded" />
        <Skeleton shade="strong" className="h-8 w-2/3 rounded" />
        <Skeleton shade="faint" className="h-4 w-1/2 rounded" />
      </Card>
      <div className="grid grid-cols-1 gap-4 lg:grid-cols-[17rem_minmax(0,1fr)]">
        <Card className="h-72 animate-pulse" />
        <Card className="h-96 animate-pulse" />
      </div>
    </div>
  );
}
