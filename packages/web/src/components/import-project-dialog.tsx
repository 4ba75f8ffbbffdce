import type { ImportReply } from '@wolfpack/core';
import { CircleCheck, FileArchive, GitBranch, Import, LoaderCircle, Settings, TriangleAlert } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { describeRequestFailure } from '../api/client';
import { useImportProject, type ImportSource } from '../api/imports';
import { useGithubSettings } from '../api/library';
import { toast } from '../hooks/use-toast';
import { checkGithubImport, importedToast, importingLabel, skippedReason, zipIdeaProblem } from '../lib/import-form';
import { Button } from './button';
import { ImportZipPicker } from './import-zip-picker';
import { InputField } from './input-field';
import { Modal, ModalActions } from './modal';
import { Tabs } from './tabs';

/** The "Import project" button of the projects page and the dialog it opens (fresh each time). */
export function ImportProjectButton() {
  const [open, setOpen] = useState(false);
  const [round, setRound] = useState(0);
  return (
    <>
      <Button
        variant="outline"
        onClick={() => {
          setRound((n) => n + 1);
          setOpen(true);
        }}
        data-testid="import-project"
      >
        <Import className="h-4 w-4" aria-hidden />
        Import project
      </Button>
      <ImportProjectDialog key={round} open={open} onOpenChange={setOpen} />
    </>
  );
}

type SourceKind = ImportSource['kind'];
type Phase = { kind: 'form' } | { kind: 'importing'; progress: number | null } | { kind: 'done'; reply: ImportReply; origin: string };
type Field = 'file' | 'repo' | 'ref' | 'idea';

const SOURCE_TABS = [
  { key: 'zip', label: <><FileArchive className="h-4 w-4" aria-hidden />Zip file</> },
  { key: 'github', label: <><GitBranch className="h-4 w-4" aria-hidden />GitHub</> },
] as const;

export interface ImportProjectDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/**
 * Import a project from a zip or a GitHub repository: the form, the upload, then either the new
 * project (nothing was skipped) or the list of what was left out with a button to open it. A
 * refusal shows the server's sentence and keeps what was chosen, so another file can be picked.
 */
export function ImportProjectDialog({ open, onOpenChange }: ImportProjectDialogProps) {
  const navigate = useNavigate();
  const importProject = useImportProject();
  const github = useGithubSettings(open);
  const [source, setSource] = useState<SourceKind>('zip');
  const [file, setFile] = useState<File | null>(null);
  const [repo, setRepo] = useState('');
  const [ref, setRef] = useState('');
  const [idea, setIdea] = useState('');
  const [phase, setPhase] = useState<Phase>({ kind: 'form' });
  const [failure, setFailure] = useState<string | null>(null);
  const [fieldError, setFieldError] = useState<{ field: Field; message: string } | null>(null);
  const ideaHintId = useId();
  const busy = phase.kind === 'importing';
  const errorOf = (field: Field) => (fieldError?.field === field ? fieldError.message : undefined);
  const githubMissing = source === 'github' && github.data?.connected === false;

  function openProject(projectId: string) {
    onOpenChange(false);
    void navigate(`/projects/${encodeURIComponent(projectId)}`);
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    let request: ImportSource;
    let origin: string;
    if (source === 'zip') {
      if (!file) return setFieldError({ field: 'file', message: 'Choose a .zip file of the project, or drop one here.' });
      const ideaProblem = zipIdeaProblem(idea);
      if (ideaProblem) return setFieldError({ field: 'idea', message: ideaProblem });
      request = { kind: 'zip', file, idea, onProgress: (sent) => setPhase({ kind: 'importing', progress: sent }) };
      origin = file.name;
    } else {
      const checked = checkGithubImport({ repo, ref, idea });
      if (!checked.ok) return setFieldError({ field: checked.field, message: checked.message });
      request = { kind: 'github', request: checked.request };
      origin = checked.request.ref ? `${checked.request.github}@${checked.request.ref}` : checked.request.github;
    }
    setFieldError(null);
    setFailure(null);
    setPhase({ kind: 'importing', progress: source === 'zip' ? 0 : null });
    try {
      const reply = await importProject.mutateAsync(request);
      if (reply.skipped.length > 0) {
        setPhase({ kind: 'done', reply, origin });
        return;
      }
      toast(importedToast(reply, origin));
      openProject(reply.project.id);
    } catch (error) {
      setFailure(describeRequestFailure(error, { failed: 'The server refused the import.', exception: 'Check your connection and try again.' }));
      setPhase({ kind: 'form' });
    }
  }

  const done = phase.kind === 'done' ? phase : null;
  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      busy={busy}
      icon={done ? <CircleCheck className="h-5 w-5" aria-hidden /> : <Import className="h-5 w-5" aria-hidden />}
      title={done ? 'Project imported' : 'Import project'}
      description={
        done
          ? `${done.reply.project.fileCount} ${done.reply.project.fileCount === 1 ? 'file' : 'files'} from ${done.origin} are version 1 of a new project.`
          : 'Bring in code you already have, from a zip or a GitHub repository. It becomes a new project at version 1.'
      }
      widthClass="max-w-lg"
      testId="import-dialog"
    >
      <div data-phase={phase.kind} data-testid="import-phase">
        {done ? (
          <ImportDone reply={done.reply} onOpen={() => openProject(done.reply.project.id)} onClose={() => onOpenChange(false)} />
        ) : (
          <form onSubmit={(event) => void submit(event)} noValidate className="mt-5 flex flex-col gap-4" aria-busy={busy}>
            <Tabs<SourceKind>
              items={SOURCE_TABS}
              value={source}
              onChange={(next) => {
                if (busy) return;
                setSource(next);
                setFieldError(null);
                setFailure(null);
              }}
              label="Import from"
            >
              {source === 'zip' ? (
                <ImportZipPicker
                  file={file}
                  disabled={busy}
                  error={errorOf('file')}
                  onPick={(picked) => {
                    setFile(picked);
                    setFieldError(null);
                    setFailure(null);
                  }}
                  onRefuse={(message) => setFieldError({ field: 'file', message })}
                />
              ) : (
                <div className="flex flex-col gap-3">
                  <GithubStatus login={github.data?.connected ? github.data.login : null} missing={githubMissing} onLeave={() => onOpenChange(false)} />
                  <InputField
                    label="Repository"
                    value={repo}
                    onChange={(event) => setRepo(event.target.value)}
                    disabled={busy}
                    placeholder="OWNER/REPO, e.g. octocat/hello-world"
                    autoComplete="off"
                    spellCheck={false}
                    error={errorOf('repo')}
                    data-testid="import-repo"
                  />
                  <InputField
                    label="Branch or tag (optional)"
                    value={ref}
                    onChange={(event) => setRef(event.target.value)}
                    disabled={busy}
                    placeholder="The repository’s default branch"
                    autoComplete="off"
                    spellCheck={false}
                    maxLength={255}
                    error={errorOf('ref')}
                    data-testid="import-ref"
                  />
                </div>
              )}
            </Tabs>

            <label className="flex flex-col gap-1.5 text-sm font-medium text-zinc-800 dark:text-zinc-200">
              Idea (optional)
              <textarea
                value={idea}
                onChange={(event) => setIdea(event.target.value)}
                disabled={busy}
                rows={2}
                maxLength={50_000}
                placeholder="What the project is, in your words"
                aria-describedby={ideaHintId}
                aria-invalid={errorOf('idea') ? true : undefined}
                className="w-full resize-y rounded-lg border border-zinc-300 bg-white px-3 py-2 text-sm font-normal shadow-xs outline-none placeholder:text-zinc-400 focus-visible:border-brand focus-visible:ring-2 focus-visible:ring-brand/40 disabled:opacity-60 dark:border-zinc-700 dark:bg-zinc-950"
                data-testid="import-idea"
              />
              <span id={ideaHintId} className={errorOf('idea') ? 'text-sm font-normal text-red-600 dark:text-red-400' : 'text-xs font-normal text-zinc-500 dark:text-zinc-400'}>
                {errorOf('idea') ?? 'Leave empty to take it from the README.'}
              </span>
            </label>

            {failure ? <ImportFailure sentence={failure} onLeave={() => onOpenChange(false)} /> : null}

            <ModalActions>
              <Button variant="outline" onClick={() => onOpenChange(false)} disabled={busy}>
                Cancel
              </Button>
              <Button type="submit" disabled={busy || githubMissing} data-testid="import-submit">
                {busy ? <LoaderCircle className="h-4 w-4 animate-spin" aria-hidden /> : <Import className="h-4 w-4" aria-hidden />}
                <span aria-live="polite">{busy ? importingLabel(phase.progress) : 'Import'}</span>
              </Button>
            </ModalActions>
          </form>
        )}
      </div>
    </Modal>
  );
}

function GithubStatus({ login, missing, onLeave }: { login: string | null; missing: boolean; onLeave: () => void }) {
  if (login) {
    return (
      <p className="flex items-center gap-2 rounded-lg bg-zinc-50 px-3 py-2 text-sm text-zinc-600 dark:bg-zinc-800/60 dark:text-zinc-300" data-testid="import-github-account">
        <GitBranch className="h-4 w-4 text-brand" aria-hidden />
        Reading as <span className="font-medium text-zinc-900 dark:text-white">{login}</span>: your repositories and public ones.
      </p>
    );
  }
  if (!missing) return null;
  return (
    <p className="flex items-start gap-2 rounded-lg border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:border-amber-500/40 dark:bg-amber-500/10 dark:text-amber-100" data-testid="import-no-github">
      <TriangleAlert className="mt-0.5 h-4 w-4 shrink-0" aria-hidden />
      <span>
        GitHub is not connected.{' '}
        <Link to="/settings" className="font-medium underline" onClick={onLeave}>
          Save a GitHub token in Settings
        </Link>{' '}
        to import a repository, or import a zip instead.
      </span>
    </p>
  );
}

function ImportFailure({ sentence, onLeave }: { sentence: string; onLeave: () => void }) {
  return (
    <div className="flex items-start gap-2 rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800 dark:border-red-500/30 dark:bg-red-500/10 dark:text-red-200" role="alert" data-testid="import-error">
      <TriangleAlert className="mt-0.5 h-4 w-4 shrink-0" aria-hidden />
      <span className="min-w-0 break-words">
        {sentence}
        {/settings|token/i.test(sentence) ? (
          <>
            {' '}
            <Link to="/settings" className="inline-flex items-center gap-1 font-medium underline" onClick={onLeave}>
              <Settings className="h-3.5 w-3.5" aria-hidden />
              Open Settings
            </Link>
          </>
        ) : null}
      </span>
    </div>
  );
}

/** What was left out, and the way to the new project. */
export function ImportDone({ reply, onOpen, onClose }: { reply: ImportReply; onOpen: () => void; onClose: () => void }) {
  return (
    <div className="mt-5 flex flex-col gap-2">
      <p className="text-sm font-medium">
        Skipped {reply.skipped.length} {reply.skipped.length === 1 ? 'entry' : 'entries'}:
      </p>
      <ul className="flex max-h-56 flex-col gap-1 overflow-y-auto rounded-lg border border-zinc-200 p-2 text-sm dark:border-zinc-800" data-testid="import-skipped">
        {reply.skipped.map((entry) => (
          <li key={entry.path} className="break-words">
            <span className="font-mono text-xs">{entry.path}</span>{' '}
            <span className="text-zinc-500 dark:text-zinc-400">({skippedReason(entry)})</span>
          </li>
        ))}
      </ul>
      <ModalActions>
        <Button variant="outline" onClick={onClose}>
          Close
        </Button>
        <Button onClick={onOpen} autoFocus data-testid="import-open">
          Open project
        </Button>
      </ModalActions>
    </div>
  );
}
