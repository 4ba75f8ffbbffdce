/**
 * Pure helpers of the PackCast screens (companion §3 Capsule, §9 Capsules): metric formats, the
 * capsule's public URL and the share links of the Share dialog.
 */
import type { Capsule, CapsuleEvent, CapsuleEventType, CapsuleMetrics, VerificationVerdict } from '@wolfpack/core';

/** Cost in dollars: totalCost (cents, possibly fractional) / 100 with 3 decimals, e.g. '$0.042'. */
export function formatCapsuleCost(totalCostCents: number): string {
  const dollars = Number.isFinite(totalCostCents) ? totalCostCents / 100 : 0;
  return `$${dollars.toFixed(3)}`;
}

/** Duration in seconds: totalDuration (ms) / 1000 with 1 decimal, e.g. '12.3s'. */
export function formatCapsuleDuration(totalDurationMs: number): string {
  const seconds = Number.isFinite(totalDurationMs) ? totalDurationMs / 1000 : 0;
  return `${seconds.toFixed(1)}s`;
}

/** A count with thousands separators in US English ('12,345'). */
export function formatCount(value: number): string {
  return (Number.isFinite(value) ? value : 0).toLocaleString('en-US');
}

/** The model names of modelVotes (comma-separated), trimmed, empty ones dropped. */
export function modelVoteList(modelVotes: string | null | undefined): string[] {
  return (modelVotes ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name.length > 0);
}

/** The four figures of the metrics panel, already formatted. */
export function capsuleMetricFigures(metrics: CapsuleMetrics) {
  return {
    duration: formatCapsuleDuration(metrics.totalDuration),
    tokens: formatCount(metrics.totalTokens),
    cost: formatCapsuleCost(metrics.totalCost),
    models: modelVoteList(metrics.modelVotes),
  };
}

/** Proven Code's verdict as the capsule page shows it; capsules recorded before verdicts were kept say so. */
export function capsuleVerdictLabel(verdict: VerificationVerdict | undefined): string {
  switch (verdict) {
    case 'passed':
      return 'Passed';
    case 'failed':
      return 'Failed';
    case 'unproven':
      return 'Not proven';
    case undefined:
      return 'Not recorded';
    default: {
      const unreachable: never = verdict;
      return unreachable;
    }
  }
}

const EVENT_LABELS: Record<CapsuleEventType, string> = {
  prompt_received: 'Prompt received',
  model_enhanced: 'Model enhanced',
  enhancement_selected: 'Enhancement selected',
  code_refined: 'Code refined',
  session_complete: 'Session complete',
};

/** A readable label of a timeline event type ('code_refined' → 'Code refined'). */
export function capsuleEventLabel(type: CapsuleEventType): string {
  return EVENT_LABELS[type];
}

/** The capsule's public page: `{origin}/capsules/{slug}` (the slug is URL-encoded). */
export function capsuleUrl(origin: string, slug: string): string {
  return `${origin.replace(/\/+$/, '')}/capsules/${encodeURIComponent(slug)}`;
}

/** The public URL that a share carries: the capsule URL plus `?ref={code}` when there is a code. */
export function capsuleShareUrl(origin: string, slug: string, referralCode?: string | null): string {
  const url = capsuleUrl(origin, slug);
  const code = referralCode?.trim();
  return code ? `${url}?ref=${encodeURIComponent(code)}` : url;
}

/** The sentence a tweet starts with. */
export function capsuleShareText(capsule: Pick<Capsule, 'title'>): string {
  return `Check out "${capsule.title}" on Wolfpack PackCast`;
}

/** Twitter's web intent with the text and URL as separate, encoded parameters. */
export function twitterShareUrl(text: string, url: string): string {
  const params = new URLSearchParams({ text, url });
  return `https://twitter.com/intent/tweet?${params.toString()}`;
}

/** LinkedIn's share-offsite page for a URL (it reads title and description from Open Graph tags). */
export function linkedInShareUrl(url: string): string {
  return `https://www.linkedin.com/sharing/share-offsite/?url=${encodeURIComponent(url)}`;
}

/** The totals of My capsules: how many, views and shares summed, public and private counts. */
export function capsuleTotals(capsules: readonly Pick<Capsule, 'viewCount' | 'shareCount' | 'isPublic'>[]) {
  let views = 0;
  let shares = 0;
  let publicCount = 0;
  for (const capsule of capsules) {
    views += capsule.viewCount;
    shares += capsule.shareCount;
    if (capsule.isPublic) publicCount += 1;
  }
  return { count: capsules.length, views, shares, publicCount, privateCount: capsules.length - publicCount };
}

/** The event types that are about enhancing the prompt; only they can be an enhanced step. */
const ENHANCEMENT_EVENTS: ReadonlySet<CapsuleEventType> = new Set(['model_enhanced', 'enhancement_selected']);

/**
 * Whether the timeline marks an event "Enhanced": an enhancement step that refined the prompt, or
 * the refined prompt chosen for the build. The recorder also sets `enhanced` on code and
 * completion events (for a stage that finished, a gate that passed); those steps enhanced no
 * prompt, so they are never labelled so, and a build without AI Enhance shows no "Enhanced" at all.
 */
export function isEnhancedStep(event: Pick<CapsuleEvent, 'eventType' | 'data'>): boolean {
  const flag = event.data.enhanced;
  return ENHANCEMENT_EVENTS.has(event.eventType) && (flag === true || flag === 'true');
}
