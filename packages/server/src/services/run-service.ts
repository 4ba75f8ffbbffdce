import { randomUUID } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/core';
import { AppError, formatCents, type PipelineEvent, type RunInfo, type StreamRequest } from '@wolfpack/core';
import { runPipeline, type EngineCallRecord, type PipelineCheckpoint } from '@wolfpack/core/pipeline';
import type { LedgerService } from './ledger-service.js';
import { RunBilling } from './run-billing.js';
import { Conversation, RunEvent } from '../entities/index.js';
import type { Logger } from '../logger.js';
import type { EngineRegistry } from './engine-registry.js';
import { isUuid, type ProjectService } from './project-service.js';
import type { RunHub } from './run-hub.js';

export interface RunServiceOptions {
  /** Identifies this process in runs it owns. */
  instanceId?: string;
  /** A running run whose process has not said it is alive for this long is interrupted. @default 30000 */
  staleAfterMs?: number;
  /** How often a reattached client polls for events of a run another process runs. @default 1000 */
  pollMs?: number;
  /** Called once a run's project is saved (links the enhancement the run's idea came from). */
  onProjectSaved?: (run: { userId: string; idea: string; conversationId: string; projectId: string }) => Promise<void>;
}

type Owner = { id: string };

const FINAL = new Set(['completed', 'failed']);

/**
 * Runs outlive connections: a run is started in the background, its events are stored as they
 * happen (numbered, for Last-Event-ID), its checkpoint after each finished stage is stored with
 * that stage's engine usage in one transaction, and a run whose process died is marked
 * interrupted and can be resumed from its last finished stage.
 */
export class RunService {
  readonly instanceId: string;
  private readonly staleAfterMs: number;
  private readonly pollMs: number;
  private readonly onProjectSaved: RunServiceOptions['onProjectSaved'];
  private readonly local = new Map<string, AbortController>();
  private heartbeat: NodeJS.Timeout | undefined;

  constructor(
    private readonly orm: MikroORM,
    private readonly engines: EngineRegistry,
    private readonly projects: ProjectService,
    private readonly hub: RunHub,
    private readonly log: Logger,
    private readonly ledger: LedgerService,
    options: RunServiceOptions = {},
  ) {
    this.instanceId = options.instanceId ?? randomUUID();
    this.staleAfterMs = options.staleAfterMs ?? 30_000;
    this.pollMs = options.pollMs ?? 1000;
    this.onProjectSaved = options.onProjectSaved;
  }

  /** Marks runs of dead processes interrupted now, then keeps this process's runs alive. */
  async startBackgroundWork(): Promise<void> {
    await this.markStaleRuns();
    const every = Math.max(200, Math.floor(this.staleAfterMs / 3));
    this.heartbeat = setInterval(() => {
      void this.beat().catch((e) => this.log.warn('run heartbeat failed', e));
    }, every);
    this.heartbeat.unref();
  }

  private async beat(): Promise<void> {
    const ids = [...this.local.keys()];
    const em = this.orm.em.fork();
    if (ids.length > 0) await em.nativeUpdate(Conversation, { id: { $in: ids }, status: 'running' }, { heartbeatAt: new Date() });
    await this.markStaleRuns();
  }

  async markStaleRuns(): Promise<number> {
    const cutoff = new Date(Date.now() - this.staleAfterMs);
    return this.orm.em.fork().nativeUpdate(
      Conversation,
      {
        status: 'running',
        id: { $nin: [...this.local.keys(), '00000000-0000-0000-0000-000000000000'] },
        $or: [{ heartbeatAt: null }, { heartbeatAt: { $lt: cutoff } }],
      },
      { status: 'interrupted', updatedAt: new Date() },
    );
  }

  /** Stops this process's runs (shutdown); they become interrupted and resumable elsewhere. */
  async stop(): Promise<void> {
    clearInterval(this.heartbeat);
    for (const controller of this.local.values()) controller.abort(new Error('server shutting down'));
    const ids = [...this.local.keys()];
    this.local.clear();
    if (ids.length > 0) {
      await this.orm.em.fork().nativeUpdate(Conversation, { id: { $in: ids }, status: 'running' }, { status: 'interrupted', updatedAt: new Date() });
    }
  }

  async start(user: Owner, request: StreamRequest): Promise<string> {
    const engines = this.engines.resolve(request.modelOrder);
    if (request.projectId) await this.projects.getOwned(user.id, request.projectId);
    const em = this.orm.em.fork();
    const now = new Date();
    const id = randomUUID();
    em.create(Conversation, {
      id,
      userId: user.id,
      idea: request.idea,
      modelOrder: engines.map((e) => e.key),
      cycles: request.cycles,
      maxCostCents: request.maxCostCents ?? null,
      attachments: request.attachments ?? [],
      projectId: request.projectId ?? null,
      status: 'running',
      error: null,
      checkpoint: null,
      stages: [],
      executionMs: 0,
      instanceId: this.instanceId,
      heartbeatAt: now,
      createdAt: now,
      updatedAt: now,
      completedAt: null,
    });
    await em.flush();
    await this.append(id, 1, { type: 'run', runId: id, conversationId: id });
    this.launch(id, 2, false);
    return id;
  }

  /** Continues an interrupted run from its last finished stage. */
  async resume(user: Owner, runId: string): Promise<void> {
    await this.getOwned(user, runId);
    const cutoff = new Date(Date.now() - this.staleAfterMs);
    // One process wins the claim: the update only matches a run nobody is running any more.
    const claimed = this.local.has(runId)
      ? 0
      : await this.orm.em.fork().nativeUpdate(
          Conversation,
          { id: runId, userId: user.id, $or: [{ status: 'interrupted' }, { status: 'running', heartbeatAt: { $lt: cutoff } }] },
          { status: 'running', error: null, instanceId: this.instanceId, heartbeatAt: new Date(), updatedAt: new Date() },
        );
    if (claimed === 0) {
      const run = await this.info(user, runId);
      throw new AppError(
        'CONFLICT',
        run.status === 'running' ? 'This run is still running; reattach to follow it.' : `This run has ${run.status} and cannot be resumed.`,
      );
    }
    this.launch(runId, (await this.lastSeq(runId)) + 1, true);
  }

  private launch(runId: string, nextSeq: number, resumed: boolean): void {
    const controller = new AbortController();
    this.local.set(runId, controller);
    void this.execute(runId, nextSeq, resumed, controller.signal)
      .catch((error) => this.log.error(`run ${runId} crashed`, error))
      .finally(() => {
        this.local.delete(runId);
        this.hub.end(runId);
      });
  }

  private async execute(runId: string, firstSeq: number, resumed: boolean, signal: AbortSignal): Promise<void> {
    let seq = firstSeq;
    const emit = async (event: PipelineEvent) => {
      await this.append(runId, seq, event);
      seq += 1;
    };
    const em = this.orm.em.fork();
    const run = await em.findOneOrFail(Conversation, { id: runId }, { populate: ['attachments', 'checkpoint'] });
    const checkpoint = (run.checkpoint ?? undefined) as PipelineCheckpoint | undefined;
    let costMillicents = 0;
    const billing = new RunBilling(this.orm, this.ledger, run.userId, runId, run.maxCostCents ?? null);
    try {
      await billing.releaseLeftoverHolds();
      const engines = this.engines.resolve(run.modelOrder);
      const existingFiles = run.projectId && !checkpoint ? await this.projects.files(run.userId, run.projectId) : undefined;
      if (resumed) {
        const done = checkpoint?.completedStages ?? 0;
        await emit(logEvent('info', done > 0 ? `Resumed after an interruption: ${done} finished stage(s) kept, continuing from there.` : 'Resumed after an interruption: starting the first stage again.'));
      }
      const pipeline = runPipeline({
        idea: run.idea,
        attachments: run.attachments,
        cycles: run.cycles,
        engines,
        existingFiles,
        checkpoint,
        signal,
        beforeStage: (stage) => billing.reserve(stage),
        onCheckpoint: (cp, calls) => this.saveCheckpoint(billing, cp, calls, engines),
      });
      let step = await pipeline.next();
      while (!step.done) {
        await emit(step.value);
        step = await pipeline.next();
      }
      const outcome = step.value;
      if (!outcome.verification.passed) {
        const refunded = await billing.refundRepairs();
        if (refunded > 0) await emit(logEvent('info', `Refunded ${formatCents(refunded)} for repair rounds that did not make the code pass: you pay for proof, not for failed fixes.`));
      }
      costMillicents = await this.totalCost(runId);
      const projectId = await this.projects.saveRunResult({
        userId: run.userId,
        conversationId: runId,
        idea: run.idea,
        projectId: run.projectId ?? null,
        files: outcome.files,
        processingMs: outcome.executionMs,
        costMillicents,
      });
      await this.orm.em.fork().nativeUpdate(Conversation, { id: runId }, { projectId, status: 'completed', completedAt: new Date(), updatedAt: new Date() });
      await this.onProjectSaved?.({ userId: run.userId, idea: run.idea, conversationId: runId, projectId });
      await emit({
        type: 'complete',
        projectId,
        filesGenerated: Object.keys(outcome.files).length,
        verification: outcome.verification,
        executionSeconds: Math.round(outcome.executionMs / 100) / 10,
      });
    } catch (error) {
      if (signal.aborted) return; // shutting down: the run stays resumable
      const message = error instanceof AppError ? error.message : 'The run stopped because of an internal error. Try again; if it keeps failing, report it.';
      if (!(error instanceof AppError)) this.log.error(`run ${runId} failed`, error);
      // The stage that failed made calls nobody can use: its hold goes back uncharged.
      await billing.releaseLeftoverHolds().catch((e) => this.log.warn(`run ${runId}: releasing holds failed`, e));
      // Out of credits (or over its own cap): stopped before a stage, resumable after a top-up.
      const stopped = error instanceof AppError && error.code === 'PAYMENT_REQUIRED';
      await this.orm.em.fork().nativeUpdate(
        Conversation,
        { id: runId },
        stopped ? { status: 'interrupted', error: message, updatedAt: new Date() } : { status: 'failed', error: message, completedAt: new Date(), updatedAt: new Date() },
      );
      await emit({ type: 'error', error: message, code: error instanceof AppError ? error.code : 'INTERNAL' });
    }
  }

  /** The stage's checkpoint, its engine usage and its settled charge: one transaction. */
  private async saveCheckpoint(billing: RunBilling, cp: PipelineCheckpoint, calls: EngineCallRecord[], engines: { key: string; provider: string; model: string }[]): Promise<void> {
    await billing.settleStage(calls, engines, async (em) => {
      await em.nativeUpdate(
        Conversation,
        { id: billing.runId },
        { checkpoint: cp as unknown as Record<string, unknown>, stages: cp.stages, executionMs: cp.executionMs, updatedAt: new Date(), heartbeatAt: new Date() },
      );
    });
  }

  private async totalCost(runId: string): Promise<number> {
    const rows = await this.orm.em.fork().getConnection().execute<{ total: string | number | null }[]>(
      'select coalesce(sum(cost_millicents), 0) as total from engine_usage where conversation_id = ?',
      [runId],
    );
    return Number(rows[0]?.total ?? 0);
  }

  /** Stores an event with its sequence number (one insert), then wakes live subscribers. */
  private async append(runId: string, seq: number, event: PipelineEvent): Promise<void> {
    await this.orm.em.fork().insert(RunEvent, { conversationId: runId, seq, data: event as unknown as Record<string, unknown>, createdAt: new Date() });
    this.hub.publish(runId, seq, event);
  }

  /** The newest stored event's number (0 before any). */
  private async lastSeq(runId: string): Promise<number> {
    const rows = await this.orm.em.fork().getConnection().execute<{ seq: number | null }[]>(
      'select max(seq) as seq from run_events where conversation_id = ?',
      [runId],
    );
    return Number(rows[0]?.seq ?? 0);
  }

  private async getOwned(user: Owner, runId: string) {
    const row = isUuid(runId) ? await this.orm.em.fork().findOne(Conversation, { id: runId, userId: user.id }) : null;
    if (!row) throw new AppError('NOT_FOUND', 'Run not found');
    return row;
  }

  async info(user: Owner, runId: string): Promise<RunInfo> {
    const row = await this.getOwned(user, runId);
    const stale = row.status === 'running' && !this.local.has(runId) && (!row.heartbeatAt || row.heartbeatAt.getTime() < Date.now() - this.staleAfterMs);
    return {
      id: row.id,
      conversationId: row.id,
      idea: row.idea,
      status: stale ? 'interrupted' : row.status,
      projectId: row.status === 'completed' ? (row.projectId ?? null) : null,
      lastEventId: await this.lastSeq(runId),
      createdAt: row.createdAt.toISOString(),
      error: row.error ?? null,
    };
  }

  /**
   * The run's events after `afterSeq`: stored ones first, then new ones as they come, until the
   * run completes or fails (or stops being run by anyone). Live events of a run in this process
   * come from memory; runs of other processes are followed by polling the database.
   */
  async *events(user: Owner, runId: string, afterSeq: number, signal: AbortSignal): AsyncGenerator<{ seq: number; event: PipelineEvent }> {
    await this.getOwned(user, runId);
    let after = afterSeq;
    while (!signal.aborted) {
      const live: Array<{ seq: number; event: PipelineEvent }> = [];
      let ended = false;
      let wake: () => void = () => {};
      // Subscribe before reading the database: an event stored meanwhile is then in `live`.
      const unsubscribe = this.hub.subscribe(runId, (seq, event) => {
        live.push({ seq, event });
        wake();
      });
      const unEnd = this.hub.onEnd(runId, () => {
        ended = true;
        wake();
      });
      const onAbort = () => wake();
      signal.addEventListener('abort', onAbort);
      try {
        const rows = await this.orm.em.fork().find(RunEvent, { conversationId: runId, seq: { $gt: after } }, { orderBy: { seq: 'asc' }, limit: 500 });
        for (const row of rows) {
          after = row.seq;
          yield { seq: row.seq, event: row.data as unknown as PipelineEvent };
        }
        if (rows.length === 500) continue;
        if (this.local.has(runId)) {
          while (!signal.aborted) {
            for (let next = live.shift(); next; next = live.shift()) {
              if (next.seq <= after) continue;
              after = next.seq;
              yield next;
            }
            if (ended) break;
            await new Promise<void>((resolve) => {
              wake = resolve;
              if (live.length > 0 || ended || signal.aborted) resolve();
            });
          }
          continue; // one more look at the database, then the run's final status
        }
        const status = await this.info(user, runId);
        if (FINAL.has(status.status) || status.status === 'interrupted') {
          if (status.lastEventId <= after) return;
          continue;
        }
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, this.pollMs);
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
          if (signal.aborted) wake();
        });
      } finally {
        signal.removeEventListener('abort', onAbort);
        unsubscribe();
        unEnd();
      }
    }
  }
}

export function logEvent(level: 'info' | 'success' | 'warning' | 'error', message: string): PipelineEvent {
  return { type: 'log', id: randomUUID(), level, message, timestamp: new Date().toISOString() };
}
