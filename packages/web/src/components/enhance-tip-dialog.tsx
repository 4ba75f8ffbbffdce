import * as Dialog from '@radix-ui/react-dialog';
import { WandSparkles, X } from 'lucide-react';
import { Button } from './button';

export interface EnhanceTipDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/** The one-time tip about AI Enhance (spec core §2 Home, §5). */
export function EnhanceTipDialog({ open, onOpenChange }: EnhanceTipDialogProps) {
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay fixed inset-0 z-50 bg-zinc-950/40 backdrop-blur-[2px]" />
        <Dialog.Content
          className="dialog-content fixed top-1/2 left-1/2 z-50 w-[calc(100vw-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-2xl border border-zinc-200 bg-white p-6 shadow-xl dark:border-zinc-800 dark:bg-zinc-900"
          data-testid="enhance-tip"
        >
          <div className="flex items-start gap-4">
            <span className="grid h-11 w-11 shrink-0 place-items-center rounded-xl bg-brand/15 text-brand-strong">
              <WandSparkles className="h-5 w-5" aria-hidden />
            </span>
            <div className="flex flex-col gap-1.5">
              <Dialog.Title className="text-lg font-semibold">Tip: try AI Enhance</Dialog.Title>
              <Dialog.Description className="text-sm text-zinc-600 dark:text-zinc-400">
                Before you start, AI Enhance can turn a short idea into a detailed brief: two passes through four
                engines add the features, structure and edge cases a good project needs. You can edit the result
                before the pack builds it.
              </Dialog.Description>
            </div>
          </div>
          <div className="mt-6 flex justify-end">
            <Dialog.Close asChild>
              <Button>Got it</Button>
            </Dialog.Close>
          </div>
          <Dialog.Close
            aria-label="Close"
            className="absolute top-3 right-3 cursor-pointer rounded-md p-1 text-zinc-500 hover:bg-zinc-100 hover:text-zinc-900 dark:hover:bg-zinc-800 dark:hover:text-white"
          >
            <X className="h-4 w-4" aria-hidden />
          </Dialog.Close>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
