import { LoaderCircle, Trash2 } from 'lucide-react';
import type { ReactNode } from 'react';
import { Button } from './button';
import { Modal, ModalActions } from './modal';

export interface ConfirmDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  description: ReactNode;
  /** @default 'Delete' */
  confirmLabel?: string;
  onConfirm: () => void;
  /** The request runs: the buttons wait and the dialog stays open. */
  pending?: boolean;
  testId?: string;
}

/** Asks before something is destroyed: Delete (red) and Cancel (spec core §4 project deletion). */
export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  description,
  confirmLabel = 'Delete',
  onConfirm,
  pending = false,
  testId,
}: ConfirmDialogProps) {
  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title={title}
      description={description}
      icon={<Trash2 className="h-5 w-5" aria-hidden />}
      iconClass="bg-red-50 text-red-600 dark:bg-red-500/15 dark:text-red-400"
      busy={pending}
      {...(testId ? { testId } : {})}
    >
      <ModalActions>
        <Button variant="outline" onClick={() => onOpenChange(false)} disabled={pending}>
          Cancel
        </Button>
        <Button variant="destructive" onClick={onConfirm} disabled={pending} data-testid="confirm-delete">
          {pending ? <LoaderCircle className="h-4 w-4 animate-spin" aria-hidden /> : null}
          {confirmLabel}
        </Button>
      </ModalActions>
    </Modal>
  );
}
