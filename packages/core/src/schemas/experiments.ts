/**
 * The cost comparison lab (companion §2, §3 Experiment, §4, §5, §7).
 */
import { z } from 'zod';
import { cents, countLike, entityId, numberLike, timestamp } from './common.js';

export const PROMPT_TYPES = ['simple', 'medium', 'complex'] as const;
export type PromptType = (typeof PROMPT_TYPES)[number];
export const DEFAULT_PROMPT_TYPE: PromptType = 'medium';

export const experiment = z.object({
  id: entityId,
  projectName: z.string(),
  testPrompt: z.string(),
  promptType: z.enum(PROMPT_TYPES),
  /** Shown with underscores replaced by spaces. */
  status: z.string(),
  wolfpackCostCents: cents.nullable(),
  wolfpackProcessingTimeMs: countLike.nullable(),
  wolfpackReplitAssemblyCostCents: cents.nullable(),
  wolfpackReplitAssemblyTimeMs: countLike.nullable(),
  replitOnlyStartedAt: timestamp.nullable(),
  replitOnlyCompletedAt: timestamp.nullable(),
  replitOnlyTotalTimeMs: countLike.nullable(),
  replitOnlyCostCents: cents.nullable(),
  /** Null until a non-zero Replit-only cost is known; may be negative when Wolfpack costs more. */
  savingsPercent: numberLike.nullable(),
  createdAt: timestamp,
});
export type Experiment = z.infer<typeof experiment>;

/** GET /api/experiments */
export const experimentsReply = z.object({ experiments: z.array(experiment) });
export type ExperimentsReply = z.infer<typeof experimentsReply>;

/** GET /api/experiments/{id} */
export const experimentReply = z.object({ experiment });
export type ExperimentReply = z.infer<typeof experimentReply>;

const BOTH_REQUIRED = 'Please enter both project name and prompt';

/** POST /api/experiments/start */
export const startExperimentRequest = z.object({
  projectName: z.string(BOTH_REQUIRED).trim().min(1, BOTH_REQUIRED).max(200, 'Project names must be at most 200 characters'),
  testPrompt: z.string(BOTH_REQUIRED).trim().min(1, BOTH_REQUIRED).max(50_000, 'The prompt must be at most 50000 characters'),
  promptType: z.enum(PROMPT_TYPES, { error: 'Complexity is simple, medium or complex' }).default(DEFAULT_PROMPT_TYPE),
});
export type StartExperimentRequest = z.infer<typeof startExperimentRequest>;
export type StartExperimentRequestInput = z.input<typeof startExperimentRequest>;

/** The spec allows {experimentId} or {experiment.id}; Wolfpack answers both. */
export const startExperimentReply = z.object({ experimentId: entityId, experiment: experiment.optional() });
export type StartExperimentReply = z.infer<typeof startExperimentReply>;

/** Whole cents, at most $1,000,000 — a typo guard, far above any real experiment. */
const costCents = z
  .int('Enter costs as a whole number of cents')
  .nonnegative('Costs cannot be negative')
  .max(100_000_000, 'Costs must be at most 100000000 cents');

/** POST /api/experiments/{id}/submit-costs. The time is optional. */
export const submitCostsRequest = z.object({
  wolfpackReplitAssemblyCostCents: costCents,
  wolfpackReplitAssemblyTimeMs: z.int('Enter the time as whole milliseconds').nonnegative('Time cannot be negative').optional(),
  replitOnlyCostCents: costCents,
});
export type SubmitCostsRequest = z.infer<typeof submitCostsRequest>;
