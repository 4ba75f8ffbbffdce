import { folderName } from '@wolfpack/core';
import { FolderPen, FolderPlus, LoaderCircle } from 'lucide-react';
import { useEffect, useState, type FormEvent } from 'react';
import { Button } from './button';
import { InputField } from './input-field';
import { Modal, ModalActions } from './modal';

export interface FolderNameDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  mode: 'create' | 'rename';
  /** The name the field starts with (the current name when renaming). */
  initialName?: string;
  /** Where a new folder goes, shown in the description; undefined for a top-level folder. */
  parentName?: string | undefined;
  /** Resolves true when the server accepted the name (the dialog then closes). */
  onSubmit: (name: string) => Promise<boolean>;
}

/** Create or rename a folder (spec core §2 Folder tree sidebar, §5: the name may not be blank). */
export function FolderNameDialog({ open, onOpenChange, mode, initialName = '', parentName, onSubmit }: FolderNameDialogProps) {
  const [name, setName] = useState(initialName);
  const [error, setError] = useState<string | undefined>();
  const [pending, setPending] = useState(false);
  useEffect(() => {
    if (open) {
      setName(initialName);
      setError(undefined);
    }
  }, [open, initialName]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = folderName.safeParse(name);
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message);
      return;
    }
    setPending(true);
    try {
      if (await onSubmit(parsed.data)) onOpenChange(false);
    } finally {
      setPending(false);
    }
  }

  const creating = mode === 'create';
  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title={creating ? (parentName ? 'New Subfolder' : 'New Folder') : 'Rename Folder'}
      description={
        creating
          ? parentName
            ? `The folder goes inside "${parentName}".`
            : 'A top-level folder for your projects.'
          : `Give "${initialName}" a new name.`
      }
      icon={creating ? <FolderPlus className="h-5 w-5" aria-hidden /> : <FolderPen className="h-5 w-5" aria-hidden />}
      busy={pending}
      testId="folder-name-dialog"
    >
      <form onSubmit={(event) => void submit(event)} className="mt-5" noValidate>
        <InputField
          label="Folder name"
          value={name}
          autoFocus
          maxLength={100}
          placeholder="e.g. Client work"
          onChange={(event) => {
            setName(event.target.value);
            if (error && event.target.value.trim()) setError(undefined);
          }}
          error={error}
          disabled={pending}
          data-testid="folder-name-input"
        />
        <ModalActions>
          <Button variant="outline" onClick={() => onOpenChange(false)} disabled={pending}>
            Cancel
          </Button>
          <Button type="submit" disabled={pending} data-testid="folder-name-submit">
            {pending ? <LoaderCircle className="h-4 w-4 animate-spin" aria-hidden /> : null}
            {creating ? 'Create' : 'Rename'}
          </Button>
        </ModalActions>
      </form>
    </Modal>
  );
}
