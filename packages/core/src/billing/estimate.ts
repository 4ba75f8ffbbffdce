/**
 * What a run will probably cost, shown before it starts: a range, from the size of a
 * typical plan and the engines' prices, or, once the user has finished a few runs, from what those
 * runs used, priced at today's prices. An estimate, not a hold: what a run is charged is what its
 * engines report, call by call.
 */
import { PIPELINE_STAGES, type PipelineRole } from '../schemas/events.js';
import { callCostCents, formatCents } from './money.js';

/** What the range is drawn from (the API's `basis`). */
export const ESTIMATE_BASES = ['plan size and engine prices', 'your past runs'] as const;
export type EstimateBasis = (typeof ESTIMATE_BASES)[number];

/**
 * The plan-size model, in tokens (what engines report, about 4 characters a token). Low is a small
 * plan answered briefly with nothing to repair; high a large plan with long files and every repair
 * round used. Measured against the demo engines (a 4-file plan: 4,400 to 4,800 tokens in all).
 */
export const ESTIMATE_MODEL = {
  /** Characters per token of what engines report (English and code). */
  charsPerToken: 4,
  /** A call's system prompt and framing. */
  promptTokens: 250,
  /** Files a plan lists. */
  files: { low: 3, high: 12 },
  /** Characters of one plan line (path and purpose), which every Building call reads. */
  planLineChars: 80,
  /** Planning's answer. */
  planTokens: { low: 100, high: 1500 },
  /** One file as Building writes it. */
  fileTokens: { low: 250, high: 2500 },
  /** Polishing's answer ("UNCHANGED" at the least). */
  polishTokens: { low: 10, high: 2000 },
  /** One repair round's answer (Checking, Proven Code); low: nothing to repair, no call at all. */
  repairTokens: 2000,
  /** The most of the project's files one call reads (the context budget's order of size). */
  contextTokens: 8000,
} as const;

/** Past runs needed before they, rather than the plan-size model, give the range. */
export const PAST_RUNS_FOR_ESTIMATE = 3;
/** How many of the latest completed runs are looked at. */
export const PAST_RUNS_LOOKED_AT = 20;

export interface PlanEstimateInput {
  /** Characters every call carries: the idea and the text of its attachments. */
  ideaChars: number;
  /** Characters of the project a continued run builds on. @default 0 */
  existingChars?: number;
  cycles: number;
  /** The stages each cycle does. @default all five */
  stages?: readonly PipelineRole[];
  /** Price per 1,000 tokens of each engine, in modelOrder: stage n starts on prices[n mod count]. */
  prices: readonly number[];
  /** @default 2 */
  repairRounds?: number;
}

export interface CentsRange {
  lowCents: number;
  highCents: number;
}

export interface RunEstimate extends CentsRange {
  basis: EstimateBasis;
  /** The completed runs the range was drawn from (0 for the plan-size model). */
  pastRuns: number;
}

type Bound = 'low' | 'high';

/** The engine price of each stage position, as the engine runner assigns engines (modelOrder[n mod count]). */
export function stagePrices(prices: readonly number[], stages: readonly PipelineRole[], cycles: number): Array<{ role: PipelineRole; price: number }> {
  const count = Math.max(1, stages.length * cycles);
  return Array.from({ length: count }, (_, position) => ({ role: stages[position % stages.length]!, price: prices.length > 0 ? prices[position % prices.length]! : 0 }));
}

/** The calls one stage makes at one bound, as (count, tokens of each). */
export function stageCalls(role: PipelineRole, bound: Bound, input: { ideaChars: number; existingChars: number; repairRounds: number }): { calls: number; tokens: number } {
  const m = ESTIMATE_MODEL;
  const files = m.files[bound];
  const fileTokens = m.fileTokens[bound];
  const idea = Math.ceil(input.ideaChars / m.charsPerToken);
  // What the project's files add to a call that reads them: what is there plus what Building writes.
  const project = Math.min(m.contextTokens, Math.ceil(input.existingChars / m.charsPerToken) + files * fileTokens);
  switch (role) {
    case 'Planning':
      return { calls: 1, tokens: m.promptTokens + idea + Math.min(m.contextTokens, Math.ceil(input.existingChars / m.charsPerToken)) + m.planTokens[bound] };
    case 'Building':
      return { calls: files, tokens: m.promptTokens + idea + Math.ceil((files * m.planLineChars) / m.charsPerToken) + fileTokens };
    case 'Polishing':
      return { calls: 1, tokens: m.promptTokens + idea + project + m.polishTokens[bound] };
    case 'Checking':
    case 'Proven Code':
      return { calls: bound === 'low' ? 0 : input.repairRounds, tokens: m.promptTokens + idea + project + m.repairTokens };
    default: {
      const unreachable: never = role;
      return unreachable;
    }
  }
}

/**
 * The range from the plan-size model: each stage's calls at the price of the engine it starts on,
 * each call rounded up to whole cents as billing does. 0 to 0 on free engines.
 */
export function planEstimate(input: PlanEstimateInput): CentsRange {
  const shape = { ideaChars: Math.max(0, input.ideaChars), existingChars: Math.max(0, input.existingChars ?? 0), repairRounds: input.repairRounds ?? 2 };
  const positions = stagePrices(input.prices, input.stages ?? PIPELINE_STAGES, Math.max(1, input.cycles));
  const at = (bound: Bound) =>
    positions.reduce((sum, { role, price }) => {
      const { calls, tokens } = stageCalls(role, bound, shape);
      return sum + calls * callCostCents(price, tokens);
    }, 0);
  return { lowCents: at('low'), highCents: at('high') };
}

/**
 * What a past run would cost at today's prices: the tokens each of its stages used, per cycle, at
 * the price of the engine that stage starts on now, for this run's cycles.
 */
export function repricedRunCents(tokensByRole: Partial<Record<PipelineRole, number>>, pastCycles: number, now: { prices: readonly number[]; stages?: readonly PipelineRole[]; cycles: number }): number {
  const stages = now.stages ?? PIPELINE_STAGES;
  const positions = stagePrices(now.prices, stages, 1);
  const scale = Math.max(1, now.cycles) / Math.max(1, pastCycles);
  return positions.reduce((sum, { role, price }) => sum + callCostCents(price, (tokensByRole[role] ?? 0) * scale), 0);
}

/** The value at `fraction` of the sorted values, by nearest rank (0.5: the median's upper middle). */
export function percentile(values: readonly number[], fraction: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil(fraction * sorted.length)));
  return sorted[rank - 1]!;
}

/**
 * The estimate before a run: the median and the 90th percentile of `pastRunCents` (the user's
 * latest completed runs at today's prices) once there are {@link PAST_RUNS_FOR_ESTIMATE}, else the
 * plan-size range.
 */
export function estimateRun(input: PlanEstimateInput, pastRunCents: readonly number[] = []): RunEstimate {
  if (pastRunCents.length >= PAST_RUNS_FOR_ESTIMATE) {
    return { lowCents: percentile(pastRunCents, 0.5), highCents: percentile(pastRunCents, 0.9), basis: 'your past runs', pastRuns: pastRunCents.length };
  }
  return { ...planEstimate(input), basis: 'plan size and engine prices', pastRuns: 0 };
}

/**
 * The estimate as the build screen and `wolfpack build` show it before a run: "Estimated cost:
 * $0.12–$0.40", one amount when the range is one, "free" on engines that cost nothing.
 */
export function estimateLine(estimate: CentsRange): string {
  const { lowCents, highCents } = estimate;
  if (highCents === 0) return 'Estimated cost: free (these engines cost nothing)';
  if (lowCents === highCents) return `Estimated cost: about ${formatCents(highCents)}`;
  return `Estimated cost: ${formatCents(lowCents)}–${formatCents(highCents)}`;
}

/** What the range is drawn from, in words: the user's own runs, or the plan-size model. */
export function estimateBasisText(estimate: Pick<RunEstimate, 'basis' | 'pastRuns'>): string {
  return estimate.basis === 'your past runs'
    ? `from your last ${estimate.pastRuns} ${estimate.pastRuns === 1 ? 'run' : 'runs'} at today's prices`
    : "from a typical plan's size at the engines' prices";
}
