import type { ProjectDetailReply, VerificationRecord, VersionChangeReply } from '@wolfpack/core';
import { Circle, FileCode2, FilePen, Info, LoaderCircle, RefreshCw, Save, Trash2, TriangleAlert } from 'lucide-react';
import { lazy, Suspense, useEffect, useMemo, useReducer, useRef, useState } from 'react';
import { describeRequestFailure, serverErrorText } from '../api/client';
import { isStaleEdit, type FileChange, type RecheckState } from '../api/file-edits';
import { useTheme } from '../hooks/use-theme';
import { useUnsavedGuard } from '../hooks/use-unsaved-guard';
import { toast } from '../hooks/use-toast';
import { EDITABLE_MAX_BYTES, fileDraftReducer, isDirty, openDraft } from '../lib/file-draft';
import { formatBytes, utf8Length } from '../lib/highlight';
import { Button } from './button';
import { CodeViewer } from './code-viewer';
import { ConfirmDialog } from './confirm-dialog';
import { CopyButton } from './copy-button';
import { FilePathDialog, type PathSubmitResult } from './file-path-dialog';
import { ProvenCodeBadge } from './proven-code-badge';

// CodeMirror arrives with the first file opened, never with the home page.
const CodeEditor = lazy(() => import('./code-editor'));

const STALE_FALLBACK = 'This project changed since you opened the file (another tab or a run made a new version).';

export interface FileEditorProps {
  projectId: string;
  path: string;
  /** The file's text in the project's current version. */
  serverContent: string;
  /** The current version; undefined from a server that does not say (then nothing can be saved). */
  serverVersion: number | undefined;
  verification: VerificationRecord | null | undefined;
  recheck: RecheckState | null;
  /** Sends a change; rejects with the server's error. */
  send: (change: FileChange) => Promise<VersionChangeReply>;
  pending: boolean;
  /** Reads the project again and resolves with what the server now says. */
  reloadProject: () => Promise<ProjectDetailReply | undefined>;
  /** Opens another file; null: whichever the project opens first. */
  onSelect: (path: string | null) => void;
}

/**
 * One file of the Files tab in the code editor: Save (Ctrl/Cmd-S), Rename and Delete, each a new
 * version made on the version the file was opened on. A 409 keeps the user's text and says what
 * happened until they choose to reload. Files too large to save open read-only.
 */
export function FileEditor(props: FileEditorProps) {
  const { projectId, path, serverContent, serverVersion, send, pending, onSelect } = props;
  const [draft, dispatch] = useReducer(fileDraftReducer, undefined, () => openDraft(serverVersion, serverContent));
  const dirty = isDirty(draft);
  const guard = useUnsavedGuard(dirty);
  const { theme } = useTheme();
  const [conflict, setConflict] = useState<string | null>(null);
  const [renaming, setRenaming] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [reloading, setReloading] = useState(false);
  // Measured once per version of the file, not on every key typed.
  const bytes = useMemo(() => utf8Length(draft.base), [draft.base]);
  const readOnly = bytes > EDITABLE_MAX_BYTES;
  const canWrite = draft.version !== undefined;

  // A version made elsewhere is taken over while nothing is unsaved (see fileDraftReducer).
  useEffect(() => dispatch({ type: 'server', version: serverVersion, content: serverContent }), [serverVersion, serverContent]);

  function failed(error: unknown, what: string) {
    if (isStaleEdit(error)) setConflict(serverErrorText(error) ?? STALE_FALLBACK);
    else toast({ title: `${what} failed`, description: describeRequestFailure(error, { failed: `The server did not take the change.`, exception: 'Check your connection and try again.' }), variant: 'destructive' });
  }

  async function save() {
    if (!dirty || pending || readOnly || draft.version === undefined) return;
    const content = draft.text;
    try {
      const reply = await send({ kind: 'save', path, content, expectedVersion: draft.version });
      dispatch({ type: 'saved', version: reply.version.number, content });
      setConflict(null);
      toast({ title: `Saved as version ${reply.version.number}`, description: `${path} · ${reply.version.label}` });
    } catch (error) {
      failed(error, 'Save');
    }
  }
  // CodeMirror's Ctrl/Cmd-S calls the latest save.
  const saveNow = useRef(save);
  saveNow.current = save;

  async function rename(to: string): Promise<PathSubmitResult> {
    if (draft.version === undefined) return { ok: false, message: 'This server does not say which version the file is.', stale: false };
    try {
      const reply = await send({ kind: 'rename', from: path, path: to, content: draft.text, expectedVersion: draft.version });
      toast({ title: `Renamed as version ${reply.version.number}`, description: `${path} is now ${to}` });
      guard.settled();
      onSelect(to);
      return { ok: true };
    } catch (error) {
      return { ok: false, message: describeRequestFailure(error, { failed: 'The file could not be renamed.', exception: 'Check your connection and try again.' }), stale: isStaleEdit(error) };
    }
  }

  async function remove() {
    if (draft.version === undefined) return;
    try {
      const reply = await send({ kind: 'delete', path, expectedVersion: draft.version });
      setDeleting(false);
      toast({ title: `Deleted as version ${reply.version.number}`, description: `${path} is gone from the project; earlier versions still have it.` });
      guard.settled();
      onSelect(null);
    } catch (error) {
      setDeleting(false);
      failed(error, 'Delete');
    }
  }

  /** The project's current file replaces the user's text: they chose it. */
  async function reload() {
    setReloading(true);
    try {
      const fresh = await props.reloadProject();
      if (!fresh) return;
      setConflict(null);
      if (!Object.hasOwn(fresh.project.fsIndex, path)) {
        guard.settled();
        toast({ title: 'File removed', description: `${path} is not in version ${fresh.version ?? 'current'} of the project.` });
        onSelect(null);
        return;
      }
      dispatch({ type: 'reload', version: fresh.version, content: fresh.project.fsIndex[path] ?? '' });
    } catch (error) {
      toast({ title: 'Reload failed', description: describeRequestFailure(error, { failed: 'The project could not be read.', exception: 'Check your connection and try again.' }), variant: 'destructive' });
    } finally {
      setReloading(false);
    }
  }

  const viewer = <CodeViewer path={path} content={draft.text} />;
  const deleteButton = (
    <Button size="sm" variant="outline" onClick={() => setDeleting(true)} disabled={pending || !canWrite} data-testid="delete-file" aria-label={`Delete ${path}`}>
      <Trash2 className="h-4 w-4" aria-hidden />
      Delete
    </Button>
  );
  const dialogs = (
    <>
      <FilePathDialog open={renaming} onOpenChange={setRenaming} mode="rename" from={path} onSubmit={rename} onReload={reload} />
      <ConfirmDialog
        open={deleting}
        onOpenChange={setDeleting}
        title={`Delete ${path}?`}
        description="The file is removed in a new version of the project. Earlier versions keep it, so it can be restored from the Versions tab."
        onConfirm={() => void remove()}
        pending={pending}
        testId="delete-file-dialog"
      />
      <ConfirmDialog
        open={guard.blocker.state === 'blocked'}
        onOpenChange={(open) => {
          if (!open) guard.blocker.reset?.();
        }}
        title="Leave without saving?"
        description={`${path} has changes that are not saved. Leaving drops them.`}
        confirmLabel="Discard changes"
        onConfirm={() => guard.blocker.proceed?.()}
        testId="unsaved-dialog"
      />
    </>
  );
  const conflictAlert =
    conflict !== null ? (
      <div className="flex flex-wrap items-center gap-3 border-b border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900 dark:border-amber-500/30 dark:bg-amber-500/10 dark:text-amber-200" role="alert" data-testid="edit-conflict">
        <TriangleAlert className="h-4 w-4 shrink-0" aria-hidden />
        <p className="min-w-0 flex-1">
          <span data-testid="edit-conflict-message">{conflict}</span> Your text stays in the editor until you reload; copy it first to keep it.
        </p>
        <Button size="sm" variant="outline" onClick={() => void reload()} disabled={reloading} data-testid="edit-conflict-reload">
          {reloading ? <LoaderCircle className="h-4 w-4 animate-spin" aria-hidden /> : <RefreshCw className="h-4 w-4" aria-hidden />}
          Reload
        </Button>
      </div>
    ) : null;

  // Too large to save: the viewer as it was, with what can still be done (delete it).
  if (readOnly) {
    return (
      <div className="flex min-w-0 flex-col gap-3" data-testid="file-editor" data-path={path} data-read-only="true">
        <div className="flex flex-wrap items-center gap-3 rounded-xl border border-zinc-200 bg-white px-4 py-2.5 text-sm text-zinc-700 shadow-sm dark:border-zinc-800 dark:bg-zinc-900 dark:text-zinc-300">
          <Info className="h-4 w-4 shrink-0 text-brand" aria-hidden />
          <p className="min-w-0 flex-1" data-testid="file-read-only">
            This file is {formatBytes(bytes)}, more than the {formatBytes(EDITABLE_MAX_BYTES)} a file may hold, so it opens read-only.
          </p>
          {deleteButton}
        </div>
        {conflictAlert}
        {viewer}
        {dialogs}
      </div>
    );
  }

  // Until CodeMirror has loaded (the first file opened), the viewer shows the file as it is.
  return (
    <Suspense fallback={viewer}>
      <section
        className="flex min-w-0 flex-col overflow-hidden rounded-xl border border-zinc-200 bg-white shadow-sm dark:border-zinc-800 dark:bg-zinc-900"
        aria-label={`Edit ${path}`}
        data-testid="file-editor"
        data-path={path}
        data-dirty={dirty}
        data-version={draft.version}
      >
        <header className="flex flex-wrap items-center justify-between gap-3 border-b border-zinc-200 px-4 py-2.5 dark:border-zinc-800">
          <div className="flex min-w-0 items-center gap-2">
            <FileCode2 className="h-4 w-4 shrink-0 text-brand" aria-hidden />
            <h2 className="truncate font-mono text-sm font-medium" data-testid="viewer-path" title={path}>
              {path}
            </h2>
            {dirty ? (
              <span className="inline-flex items-center gap-1 text-xs font-medium text-amber-700 dark:text-amber-400" data-testid="unsaved-marker">
                <Circle className="h-2 w-2 fill-current" aria-hidden />
                Unsaved
              </span>
            ) : null}
          </div>
          <div className="flex flex-wrap items-center gap-2">
            <ProvenCodeBadge verification={props.verification} recheck={props.recheck} detailsHref={`/projects/${projectId}?tab=proven-code`} />
            <Button size="sm" onClick={() => void save()} disabled={!dirty || pending || !canWrite} data-testid="save-file" title="Save (Ctrl+S)">
              {pending ? <LoaderCircle className="h-4 w-4 animate-spin" aria-hidden /> : <Save className="h-4 w-4" aria-hidden />}
              Save
            </Button>
            <Button size="sm" variant="outline" onClick={() => setRenaming(true)} disabled={pending || !canWrite} data-testid="rename-file">
              <FilePen className="h-4 w-4" aria-hidden />
              Rename
            </Button>
            {deleteButton}
            <CopyButton size="sm" text={() => draft.text} what="the file" data-testid="copy-file" aria-label={`Copy ${path}`} />
          </div>
        </header>
        {conflictAlert}
        <CodeEditor
          path={path}
          value={draft.text}
          revision={draft.revision}
          dark={theme === 'dark'}
          onChange={(text) => dispatch({ type: 'typed', text })}
          onSave={() => void saveNow.current()}
        />
        {dialogs}
      </section>
    </Suspense>
  );
}
