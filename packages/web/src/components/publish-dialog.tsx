import type { PublishReply } from '@wolfpack/core';
import { CircleCheck, Copy, ExternalLink, GitBranch, LoaderCircle, Settings, TriangleAlert } from 'lucide-react';
import { useCallback, useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { describeRequestFailure } from '../api/client';
import { useGithubSettings, usePublishProject, useRecentProjects } from '../api/library';
import { useCopyReplitCode } from '../hooks/use-copy-replit-code';
import { toast } from '../hooks/use-toast';
import { checkPublishForm, initialPublishForm, type PublishFormValues } from '../lib/publish-form';
import { Button, buttonClass } from './button';
import { InputField } from './input-field';
import { Modal, ModalActions } from './modal';
import { Switch } from './switch';
import { ToastAction } from './toast';

/** How many of the newest projects are searched for the target's idea (the History panel's, shared). */
const PUBLISH_LOOKUP = 8;

export interface PublishTarget {
  projectId: string;
  /** The project's idea, for the suggested name; found among the newest projects when absent. */
  idea?: string | undefined;
}

/**
 * The publish dialog and the function that opens it. Opening it without a project says 'No
 * project to publish' instead (spec core §5).
 */
export function usePublishDialog() {
  const [target, setTarget] = useState<PublishTarget | null>(null);
  const open = useCallback((projectId: string | null | undefined, idea?: string) => {
    if (!projectId) {
      toast({ title: 'Error', description: 'No project to publish', variant: 'destructive' });
      return;
    }
    setTarget({ projectId, idea });
  }, []);
  const dialog = <PublishDialog target={target} onClose={() => setTarget(null)} />;
  return { open, dialog };
}

type Phase = { kind: 'form' } | { kind: 'publishing' } | { kind: 'success'; reply: PublishReply };

export interface PublishDialogProps {
  target: PublishTarget | null;
  onClose: () => void;
}

/** Publish to GitHub (spec core §2 Publish dialog): form, publishing, success with both links. */
export function PublishDialog({ target, onClose }: PublishDialogProps) {
  const [phase, setPhase] = useState<Phase>({ kind: 'form' });
  useEffect(() => setPhase({ kind: 'form' }), [target?.projectId]);
  const busy = phase.kind === 'publishing';
  return (
    <Modal
      open={target !== null}
      onOpenChange={(open) => (open ? undefined : onClose())}
      busy={busy}
      icon={phase.kind === 'success' ? <CircleCheck className="h-5 w-5" aria-hidden /> : <GitBranch className="h-5 w-5" aria-hidden />}
      title={phase.kind === 'success' ? 'Published Successfully!' : 'Publish to GitHub'}
      description={
        phase.kind === 'success'
          ? 'Your project is on GitHub. Open it in Replit to run it.'
          : 'Push the project’s files to a GitHub repository, then open it in Replit.'
      }
      widthClass="max-w-lg"
      testId="publish-dialog"
    >
      <div data-phase={phase.kind} data-testid="publish-phase">
        {target === null ? (
          <p className="mt-4 text-sm">No project to publish</p>
        ) : phase.kind === 'success' ? (
          <PublishSuccess reply={phase.reply} onDone={onClose} />
        ) : (
          <PublishForm key={target.projectId} target={target} busy={busy} onPhase={setPhase} onCancel={onClose} />
        )}
      </div>
    </Modal>
  );
}

function PublishForm({ target, busy, onPhase, onCancel }: { target: PublishTarget; busy: boolean; onPhase: (phase: Phase) => void; onCancel: () => void }) {
  const navigate = useNavigate();
  // Without an idea the target is the project a run just built or continued: the newest.
  const recent = useRecentProjects(PUBLISH_LOOKUP, { enabled: target.idea === undefined });
  const idea = target.idea ?? recent.data?.projects.find((project) => project.id === target.projectId)?.idea;
  const [values, setValues] = useState<PublishFormValues>(() => initialPublishForm(idea ?? ''));
  // The idea may arrive after the dialog opened: suggest the name then, unless the user typed one.
  const touched = useRef(false);
  useEffect(() => {
    if (idea !== undefined && !touched.current) setValues(initialPublishForm(idea));
  }, [idea]);
  const github = useGithubSettings();
  const publish = usePublishProject();
  const { copy, copying } = useCopyReplitCode();
  const [failure, setFailure] = useState<string | null>(null);
  const hintId = useId();
  const privateLabelId = useId();
  const privateHintId = useId();

  const edit = (patch: Partial<PublishFormValues>) => {
    touched.current = true;
    setValues((current) => ({ ...current, ...patch }));
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
    const checked = checkPublishForm(values);
    if (!checked.ok) {
      toast({ ...checked.problem, variant: 'destructive' });
      return;
    }
    setFailure(null);
    onPhase({ kind: 'publishing' });
    try {
      const reply = await publish.mutateAsync({ projectId: target.projectId, request: checked.request });
      onPhase({ kind: 'success', reply });
      toast({ title: 'Published Successfully!', description: `Your project is on GitHub: ${reply.repoUrl}` });
    } catch (error) {
      const sentence = describeRequestFailure(error, { failed: 'GitHub did not accept the project.', exception: 'Check your connection and try again.' });
      setFailure(sentence);
      onPhase({ kind: 'form' });
      const aboutToken = /settings|token/i.test(sentence);
      toast({
        title: 'Publish Failed',
        description: (
          <>
            <span className="block">Failed to publish to GitHub</span>
            <span className="mt-1 block opacity-90">{sentence}</span>
          </>
        ),
        variant: 'destructive',
        ...(aboutToken
          ? { action: <ToastAction altText="Open Settings to save a GitHub token" onClick={() => void navigate('/settings')}>Open Settings</ToastAction> }
          : {}),
      });
    }
  }

  const login = github.data?.connected ? github.data.login : null;
  const notConnected = github.data?.connected === false;

  return (
    <form onSubmit={(event) => void submit(event)} noValidate className="mt-5 flex flex-col gap-4" aria-busy={busy}>
      {login ? (
        <p className="flex items-center gap-2 rounded-lg bg-zinc-50 px-3 py-2 text-sm text-zinc-600 dark:bg-zinc-800/60 dark:text-zinc-300" data-testid="publish-account">
          <GitBranch className="h-4 w-4 text-brand" aria-hidden />
          Publishing as <span className="font-medium text-zinc-900 dark:text-white">{login}</span>
        </p>
      ) : notConnected ? (
        <p className="flex items-start gap-2 rounded-lg border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:border-amber-500/40 dark:bg-amber-500/10 dark:text-amber-100" data-testid="publish-no-token">
          <TriangleAlert className="mt-0.5 h-4 w-4 shrink-0" aria-hidden />
          <span>
            No GitHub token saved yet.{' '}
            <Link to="/settings" className="font-medium underline" onClick={onCancel}>
              Save one in Settings
            </Link>{' '}
            first.
          </span>
        </p>
      ) : null}

      <div className="flex flex-col gap-1">
        <InputField
          label="Repository name"
          required
          value={values.repoName}
          onChange={(event) => edit({ repoName: event.target.value })}
          disabled={busy}
          autoComplete="off"
          spellCheck={false}
          aria-describedby={hintId}
          placeholder="my-project"
          data-testid="repo-name"
        />
        <p id={hintId} className="text-xs text-zinc-500 dark:text-zinc-400">
          lowercase letters, numbers and hyphens only
          {login && values.repoName.trim() ? <span className="block font-mono">github.com/{login}/{values.repoName.trim()}</span> : null}
        </p>
      </div>

      <label className="flex flex-col gap-1.5 text-sm font-medium text-zinc-800 dark:text-zinc-200">
        Description
        <textarea
          value={values.description}
          onChange={(event) => edit({ description: event.target.value })}
          disabled={busy}
          rows={2}
          maxLength={350}
          placeholder="Optional: one line about the project"
          className="w-full resize-none rounded-lg border border-zinc-300 bg-white px-3 py-2 text-sm font-normal shadow-xs outline-none placeholder:text-zinc-400 focus-visible:border-brand focus-visible:ring-2 focus-visible:ring-brand/40 disabled:opacity-60 dark:border-zinc-700 dark:bg-zinc-950"
          data-testid="repo-description"
        />
      </label>

      <div className="flex items-center justify-between gap-4 rounded-lg border border-zinc-200 px-3 py-2.5 dark:border-zinc-800">
        <div>
          <p id={privateLabelId} className="text-sm font-medium">
            Private repository
          </p>
          <p id={privateHintId} className="text-xs text-zinc-500 dark:text-zinc-400">
            Only you and the people you invite can see it.
          </p>
        </div>
        <Switch checked={values.isPrivate} onCheckedChange={(isPrivate) => edit({ isPrivate })} disabled={busy} labelledBy={privateLabelId} describedBy={privateHintId} testId="repo-private" />
      </div>

      {failure ? (
        <div className="flex items-start gap-2 rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800 dark:border-red-500/30 dark:bg-red-500/10 dark:text-red-200" role="alert" data-testid="publish-error">
          <TriangleAlert className="mt-0.5 h-4 w-4 shrink-0" aria-hidden />
          <span>
            {failure}
            {/settings|token/i.test(failure) ? (
              <>
                {' '}
                <Link to="/settings" className="inline-flex items-center gap-1 font-medium underline" onClick={onCancel}>
                  <Settings className="h-3.5 w-3.5" aria-hidden />
                  Open Settings
                </Link>
              </>
            ) : null}
          </span>
        </div>
      ) : null}

      <ModalActions>
        <Button variant="ghost" className="sm:mr-auto" onClick={() => void copy(target.projectId).then((copied) => copied && onCancel())} disabled={busy || copying} data-testid="publish-copy-code">
          {copying ? <LoaderCircle className="h-4 w-4 animate-spin" aria-hidden /> : <Copy className="h-4 w-4" aria-hidden />}
          Copy code instead
        </Button>
        <Button variant="outline" onClick={onCancel} disabled={busy}>
          Cancel
        </Button>
        <Button type="submit" disabled={busy} data-testid="publish-submit">
          {busy ? <LoaderCircle className="h-4 w-4 animate-spin" aria-hidden /> : <GitBranch className="h-4 w-4" aria-hidden />}
          {busy ? 'Publishing...' : 'Publish to GitHub'}
        </Button>
      </ModalActions>
    </form>
  );
}

function PublishSuccess({ reply, onDone }: { reply: PublishReply; onDone: () => void }) {
  const repoPath = reply.repoUrl.replace(/^https?:\/\/[^/]+\//, '');
  return (
    <div className="mt-5 flex flex-col gap-3">
      <a href={reply.repoUrl} target="_blank" rel="noreferrer" className="group flex items-center gap-3 rounded-xl border border-zinc-200 p-3 transition-colors hover:border-brand/50 hover:bg-brand/5 dark:border-zinc-800" data-testid="publish-repo-link">
        <span className="grid h-9 w-9 shrink-0 place-items-center rounded-lg bg-zinc-900 text-white dark:bg-white dark:text-zinc-900">
          <GitBranch className="h-4 w-4" aria-hidden />
        </span>
        <span className="min-w-0 flex-1">
          <span className="block text-sm font-medium">View the repository</span>
          <span className="block truncate font-mono text-xs text-zinc-500 dark:text-zinc-400">{repoPath}</span>
        </span>
        <ExternalLink className="h-4 w-4 text-zinc-400 group-hover:text-brand" aria-hidden />
      </a>
      <a href={reply.replitUrl} target="_blank" rel="noreferrer" className={buttonClass('primary', 'lg', 'w-full')} data-testid="publish-replit-link">
        <ExternalLink className="h-4 w-4" aria-hidden />
        Open in Replit
      </a>
      <ModalActions>
        <Button variant="outline" onClick={onDone}>
          Done
        </Button>
      </ModalActions>
    </div>
  );
}
