import { defineEntity, p } from '@mikro-orm/core';
import type { Attachment, PipelineRole, RunStatus } from '@wolfpack/core';

/**
 * A run of the pipeline (the spec's Conversation). It outlives the connection that started it:
 * its events are stored as they happen, and its checkpoint after each finished stage lets a run
 * interrupted by a restart resume without redoing that stage.
 */
export const Conversation = defineEntity({
  name: 'Conversation',
  tableName: 'conversations',
  properties: {
    id: p.uuid().primary(),
    userId: p.uuid().index(),
    idea: p.text(),
    modelOrder: p.json<string[]>(),
    cycles: p.integer(),
    /** The stages this run does, when not all five ("Repair again": Proven Code only). */
    onlyStages: p.json<PipelineRole[]>().nullable(),
    /** The most the run may spend, in cents (null: only the balance limits it). */
    maxCostCents: p.integer().nullable(),
    attachments: p.json<Attachment[]>().lazy(),
    /** The project this run continues (set at start) or produced (set at completion). */
    projectId: p.uuid().nullable(),
    status: p.string().length(16).$type<RunStatus>(),
    error: p.text().nullable(),
    checkpoint: p.json<Record<string, unknown>>().nullable().lazy(),
    stages: p.json<Array<{ cycle: number; role: string; ok: boolean; reason?: string; engine: string; durationMs: number; tokens: number }>>(),
    executionMs: p.bigint('number').default(0),
    /** Which server process runs it, and when that process last renewed its lease (null: free to take). */
    instanceId: p.string().length(64).nullable(),
    heartbeatAt: p.datetime().nullable(),
    /** How often the run was launched (start 0, then each resume or takeover): keys its holds and usage. */
    attempt: p.integer().default(0),
    /** Automatic takeovers since the last start or resume. */
    takeovers: p.integer().default(0),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
    completedAt: p.datetime().nullable(),
  },
});

/** One stored SSE event of a run, replayed to clients that reattach with Last-Event-ID. */
export const RunEvent = defineEntity({
  name: 'RunEvent',
  tableName: 'run_events',
  properties: {
    conversationId: p.uuid().primary(),
    seq: p.integer().primary(),
    data: p.json<Record<string, unknown>>(),
    createdAt: p.datetime(),
  },
});

/** One engine call: tokens, duration and cost, for usage, billing and admin metrics. */
export const EngineUsage = defineEntity({
  name: 'EngineUsage',
  tableName: 'engine_usage',
  properties: {
    id: p.bigint('number').primary().autoincrement(),
    userId: p.uuid().index(),
    /** The run, or the enhancement, the call belonged to. */
    conversationId: p.uuid().nullable().index(),
    enhancementId: p.uuid().nullable(),
    cycle: p.integer(),
    stage: p.string().length(32),
    engineKey: p.string().length(64),
    provider: p.string().length(16),
    model: p.string().length(200),
    inputTokens: p.integer(),
    outputTokens: p.integer(),
    totalTokens: p.integer(),
    durationMs: p.integer(),
    attempts: p.integer(),
    costMillicents: p.bigint('number'),
    /** What the user was charged for the call, in cents (0 for free engines; capped by the hold). */
    billedCents: p.integer().default(0),
    /** 'stage', 'repair', 'completion' or 'enhance': repairs are refunded when the gate fails. */
    purpose: p.string().length(16).default('stage'),
    /** Run calls only: stage position, attempt and call index; unique per run, so a stage is never charged twice. */
    callKey: p.string().length(64).nullable(),
    createdAt: p.datetime(),
  },
});
