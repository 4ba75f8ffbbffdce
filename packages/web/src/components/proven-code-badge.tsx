import type { VerificationRecord, VerificationVerdict } from '@wolfpack/core';
import { CircleCheck, CircleX, LoaderCircle, ShieldQuestion, TriangleAlert } from 'lucide-react';
import { Link } from 'react-router-dom';
import type { RecheckState } from '../api/file-edits';
import { cn } from '../lib/cn';
import { VERDICT_LABEL } from '../lib/verification-view';

// Green and a tick for passed only, as in the Proven Code tab: "not proven" never looks like success.
const STYLE: Record<VerificationVerdict, { icon: typeof CircleCheck; className: string }> = {
  passed: { icon: CircleCheck, className: 'bg-emerald-600 text-white' },
  failed: { icon: CircleX, className: 'bg-red-600 text-white' },
  unproven: { icon: ShieldQuestion, className: 'bg-amber-100 text-amber-900 dark:bg-amber-500/20 dark:text-amber-200' },
};

const PILL = 'inline-flex items-center gap-1.5 rounded-full px-2.5 py-0.5 text-xs font-medium whitespace-nowrap';

export interface ProvenCodeBadgeProps {
  /** The current version's record (null: none). */
  verification: VerificationRecord | null | undefined;
  /** A check of a version just made, running or failed. */
  recheck: RecheckState | null;
  /** Where the full record is: the project page's Proven Code tab. */
  detailsHref: string;
}

/** Proven Code's verdict of the version the Files tab shows, or that it is being checked. */
export function ProvenCodeBadge({ verification, recheck, detailsHref }: ProvenCodeBadgeProps) {
  if (recheck?.status === 'checking') {
    return (
      <span className={cn(PILL, 'bg-zinc-100 text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300')} role="status" data-testid="proven-badge" data-state="checking" data-version={recheck.version}>
        <LoaderCircle className="h-3.5 w-3.5 animate-spin" aria-hidden />
        Proven Code: checking version {recheck.version}…
      </span>
    );
  }
  if (recheck?.status === 'failed') {
    return (
      <Link to={detailsHref} className={cn(PILL, 'bg-red-50 text-red-800 dark:bg-red-500/10 dark:text-red-200')} data-testid="proven-badge" data-state="error" data-version={recheck.version}>
        <TriangleAlert className="h-3.5 w-3.5" aria-hidden />
        Proven Code could not check version {recheck.version}: re-check it in the Proven Code tab
      </Link>
    );
  }
  if (!verification) {
    return (
      <Link to={detailsHref} className={cn(PILL, 'bg-zinc-100 text-zinc-600 dark:bg-zinc-800 dark:text-zinc-400')} data-testid="proven-badge" data-state="none">
        <ShieldQuestion className="h-3.5 w-3.5" aria-hidden />
        Proven Code: not checked
      </Link>
    );
  }
  const { icon: Icon, className } = STYLE[verification.verdict];
  return (
    <Link
      to={detailsHref}
      className={cn(PILL, className)}
      title={verification.proven}
      data-testid="proven-badge"
      data-state="checked"
      data-verdict={verification.verdict}
      data-version={verification.version}
    >
      <Icon className="h-3.5 w-3.5" aria-hidden />
      Proven Code: {VERDICT_LABEL[verification.verdict]} · version {verification.version}
    </Link>
  );
}
