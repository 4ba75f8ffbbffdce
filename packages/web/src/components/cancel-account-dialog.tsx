import { LoaderCircle, UserX } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { describeRequestFailure } from '../api/client';
import { useCancelAccount } from '../api/queries';
import { Button } from './button';
import { Modal, ModalActions } from './modal';

export interface CancelAccountDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  username: string;
  /** Called once the account is closed (the session has ended). */
  onClosed: () => void;
}

/**
 * Cancel Account's confirmation: the username must be typed before DELETE /api/account is sent.
 * A failure stays in the dialog with the server's sentence.
 */
export function CancelAccountDialog({ open, onOpenChange, username, onClosed }: CancelAccountDialogProps) {
  const [typed, setTyped] = useState('');
  const [error, setError] = useState<string | undefined>();
  const cancel = useCancelAccount();
  const inputId = useId();
  const errorId = useId();
  const matches = typed.trim() === username;

  // A reopened dialog starts empty.
  useEffect(() => {
    if (open) {
      setTyped('');
      setError(undefined);
    }
  }, [open]);

  async function confirm() {
    if (!matches || cancel.isPending) return;
    setError(undefined);
    try {
      await cancel.mutateAsync();
      onClosed();
    } catch (failure) {
      setError(describeRequestFailure(failure, { failed: 'The account could not be cancelled.', exception: 'The account could not be cancelled.' }));
    }
  }

  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title="Cancel your account?"
      description="You are signed out everywhere, your personal data is removed and your username is freed. Your njin subscription is cancelled (it ends with the period already paid for) and your njin keys stop working; your Showcase listings are taken down (copies already bought stay with their buyers) and your capsules become private. Remaining credits are not refunded. This cannot be undone."
      icon={<UserX className="h-5 w-5" aria-hidden />}
      iconClass="bg-red-50 text-red-600 dark:bg-red-500/15 dark:text-red-400"
      busy={cancel.isPending}
      testId="cancel-account-dialog"
    >
      <form
        className="mt-5 flex flex-col gap-1.5"
        onSubmit={(event) => {
          event.preventDefault();
          void confirm();
        }}
      >
        <label htmlFor={inputId} className="text-sm text-zinc-700 dark:text-zinc-300">
          Type your username <strong className="font-mono">{username}</strong> to confirm.
        </label>
        <input
          id={inputId}
          value={typed}
          onChange={(event) => setTyped(event.target.value)}
          autoComplete="off"
          spellCheck={false}
          disabled={cancel.isPending}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          className="h-10 rounded-lg border border-zinc-300 bg-white px-3 font-mono text-sm shadow-xs outline-none focus-visible:border-red-500 focus-visible:ring-2 focus-visible:ring-red-500/30 dark:border-zinc-700 dark:bg-zinc-950"
          data-testid="cancel-account-username"
        />
        {error ? (
          <p id={errorId} className="text-sm text-red-600 dark:text-red-400" role="alert">
            {error}
          </p>
        ) : null}
        <ModalActions>
          <Button variant="outline" onClick={() => onOpenChange(false)} disabled={cancel.isPending}>
            Keep my account
          </Button>
          <Button type="submit" variant="destructive" disabled={!matches || cancel.isPending} data-testid="confirm-cancel-account">
            {cancel.isPending ? <LoaderCircle className="h-4 w-4 animate-spin" aria-hidden /> : null}
            Cancel Account
          </Button>
        </ModalActions>
      </form>
    </Modal>
  );
}
