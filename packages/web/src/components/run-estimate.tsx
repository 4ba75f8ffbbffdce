import { estimateBasisText, estimateLine, type RunEstimateReply } from '@wolfpack/core';

/**
 * The estimate line beside the start button: what the run would probably cost, and on
 * what the range is drawn. Nothing while there is no estimate (signed out, a blank prompt).
 */
export function RunEstimate({ estimate }: { estimate: RunEstimateReply | undefined }) {
  if (!estimate) return null;
  const basis = estimateBasisText(estimate);
  return (
    <p className="text-xs text-zinc-500 tabular-nums sm:text-right dark:text-zinc-400" data-testid="run-estimate" data-basis={estimate.basis} title={`An estimate ${basis}; you are charged for what the engines use.`}>
      {estimateLine(estimate)}
    </p>
  );
}
