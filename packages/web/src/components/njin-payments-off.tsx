import { TerminalSquare } from 'lucide-react';
import { njinGrantCommand } from '../lib/njin-format';
import { PaymentsOffNote } from './payments-off';

/**
 * The /njin page on a server without Stripe keys: a licence cannot be bought here, what the
 * operator sets to change that, and the command with which the operator grants one instead.
 */
export function NjinPaymentsOff({ username }: { username: string | null }) {
  return (
    <div data-testid="njin-payments-off" role="note">
      <PaymentsOffNote what="njin licences">
        <p>
          The server&apos;s operator can turn payments on by setting <code className="font-mono text-xs break-all">STRIPE_SECRET_KEY</code> and{' '}
          <code className="font-mono text-xs break-all">STRIPE_WEBHOOK_SECRET</code>, or grant you a licence from the command line:
        </p>
        <p className="flex items-start gap-2 rounded-md bg-zinc-950 px-3 py-2 font-mono text-xs text-zinc-100">
          <TerminalSquare className="mt-0.5 h-3.5 w-3.5 shrink-0 text-zinc-400" aria-hidden />
          <code className="min-w-0 break-all" data-testid="njin-grant-command">
            {njinGrantCommand(username)}
          </code>
        </p>
      </PaymentsOffNote>
    </div>
  );
}
