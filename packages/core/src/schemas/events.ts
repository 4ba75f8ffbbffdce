/**
 * Every server-sent event, as zod discriminated unions on `type`. The pipeline stream
 * (POST /api/wolfpack/stream) and the enhancement stream (POST /api/multi-pass-enhancements) each
 * have their own union because both end with a `complete` event of a different shape.
 *
 * Clients decode each `data:` line with the union of their stream and handle it in a
 * `switch (event.type)` whose default is `const unreachable: never = event`.
 */
import { z } from 'zod';
import { verificationVerdict, type VerificationVerdict } from './verification.js';
import { ERROR_CODES } from '../errors.js';

/** The five stages of the build screen's pipeline display (spec core §1), in order. */
export const PIPELINE_STAGES = ['Planning', 'Building', 'Checking', 'Polishing', 'Proven Code'] as const;
export const pipelineRole = z.enum(PIPELINE_STAGES);
export type PipelineRole = z.infer<typeof pipelineRole>;

/** Feed item levels (spec core §3: success, warning, error; anything else is shown grey). */
export const LOG_LEVELS = ['info', 'success', 'warning', 'error'] as const;
export const logLevel = z.enum(LOG_LEVELS);
export type LogLevel = z.infer<typeof logLevel>;

const seconds = z.number().nonnegative();
const percent = z.number().min(0).max(100);
const count = z.int().nonnegative();

/** Where a run stands, sent with every stage event (spec core §3 Pipeline stage event). */
export const pipelineProgress = z.object({
  current: count,
  total: count,
  percent,
  elapsedSeconds: seconds,
  estimatedRemainingSeconds: seconds,
});
export type PipelineProgress = z.infer<typeof pipelineProgress>;

/** Sent first, so a client that loses the connection can reattach to the same run. */
export const runEvent = z.object({
  type: z.literal('run'),
  runId: z.string().min(1),
  conversationId: z.string().min(1),
  /** The stages this run does, when not all five (a "Repair again" run does Proven Code only). */
  stages: z.array(pipelineRole).min(1).optional(),
});

/**
 * A stage started (ok false: shown as running) or finished (ok true: shown as complete; ok false
 * with a `reason`, or a Proven Code gate that did not pass: shown as failed). See stage-status.ts.
 */
export const stageEvent = z.object({
  type: z.literal('stage'),
  role: pipelineRole,
  ok: z.boolean(),
  /** Seconds the stage took so far. */
  executionTime: seconds,
  progress: pipelineProgress,
  /** Generic engine label (never a vendor key, spec core §3). */
  engine: z.string().optional(),
  /** Why a finished stage failed, a phrase shown after "Failed: " ("the engines produced no files"). */
  reason: z.string().min(1).optional(),
});

/** How a step of Checking or Proven Code stands (see proof/proof-steps.ts). */
export const STEP_STATES = ['running', 'passed', 'failed', 'skipped', 'stopped'] as const;

/**
 * A feed line that starts or ends a step of Checking or Proven Code (an install, the type check, a
 * build…): both lines of a step share its id and start time. While no end line of the same id has
 * arrived, a client shows the running line's elapsed time ticking from `startedAt`. Lines without
 * it (runs stored before steps, every other line) are plain lines.
 */
export const logStep = z.object({
  id: z.string().min(1),
  state: z.enum(STEP_STATES),
  /** When the step started (ISO 8601). */
  startedAt: z.string().min(1),
  /** How long the step took: on its end line. */
  elapsedMs: count.optional(),
});
export type LogStep = z.infer<typeof logStep>;

/** One line of the Activity Feed. */
export const logEvent = z.object({
  type: z.literal('log'),
  id: z.string().min(1),
  level: logLevel,
  message: z.string(),
  timestamp: z.string(),
  step: logStep.optional(),
  /**
   * A line the server could not store (its database is unreachable): sent live to the run's
   * followers, never replayed. Its SSE id repeats the last stored event's, so a client shows it
   * even though that id is not new.
   */
  live: z.literal(true).optional(),
});

/** What the Proven Code gate verified and what still fails, file by file and check by check. */
export const verificationSummary = z.object({
  /** No check failed. Not the same as proven: see `verdict` (a project that could not be run is `unproven`). */
  passed: z.boolean(),
  /** Files a check covered. */
  checkedFiles: count,
  problems: z.array(z.object({ path: z.string(), check: z.string(), message: z.string() })),
  /** passed, failed or unproven (nothing failed, but what applies could not run: no sandbox on this server). */
  verdict: verificationVerdict.optional(),
  /** What was proven, as a sentence: "12 files checked (syntax, imports), 8 tests passed, starts cleanly." */
  proven: z.string().optional(),
  /** What was not: failures, checks that could not run and why, files no check covered. Empty when nothing. */
  notProven: z.string().optional(),
});
export type VerificationSummary = z.infer<typeof verificationSummary>;

/**
 * The verdict of a run's `complete` event; `unknown` when it reported no verification at all.
 * Servers from before verdicts send only `passed` ("no check failed"), the best word they have; a
 * summary that says a check failed is failed whatever else it says.
 */
export function summaryVerdict(summary: VerificationSummary | undefined): VerificationVerdict | 'unknown' {
  if (summary === undefined) return 'unknown';
  if (!summary.passed) return 'failed';
  return summary.verdict ?? 'passed';
}

export const pipelineCompleteEvent = z.object({
  type: z.literal('complete'),
  projectId: z.string().min(1),
  /** Number of files in the generated project. */
  filesGenerated: count,
  verification: verificationSummary.optional(),
  /** Seconds of engine work in this run, the base of the savings estimates. */
  executionSeconds: seconds.optional(),
});

/**
 * What the run has been charged so far: sent after each engine call that costs money,
 * and after a refund. Runs on free engines send none.
 */
export const costEvent = z.object({
  type: z.literal('cost'),
  /** Cents charged for this run so far, over all its attempts, net of refunds. */
  spentCents: count,
});

/** The stream failed; `error` is a sentence for a person, logged as 'Error: ...' by clients. */
export const errorEvent = z.object({
  type: z.literal('error'),
  error: z.string(),
  code: z.enum(ERROR_CODES).optional(),
});

export type RunEvent = z.infer<typeof runEvent>;
export type StageEvent = z.infer<typeof stageEvent>;
export type LogEvent = z.infer<typeof logEvent>;
export type PipelineCompleteEvent = z.infer<typeof pipelineCompleteEvent>;
export type ErrorEvent = z.infer<typeof errorEvent>;
export type CostEvent = z.infer<typeof costEvent>;

export const pipelineEvent = z.discriminatedUnion('type', [
  runEvent,
  stageEvent,
  logEvent,
  costEvent,
  pipelineCompleteEvent,
  errorEvent,
]);
export type PipelineEvent = z.infer<typeof pipelineEvent>;
export type PipelineEventType = PipelineEvent['type'];

/** Enhancement steps: 2 passes x 4 engines = 8 (spec core §9). */
export const ENHANCEMENT_PASSES = 2;
export const ENHANCEMENT_ENGINES_PER_PASS = 4;
export const ENHANCEMENT_STEPS = ENHANCEMENT_PASSES * ENHANCEMENT_ENGINES_PER_PASS;

export const enhancementProgress = z.object({ current: count, total: count, percent });
export type EnhancementProgress = z.infer<typeof enhancementProgress>;

/** One engine of one pass finished refining the prompt. */
export const stepEvent = z.object({
  type: z.literal('step'),
  passNumber: z.int().positive(),
  engineOrder: z.int().positive(),
  progress: enhancementProgress,
  estimatedRemainingSeconds: seconds,
  engine: z.string().optional(),
});

/** The enhanced prompt; an empty one means "keep the original" (spec core §4). */
export const enhancementCompleteEvent = z.object({ type: z.literal('complete'), finalPrompt: z.string() });

/** Feed messages (an engine skipped, the result kept) travel as the same `log` events as runs. */
export const enhancementEvent = z.discriminatedUnion('type', [stepEvent, logEvent, enhancementCompleteEvent, errorEvent]);
export type EnhancementEvent = z.infer<typeof enhancementEvent>;
export type StepEvent = z.infer<typeof stepEvent>;
export type EnhancementCompleteEvent = z.infer<typeof enhancementCompleteEvent>;
export type EnhancementEventType = EnhancementEvent['type'];
