import * as Dialog from '@radix-ui/react-dialog';
import { X } from 'lucide-react';
import type { ReactNode } from 'react';
import { cn } from '../lib/cn';

export interface ModalProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  /** One sentence under the title; also the dialog's accessible description. */
  description?: ReactNode;
  /** A badge-like icon left of the title. */
  icon?: ReactNode;
  /** The icon badge's colours. @default brand */
  iconClass?: string;
  children?: ReactNode;
  /** @default 'max-w-md' */
  widthClass?: string;
  testId?: string;
  /** While true, Escape, the overlay and the close button do nothing (a request is running). */
  busy?: boolean;
}

/** A centred dialog with the app's look: overlay, title, description, close button. */
export function Modal({ open, onOpenChange, title, description, icon, iconClass = 'bg-brand/15 text-brand-strong', children, widthClass = 'max-w-md', testId, busy = false }: ModalProps) {
  return (
    <Dialog.Root open={open} onOpenChange={(next) => (busy && !next ? undefined : onOpenChange(next))}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay fixed inset-0 z-50 bg-zinc-950/40 backdrop-blur-[2px]" />
        <Dialog.Content
          className={cn(
            'dialog-content fixed top-1/2 left-1/2 z-50 max-h-[calc(100dvh-2rem)] w-[calc(100vw-2rem)] -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-2xl border border-zinc-200 bg-white p-6 shadow-xl dark:border-zinc-800 dark:bg-zinc-900',
            widthClass,
          )}
          data-testid={testId}
          {...(description ? {} : { 'aria-describedby': undefined })}
        >
          <div className="flex items-start gap-4 pr-6">
            {icon ? (
              <span className={cn('grid h-11 w-11 shrink-0 place-items-center rounded-xl', iconClass)}>{icon}</span>
            ) : null}
            <div className="flex min-w-0 flex-col gap-1.5">
              <Dialog.Title className="text-lg font-semibold">{title}</Dialog.Title>
              {description ? (
                <Dialog.Description className="text-sm text-zinc-600 dark:text-zinc-400">{description}</Dialog.Description>
              ) : null}
            </div>
          </div>
          {children}
          <Dialog.Close
            aria-label="Close"
            disabled={busy}
            className="absolute top-3 right-3 cursor-pointer rounded-md p-1 text-zinc-500 hover:bg-zinc-100 hover:text-zinc-900 disabled:opacity-40 dark:hover:bg-zinc-800 dark:hover:text-white"
          >
            <X className="h-4 w-4" aria-hidden />
          </Dialog.Close>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/** The row of buttons at the bottom of a dialog, primary action last. */
export function ModalActions({ children }: { children: ReactNode }) {
  return <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">{children}</div>;
}
