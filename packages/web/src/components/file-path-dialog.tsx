import { FilePen, FilePlus, LoaderCircle, RefreshCw } from 'lucide-react';
import { useEffect, useState, type FormEvent } from 'react';
import { Button } from './button';
import { InputField } from './input-field';
import { Modal, ModalActions } from './modal';

/**
 * What a submit came to: done (the dialog closes), or the server's sentence and whether it was a
 * 409 (the project moved on, or the name is taken), when Reload is offered beside it.
 */
export type PathSubmitResult = { ok: true } | { ok: false; message: string; stale: boolean };

export interface FilePathDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  mode: 'create' | 'rename';
  /** The path being renamed. */
  from?: string | undefined;
  onSubmit: (path: string) => Promise<PathSubmitResult>;
  /** Reads the project again after a 409, so a second try is made on the current version. */
  onReload: () => Promise<void>;
}

/**
 * The path of a new file, or a file's new path. The server decides what a good path is (no `..`,
 * no absolute paths, limits) and its sentence is shown under the field.
 */
export function FilePathDialog({ open, onOpenChange, mode, from, onSubmit, onReload }: FilePathDialogProps) {
  const [path, setPath] = useState('');
  const [error, setError] = useState<{ message: string; stale: boolean } | undefined>();
  const [pending, setPending] = useState(false);
  useEffect(() => {
    if (open) {
      setPath(from ?? '');
      setError(undefined);
    }
  }, [open, from]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const trimmed = path.trim();
    if (!trimmed) {
      setError({ message: 'Enter a path, e.g. src/utils.js', stale: false });
      return;
    }
    if (mode === 'rename' && trimmed === from) {
      onOpenChange(false);
      return;
    }
    setPending(true);
    try {
      const result = await onSubmit(trimmed);
      if (result.ok) onOpenChange(false);
      else setError({ message: result.message, stale: result.stale });
    } finally {
      setPending(false);
    }
  }

  async function reload() {
    setPending(true);
    try {
      await onReload();
      setError(undefined);
    } finally {
      setPending(false);
    }
  }

  const creating = mode === 'create';
  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title={creating ? 'New file' : 'Rename file'}
      description={creating ? 'An empty file at this path; saving it makes a new version.' : `Move "${from ?? ''}" to a new path, as a new version.`}
      icon={creating ? <FilePlus className="h-5 w-5" aria-hidden /> : <FilePen className="h-5 w-5" aria-hidden />}
      busy={pending}
      testId="file-path-dialog"
    >
      <form onSubmit={(event) => void submit(event)} className="mt-5" noValidate>
        <InputField
          label="Path"
          value={path}
          autoFocus
          maxLength={1024}
          placeholder="e.g. src/utils.js"
          spellCheck={false}
          className="font-mono"
          onChange={(event) => {
            setPath(event.target.value);
            if (error) setError(undefined);
          }}
          error={error?.message}
          disabled={pending}
          data-testid="file-path-input"
        />
        <ModalActions>
          {error?.stale ? (
            <Button variant="outline" onClick={() => void reload()} disabled={pending} data-testid="file-path-reload">
              <RefreshCw className="h-4 w-4" aria-hidden />
              Reload
            </Button>
          ) : null}
          <Button variant="outline" onClick={() => onOpenChange(false)} disabled={pending}>
            Cancel
          </Button>
          <Button type="submit" disabled={pending} data-testid="file-path-submit">
            {pending ? <LoaderCircle className="h-4 w-4 animate-spin" aria-hidden /> : null}
            {creating ? 'Create' : 'Rename'}
          </Button>
        </ModalActions>
      </form>
    </Modal>
  );
}
