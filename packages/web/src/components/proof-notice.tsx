import type { ProofCapability } from '@wolfpack/core';
import { ShieldQuestion, X } from 'lucide-react';
import { useState } from 'react';

// Dismissed until the page is loaded again: the build screen may be left and come back to, and
// the server's sandbox does not appear meanwhile (said once, not on every run).
let dismissedThisPage = false;

/**
 * Says once, above the build, why Proven Code's verdicts will be "not proven" (or pages not
 * loaded) on this server, and the one command that fixes it: the server's own sentence, with the
 * command set as code. Nothing when the server has what Proven Code needs or does not say.
 */
export function ProofNotice({ proof }: { proof: ProofCapability | undefined }) {
  const [dismissed, setDismissed] = useState(dismissedThisPage);
  if (!proof?.notice || dismissed) return null;
  const { notice, fix } = proof;
  const fixAt = fix ? notice.lastIndexOf(`Fix: ${fix}`) : -1;
  return (
    <div
      className="flex items-start gap-3 rounded-xl border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-950 dark:border-amber-500/30 dark:bg-amber-500/10 dark:text-amber-100"
      role="note"
      data-testid="proof-notice"
    >
      <ShieldQuestion className="mt-0.5 h-4 w-4 shrink-0 text-amber-600 dark:text-amber-300" aria-hidden />
      <p className="min-w-0 flex-1" data-testid="proof-notice-text">
        {fixAt < 0 ? (
          notice
        ) : (
          <>
            {notice.slice(0, fixAt)}Fix:{' '}
            <code className="rounded bg-amber-100 px-1 py-0.5 font-mono text-xs break-words dark:bg-amber-500/20">{fix}</code>
          </>
        )}
      </p>
      <button
        type="button"
        onClick={() => {
          dismissedThisPage = true;
          setDismissed(true);
        }}
        aria-label="Dismiss the Proven Code notice"
        className="cursor-pointer rounded p-1 opacity-70 transition-opacity hover:opacity-100"
      >
        <X className="h-4 w-4" aria-hidden />
      </button>
    </div>
  );
}
