import { Gift } from 'lucide-react';
import type { ReactNode } from 'react';
import { CopyButton } from './copy-button';

export interface ReferralCardProps {
  code: string;
  link: string;
  /** The QR code beside the link (Referrals page). */
  qr?: ReactNode;
  /** One line under the heading. */
  note?: ReactNode;
}

/** The user's referral code and link with a copy-link button ('Copied!' for 2 s). */
export function ReferralCard({ code, link, qr, note }: ReferralCardProps) {
  return (
    <div className="@container flex flex-col gap-4 rounded-xl border border-zinc-200 p-5 dark:border-zinc-800" data-testid="referral-card">
      <div className="flex items-start justify-between gap-3">
        <div>
          <p className="flex items-center gap-1.5 text-sm font-medium text-zinc-600 dark:text-zinc-400">
            <Gift className="h-4 w-4" aria-hidden />
            Your referral code
          </p>
          <p className="mt-1 font-mono text-2xl font-semibold tracking-wider" data-testid="referral-code">
            {code}
          </p>
          {note ? <p className="mt-1 text-sm text-zinc-500 dark:text-zinc-400">{note}</p> : null}
        </div>
        {qr}
      </div>
      {/* The card sits in half a column on Settings: the link gets its own line when the card is narrow. */}
      <div className="flex flex-col items-stretch gap-2 @md:flex-row @md:items-center">
        <label className="sr-only" htmlFor={`referral-link-${code}`}>
          Referral link
        </label>
        <input
          id={`referral-link-${code}`}
          readOnly
          value={link}
          onFocus={(event) => event.currentTarget.select()}
          className="h-9 w-full min-w-0 shrink-0 rounded-lg border border-zinc-300 bg-zinc-50 px-3 font-mono text-xs @md:flex-1 text-zinc-700 outline-none focus-visible:ring-2 focus-visible:ring-brand/40 dark:border-zinc-700 dark:bg-zinc-950 dark:text-zinc-300"
          data-testid="referral-link"
        />
        <CopyButton text={() => link} label="Copy link" copiedLabel="Copied!" what="the link" className="self-end" data-testid="copy-referral-link" />
      </div>
    </div>
  );
}
