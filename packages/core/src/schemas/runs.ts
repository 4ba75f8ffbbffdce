/**
 * Runs, engines and statistics: the calls around the pipeline stream that the spec does not
 * name but a run that outlives its connection needs (reattach, resume), plus the per-user
 * statistics panel and the engine list.
 */
import { z } from 'zod';
import { ESTIMATE_BASES } from '../billing/estimate.js';
import { countLike, entityId, timestamp } from './common.js';
import { pipelineRole } from './events.js';

export const RUN_STATUSES = ['running', 'completed', 'failed', 'interrupted'] as const;
export const runStatus = z.enum(RUN_STATUSES);
export type RunStatus = z.infer<typeof runStatus>;

/** GET /api/wolfpack/runs/{id}: where a run stands, to decide between reattach and resume. */
export const runInfo = z.object({
  id: entityId,
  conversationId: entityId,
  idea: z.string(),
  status: runStatus,
  projectId: entityId.nullable(),
  /** Id of the newest stored event; reattach with Last-Event-ID to get everything after it. */
  lastEventId: countLike,
  createdAt: timestamp,
  error: z.string().nullable(),
  /** The stages this run does, when not all five (a "Repair again" run: Proven Code only). */
  stages: z.array(pipelineRole).min(1).optional(),
});
export type RunInfo = z.infer<typeof runInfo>;

export const runInfoReply = z.object({ run: runInfo });
export type RunInfoReply = z.infer<typeof runInfoReply>;

/**
 * POST /api/wolfpack/estimate, with the body a run would be started with: what the run
 * will probably cost, as a range, before it starts. Not a hold and not a limit (`maxCostCents` is).
 */
export const runEstimateReply = z.object({
  lowCents: z.int().nonnegative(),
  highCents: z.int().nonnegative(),
  /** The same amounts as dollars with two decimals ("0.42"). */
  lowDollars: z.string(),
  highDollars: z.string(),
  /** What the range is drawn from: the plan-size model, or the user's latest completed runs at today's prices. */
  basis: z.enum(ESTIMATE_BASES),
  /** The completed runs the range was drawn from (0 for the plan-size model). */
  pastRuns: z.int().nonnegative(),
  /** The engines the run would use, in order, with what each costs per 1,000 tokens. */
  engines: z.array(z.object({ key: z.string(), pricePer1kTokensCents: z.number().nonnegative() })),
});
export type RunEstimateReply = z.infer<typeof runEstimateReply>;

/** GET /api/engines: generic labels only; `demo` is true when no real engine is configured, `proof` says what Proven Code can run. */
export const engineInfo = z.object({ key: z.string(), supportsImages: z.boolean() });
export type EngineInfo = z.infer<typeof engineInfo>;

/**
 * What Proven Code can do on this server: run generated code (a bubblewrap sandbox) and
 * load its pages (Chromium). Without them verdicts are "not proven", and clients say why once.
 * Words and commands only: no path, no sandbox output, nothing from the server's environment.
 */
export const proofCapability = z.object({
  /** Generated code can run here: a working bubblewrap sandbox. */
  sandbox: z.boolean(),
  /** Pages can be loaded here: Chromium is installed. */
  browser: z.boolean(),
  /** Why not, in a few words ("bubblewrap is not installed"); absent when both work. */
  reason: z.string().optional(),
  /** The one command that fixes it ("sudo apt-get install bubblewrap chromium"); absent when both work. */
  fix: z.string().optional(),
  /** The sentence clients show (reason, what it means for verdicts, then "Fix: " and the fix); null when both work. */
  notice: z.string().nullable(),
});
export type ProofCapability = z.infer<typeof proofCapability>;

export const enginesReply = z.object({
  engines: z.array(engineInfo),
  demo: z.boolean(),
  /** A sentence for the interface when demo engines are active: how to configure real ones. */
  notice: z.string().nullable(),
  /** Proven Code on this server; absent from servers that do not report it. */
  proof: proofCapability.optional(),
});
export type EnginesReply = z.infer<typeof enginesReply>;

/** Stages the activity statistics display counts (spec core §1: shown as n/8). */
export const STATISTICS_STAGE_COUNT = 8;

/** GET /api/stats: the statistics panel, from the server so it follows the user across devices. */
export const statsReply = z.object({
  totalRuns: countLike,
  /** 0..100, shown with 0 decimals plus %. */
  successRate: z.number().min(0).max(100),
  /** Seconds, shown with 1 decimal plus s. */
  averageTime: z.number().nonnegative(),
  /** Stages of the latest run that completed, shown as n/8. */
  pipelineStages: countLike,
  /** Hours, shown with 1 decimal plus h. */
  totalTimeSaved: z.number().nonnegative(),
  /** Dollars, shown with 2 decimals. */
  totalCostSaved: z.number().nonnegative(),
});
export type StatsReply = z.infer<typeof statsReply>;
