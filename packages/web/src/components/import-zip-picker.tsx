import { CloudUpload, FileArchive } from 'lucide-react';
import { useId, useRef, useState, type DragEvent } from 'react';
import { cn } from '../lib/cn';
import { fileLine, ZIP_ACCEPT, zipFileProblem } from '../lib/import-form';

export interface ImportZipPickerProps {
  file: File | null;
  /** A zip was picked or dropped. */
  onPick: (file: File) => void;
  /** Something else was picked or dropped: why it was not taken. */
  onRefuse: (message: string) => void;
  error?: string | undefined;
  disabled?: boolean;
}

/**
 * The zip's drop zone and file picker. The File is only held, never read: the import sends it as
 * the request body as it is.
 */
export function ImportZipPicker({ file, onPick, onRefuse, error, disabled = false }: ImportZipPickerProps) {
  const input = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  const errorId = useId();

  function take(files: readonly File[]) {
    const [first] = files;
    if (!first) return;
    const problem = files.length > 1 ? 'Drop one zip: the whole project folder, compressed.' : zipFileProblem(first);
    if (problem) onRefuse(problem);
    else onPick(first);
  }

  function onDrop(event: DragEvent<HTMLDivElement>) {
    event.preventDefault();
    setDragging(false);
    if (!disabled) take([...event.dataTransfer.files]);
  }

  return (
    <div className="flex flex-col gap-1.5">
      <div
        onDragOver={(event) => {
          event.preventDefault();
          if (!disabled) setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        aria-describedby={error ? errorId : undefined}
        data-testid="import-drop-zone"
        data-dragging={dragging || undefined}
        className={cn(
          'flex flex-col items-center gap-2 rounded-xl border-2 border-dashed px-4 py-6 text-center text-sm transition-colors',
          dragging
            ? 'border-brand bg-brand/5'
            : error
              ? 'border-red-400 dark:border-red-500/60'
              : 'border-zinc-200 text-zinc-500 dark:border-zinc-700 dark:text-zinc-400',
        )}
      >
        {file ? (
          <p className="flex max-w-full items-center gap-2 font-medium text-zinc-900 dark:text-zinc-100" data-testid="import-file">
            <FileArchive className="h-5 w-5 shrink-0 text-brand" aria-hidden />
            <span className="truncate">{fileLine(file)}</span>
          </p>
        ) : (
          <CloudUpload className={cn('h-7 w-7', dragging ? 'text-brand' : 'text-zinc-400')} aria-hidden />
        )}
        <p>
          {file ? 'Drop another zip here or ' : 'Drop the project’s .zip here or '}
          <button
            type="button"
            disabled={disabled}
            onClick={() => input.current?.click()}
            className="cursor-pointer font-medium text-brand-strong underline-offset-2 hover:underline disabled:opacity-60"
            data-testid="import-choose"
          >
            {file ? 'choose another' : 'choose a file'}
          </button>
        </p>
        <p className="text-xs">Dependencies such as node_modules and binary files are skipped; you will see which.</p>
        <input
          ref={input}
          type="file"
          accept={ZIP_ACCEPT}
          className="sr-only"
          tabIndex={-1}
          aria-label="Choose a zip file to import"
          disabled={disabled}
          data-testid="import-file-input"
          onChange={(event) => {
            take([...(event.target.files ?? [])]);
            // Cleared so picking the same file again (after fixing it on disk) still counts.
            event.target.value = '';
          }}
        />
      </div>
      {error ? (
        <p id={errorId} className="text-sm text-red-600 dark:text-red-400" data-testid="import-file-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}
