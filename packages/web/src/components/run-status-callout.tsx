import { LoaderCircle, Play, RefreshCw, TriangleAlert, Wallet } from 'lucide-react';
import { Link } from 'react-router-dom';
import type { PipelineState } from '../lib/pipeline-state';
import { Button, buttonClass } from './button';
import { SignInLinks } from './sign-in-prompt';

export interface RunStatusCalloutProps {
  state: Pick<PipelineState, 'phase' | 'reconnectAttempt' | 'error' | 'paymentRequired'> & Partial<Pick<PipelineState, 'onlyStages'>>;
  onResume: () => void;
  onReconnect: () => void;
}

const calloutClass = 'flex flex-col gap-3 rounded-xl border p-4 text-sm sm:flex-row sm:items-center sm:justify-between';
const amber = 'border-amber-300 bg-amber-50 text-amber-950 dark:border-amber-500/40 dark:bg-amber-500/10 dark:text-amber-100';

/**
 * What the run needs from the user, when it needs something: wait while reconnecting, resume an
 * interrupted run, reconnect after giving up, sign in, or read why it failed.
 */
export function RunStatusCallout({ state, onResume, onReconnect }: RunStatusCalloutProps) {
  switch (state.phase) {
    case 'reconnecting':
      return (
        <div className={`${calloutClass} ${amber}`} role="status" data-testid="run-callout" data-phase="reconnecting">
          <p className="flex items-center gap-2 font-medium">
            <LoaderCircle className="h-4 w-4 animate-spin" aria-hidden />
            Reconnecting…
            {state.reconnectAttempt > 1 ? (
              <span className="font-normal opacity-80">attempt {state.reconnectAttempt}</span>
            ) : null}
          </p>
          <p className="opacity-80">The run continues on the server; its progress appears here again in a moment.</p>
        </div>
      );
    case 'interrupted':
      if (state.paymentRequired) {
        return (
          <div className={`${calloutClass} ${amber}`} role="alert" data-testid="run-callout" data-phase="payment-required">
            <p className="flex items-start gap-2">
              <Wallet className="mt-0.5 h-4 w-4 shrink-0" aria-hidden />
              <span>
                {state.error ?? 'Not enough credits for the next stage. Add credits in Settings.'}{' '}
                <span className="opacity-80">
                  {/* A repair run has no earlier stages of its own: what is kept is the project as it was. */}
                  {state.onlyStages ? 'The project stays as it is' : 'What earlier stages made is kept'}; resume the run once credits are added.
                </span>
              </span>
            </p>
            <div className="flex shrink-0 gap-2">
              <AddCreditsLink />
              <Button size="sm" variant="outline" onClick={onResume}>
                <Play className="h-4 w-4" aria-hidden />
                Resume
              </Button>
            </div>
          </div>
        );
      }
      return (
        <div className={`${calloutClass} ${amber}`} role="alert" data-testid="run-callout" data-phase="interrupted">
          <p className="flex items-center gap-2">
            <TriangleAlert className="h-4 w-4 shrink-0" aria-hidden />
            {/* The server's own sentence when it said why (its database went away), else the usual one. */}
            {state.error ?? 'The server stopped during this run. Resume it to continue from the last finished stage.'}
          </p>
          <Button size="sm" onClick={onResume}>
            <Play className="h-4 w-4" aria-hidden />
            Resume
          </Button>
        </div>
      );
    case 'disconnected':
      return (
        <div className={`${calloutClass} ${amber}`} role="alert" data-testid="run-callout" data-phase="disconnected">
          <p className="flex items-center gap-2">
            <TriangleAlert className="h-4 w-4 shrink-0" aria-hidden />
            Lost the connection to the run. It may still be running on the server.
          </p>
          <Button size="sm" variant="outline" onClick={onReconnect}>
            <RefreshCw className="h-4 w-4" aria-hidden />
            Reconnect
          </Button>
        </div>
      );
    case 'unauthorized':
      return (
        <div
          className={`${calloutClass} border-brand/40 bg-brand/5`}
          role="alert"
          data-testid="run-callout"
          data-phase="unauthorized"
        >
          <div>
            <p className="font-semibold">Sign in to start building</p>
            <p className="text-zinc-600 dark:text-zinc-400">
              Runs and their projects belong to an account. Sign in or create one, then start the pack again.
            </p>
          </div>
          <SignInLinks />
        </div>
      );
    case 'failed':
      return state.error ? (
        <div
          className={`${calloutClass} border-red-200 bg-red-50 text-red-900 dark:border-red-500/40 dark:bg-red-500/10 dark:text-red-200`}
          role="alert"
          data-testid="run-callout"
          data-phase="failed"
        >
          <p className="flex items-center gap-2">
            <TriangleAlert className="h-4 w-4 shrink-0" aria-hidden />
            {state.error}
          </p>
          {state.paymentRequired ? <AddCreditsLink /> : null}
        </div>
      ) : null;
    default:
      return null;
  }
}

/** The way to the credit packs in Settings. */
function AddCreditsLink() {
  return (
    <Link to="/settings#buy-credits" className={buttonClass('primary', 'sm')} data-testid="add-credits-link">
      <Wallet className="h-4 w-4" aria-hidden />
      Add credits
    </Link>
  );
}
