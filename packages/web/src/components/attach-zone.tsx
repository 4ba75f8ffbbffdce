import { ATTACHMENT_ACCEPT_ATTRIBUTE, MAX_ATTACHMENTS, isImageAttachment, type Attachment } from '@wolfpack/core';
import { ChevronDown, CloudUpload, FileText, Image, Paperclip, X } from 'lucide-react';
import { useId, useRef, useState, type DragEvent } from 'react';
import { toast } from '../hooks/use-toast';
import { checkAttachments, formatFileSize, readAttachment } from '../lib/attachments';
import { cn } from '../lib/cn';

export interface AttachZoneProps {
  attachments: readonly Attachment[];
  onChange: (update: (current: readonly Attachment[]) => readonly Attachment[]) => void;
  /** Writes a line to the Activity Feed. */
  onLog: (type: string, message: string) => void;
  disabled?: boolean;
}

/**
 * The collapsible file-attach zone (spec core §2, §5): drag and drop or a file picker, at most 5
 * files of 5 MB each, a list with remove buttons.
 */
export function AttachZone({ attachments, onChange, onLog, disabled = false }: AttachZoneProps) {
  const [open, setOpen] = useState(false);
  const [dragging, setDragging] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const contentId = useId();
  const count = attachments.length;

  async function addFiles(files: File[]) {
    const { accepted, problems } = checkAttachments(count, files);
    for (const problem of problems) {
      onLog('warning', problem.description);
      toast({ title: problem.title, description: problem.description, variant: 'destructive' });
    }
    const read = await Promise.allSettled(accepted.map(readAttachment));
    const added: Attachment[] = [];
    for (const [index, result] of read.entries()) {
      if (result.status === 'fulfilled') added.push(result.value);
      else {
        const message = `Failed to read ${accepted[index]?.name ?? 'a file'}`;
        onLog('error', message);
        toast({ title: 'Error', description: message, variant: 'destructive' });
      }
    }
    if (added.length > 0) {
      onChange((current) => [...current, ...added].slice(0, MAX_ATTACHMENTS));
      onLog('info', `Attached ${added.map((a) => a.filename).join(', ')}`);
    }
  }

  function onDrop(event: DragEvent<HTMLDivElement>) {
    event.preventDefault();
    setDragging(false);
    if (disabled) return;
    void addFiles([...event.dataTransfer.files]);
  }

  return (
    <div className="rounded-lg border border-zinc-200 dark:border-zinc-800" data-testid="attach-zone">
      <button
        type="button"
        onClick={() => setOpen(!open)}
        aria-expanded={open}
        aria-controls={contentId}
        className="flex w-full cursor-pointer items-center justify-between gap-2 rounded-lg px-3 py-2 text-sm text-zinc-700 transition-colors hover:bg-zinc-50 dark:text-zinc-300 dark:hover:bg-zinc-800/60"
      >
        <span className="flex items-center gap-2">
          <Paperclip className="h-4 w-4" aria-hidden />
          Attach files
          <span
            className={cn(
              'rounded-full px-1.5 py-0.5 text-xs tabular-nums',
              count > 0 ? 'bg-brand/15 text-brand-strong' : 'bg-zinc-100 text-zinc-500 dark:bg-zinc-800',
            )}
            data-testid="attachment-count"
          >
            {count}/{MAX_ATTACHMENTS}
          </span>
        </span>
        <ChevronDown className={cn('h-4 w-4 text-zinc-500 transition-transform', open && 'rotate-180')} aria-hidden />
      </button>
      {open ? (
        <div id={contentId} className="flex flex-col gap-3 border-t border-zinc-200 p-3 dark:border-zinc-800">
          <div
            onDragOver={(event) => {
              event.preventDefault();
              if (!disabled) setDragging(true);
            }}
            onDragLeave={() => setDragging(false)}
            onDrop={onDrop}
            data-testid="drop-zone"
            className={cn(
              'flex flex-col items-center gap-1.5 rounded-lg border-2 border-dashed px-4 py-5 text-center text-sm transition-colors',
              dragging
                ? 'border-brand bg-brand/5'
                : 'border-zinc-200 text-zinc-500 dark:border-zinc-700 dark:text-zinc-400',
            )}
          >
            <CloudUpload className={cn('h-6 w-6', dragging ? 'text-brand' : 'text-zinc-400')} aria-hidden />
            <p>
              Drop files here or{' '}
              <button
                type="button"
                disabled={disabled}
                onClick={() => input.current?.click()}
                className="cursor-pointer font-medium text-brand-strong underline-offset-2 hover:underline disabled:opacity-60"
              >
                browse
              </button>
            </p>
            <p className="text-xs">Text, code and images · up to {MAX_ATTACHMENTS} files, 5MB each</p>
            <input
              ref={input}
              type="file"
              multiple
              accept={ATTACHMENT_ACCEPT_ATTRIBUTE}
              className="sr-only"
              tabIndex={-1}
              aria-label="Choose files to attach"
              data-testid="file-input"
              onChange={(event) => {
                const files = [...(event.target.files ?? [])];
                event.target.value = '';
                void addFiles(files);
              }}
            />
          </div>
          {count > 0 ? (
            <ul className="flex flex-col gap-1.5" aria-label="Attached files">
              {attachments.map((file, index) => {
                const Icon = isImageAttachment(file.filename, file.mimeType) ? Image : FileText;
                return (
                  <li
                    key={`${file.filename}-${index}`}
                    className="flex items-center gap-2.5 rounded-md bg-zinc-50 px-2.5 py-1.5 text-sm dark:bg-zinc-800/60"
                  >
                    <Icon className="h-4 w-4 shrink-0 text-zinc-500" aria-hidden />
                    <span className="min-w-0 flex-1 truncate" title={file.filename}>
                      {file.filename}
                    </span>
                    <span className="text-xs text-zinc-500 tabular-nums">{formatFileSize(file.size)}</span>
                    <button
                      type="button"
                      onClick={() => onChange((current) => current.filter((_, i) => i !== index))}
                      aria-label={`Remove ${file.filename}`}
                      className="cursor-pointer rounded p-0.5 text-zinc-500 hover:bg-zinc-200 hover:text-zinc-900 dark:hover:bg-zinc-700 dark:hover:text-white"
                    >
                      <X className="h-3.5 w-3.5" aria-hidden />
                    </button>
                  </li>
                );
              })}
            </ul>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
