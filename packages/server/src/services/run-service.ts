import { randomUUID } from 'node:crypto';
import type { InferEntity, MikroORM } from '@mikro-orm/core';
import { AppError, formatCents, type PipelineEvent, type RunInfo, type StreamRequest } from '@wolfpack/core';
import { runPipeline, type EngineCallRecord, type PipelineCheckpoint } from '@wolfpack/core/pipeline';
import type { LedgerService } from './ledger-service.js';
import { RunBilling, type StageHold } from './run-billing.js';
import { Conversation, RunEvent } from '../entities/index.js';
import type { Logger } from '../logger.js';
import type { EngineRegistry } from './engine-registry.js';
import { isUuid, type ProjectService } from './project-service.js';
import { LeaseLostError, RunEventWriter, type SqlAll } from './run-event-writer.js';
import type { RunHub } from './run-hub.js';
import { RunLeases } from './run-leases.js';
import { ANY_RUN, localRunNotifier, type RunNotifier } from './run-notifier.js';

export interface RunServiceOptions {
  /** Identifies this process in runs it owns. */
  instanceId?: string;
  /** A run whose lease was not renewed for this long is taken over by a live process. @default 3000 */
  leaseMs?: number;
  /** PGlite: one process owns the data directory, so every running run found at start-up is orphaned. */
  orphansAtStart?: boolean;
  /** How other processes hear of new events (PostgreSQL LISTEN/NOTIFY). @default none, 1 s fallback poll */
  notifier?: RunNotifier;
  /** Called once a run's project is saved (links the enhancement the run's idea came from). */
  onProjectSaved?: (run: { userId: string; idea: string; conversationId: string; projectId: string }) => Promise<void>;
}

type Owner = { id: string };
type RunRow = Pick<InferEntity<typeof Conversation>, 'userId' | 'idea' | 'attachments' | 'cycles' | 'modelOrder' | 'maxCostCents' | 'projectId' | 'checkpoint'>;
type LaunchMode = 'start' | 'resume' | 'takeover';

/** A run that kills its server every time is not taken over forever. */
export const MAX_TAKEOVERS = 3;
/** Runs one process takes over per lease scan (others are left to the other processes). */
const CLAIM_BATCH = 4;
/** A stopped run's last event may still be on its way (write-behind) for this long. */
const SETTLE_MS = 3000;

/**
 * Runs outlive connections and processes: a run is started in the background under a lease this
 * process renews every second; its events are stored write-behind (numbered, for Last-Event-ID)
 * and reach followers only once stored; its checkpoint after each finished stage is stored with
 * that stage's engine usage in one transaction. A run whose process died is taken over by a live
 * process (at start-up on PGlite, within one lease on PostgreSQL) and continued from its last
 * finished stage, with "The server restarted; continuing" in its feed.
 */
export class RunService {
  readonly instanceId: string;
  private readonly leases: RunLeases;
  private readonly notifier: RunNotifier;
  private readonly orphansAtStart: boolean;
  private readonly onProjectSaved: RunServiceOptions['onProjectSaved'];
  private readonly local = new Map<string, { controller: AbortController; done: Promise<void> }>();
  private ticker: NodeJS.Timeout | undefined;
  private ticking = false;

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
    this.leases = new RunLeases(this.sql, this.instanceId, options.leaseMs ?? 3000);
    this.notifier = options.notifier ?? localRunNotifier(1000);
    this.orphansAtStart = options.orphansAtStart ?? false;
    this.onProjectSaved = options.onProjectSaved;
  }

  private readonly sql: SqlAll = (sql, params) => this.orm.em.fork().getConnection().execute(sql, params, 'all');

  /** Takes over orphaned runs, then renews this process's leases and watches for expired ones. */
  async startBackgroundWork(): Promise<void> {
    await this.notifier.start();
    if (this.orphansAtStart) {
      for (let claimed = await this.takeOver(true); claimed > 0; claimed = await this.takeOver(true));
    } else {
      await this.takeOver(false);
    }
    const every = Math.max(100, Math.floor(this.leases.leaseMs / 3));
    this.ticker = setInterval(() => {
      if (this.ticking) return;
      this.ticking = true;
      void this.tick()
        .catch((e) => this.log.warn('run lease renewal failed', e))
        .finally(() => (this.ticking = false));
    }, every);
    this.ticker.unref();
  }

  private async tick(): Promise<void> {
    const mine = [...this.local.keys()];
    const held = await this.leases.renew(mine);
    for (const id of mine) {
      // Another process owns it now (this one stalled past its lease): stop, change nothing.
      if (!held.has(id)) this.local.get(id)?.controller.abort(new LeaseLostError(`run ${id} was taken over by another server`));
    }
    await this.takeOver(false);
  }

  /** Claims runs whose process died and continues them here. Answers how many were claimed. */
  private async takeOver(orphaned: boolean): Promise<number> {
    const claimed = await this.leases.claimExpired(CLAIM_BATCH, orphaned, [...this.local.keys()]);
    for (const run of claimed) {
      if (run.takeovers > MAX_TAKEOVERS) {
        const error = `The server stopped ${MAX_TAKEOVERS + 1} times during this run, so it was not continued again. Resume it to try once more.`;
        this.log.warn(`run ${run.id}: not taken over again after ${MAX_TAKEOVERS} takeovers`);
        await this.sql(`update conversations set status = 'interrupted', error = ?, updated_at = now() where id = ? and instance_id = ? returning id`, [error, run.id, this.instanceId]);
        await this.notifier.notify(run.id);
        continue;
      }
      this.log.info(`run ${run.id}: its server stopped; continuing it here`);
      this.launch(run.id, (await this.lastSeq(run.id)) + 1, 'takeover', run.attempt);
    }
    return claimed.length;
  }

  /**
   * Shutdown: this process's runs stop at once, their stored events are flushed, and their leases
   * are released, so another process (or this one's next start) continues them.
   */
  async stop(): Promise<void> {
    clearInterval(this.ticker);
    const runs = [...this.local.entries()];
    for (const [, run] of runs) run.controller.abort(new Error('server shutting down'));
    await Promise.race([Promise.allSettled(runs.map(([, run]) => run.done)), new Promise((resolve) => setTimeout(resolve, 5000).unref())]);
    await this.leases.release(runs.map(([id]) => id)).catch((e) => this.log.warn('releasing run leases failed', e));
    await this.notifier.close();
  }

  async start(user: Owner, request: StreamRequest): Promise<string> {
    const engines = this.engines.resolve(request.modelOrder);
    if (request.projectId) await this.projects.getOwned(user.id, request.projectId);
    const em = this.orm.em.fork();
    const now = new Date();
    const id = randomUUID();
    const row = em.create(Conversation, {
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
      attempt: 0,
      takeovers: 0,
      createdAt: now,
      updatedAt: now,
      completedAt: null,
    });
    await em.flush();
    this.launch(id, 1, 'start', 0, row);
    return id;
  }

  /** Continues a run stopped for lack of credits (or given up after takeovers) from its last finished stage. */
  async resume(user: Owner, runId: string): Promise<void> {
    await this.getOwned(user, runId);
    // One process wins the claim: the update only matches a run nobody is running any more.
    const claimed = this.local.has(runId)
      ? []
      : await this.sql<{ attempt: number }>(
          `update conversations set status = 'running', error = null, instance_id = ?, heartbeat_at = now(), attempt = attempt + 1, takeovers = 0, updated_at = now()
           where id = ? and user_id = ? and (status = 'interrupted' or (status = 'running' and (heartbeat_at is null or heartbeat_at < now() - ? * interval '1 millisecond')))
           returning attempt`,
          [this.instanceId, runId, user.id, this.leases.leaseMs],
        );
    if (claimed.length === 0) {
      const run = await this.info(user, runId);
      throw new AppError(
        'CONFLICT',
        run.status === 'running' ? 'This run is still running; reattach to follow it.' : `This run has ${run.status} and cannot be resumed.`,
      );
    }
    this.launch(runId, (await this.lastSeq(runId)) + 1, 'resume', Number(claimed[0]!.attempt));
  }

  /** `row`: the run as just created (a fresh start need not read it back). */
  private launch(runId: string, nextSeq: number, mode: LaunchMode, attempt: number, row?: RunRow): void {
    const controller = new AbortController();
    const writer = new RunEventWriter(this.sql, runId, this.instanceId, (batch) => {
      for (const { seq, event } of batch) this.hub.publish(runId, seq, event);
      void this.notifier.notify(runId);
    });
    const done = this.execute(runId, nextSeq, mode, attempt, writer, controller.signal, row)
      .catch((error) => this.log.error(`run ${runId} crashed`, error))
      // What was pushed is stored before followers are told the run ended here.
      .then(() => writer.flush())
      .catch((error) => {
        if (!(error instanceof LeaseLostError)) this.log.warn(`run ${runId}: storing its last events failed`, error);
      })
      .finally(() => {
        this.local.delete(runId);
        this.hub.end(runId);
        void this.notifier.notify(runId);
      });
    this.local.set(runId, { controller, done });
  }

  private async execute(runId: string, firstSeq: number, mode: LaunchMode, attempt: number, writer: RunEventWriter, signal: AbortSignal, row?: RunRow): Promise<void> {
    let seq = firstSeq;
    // Write-behind: the pipeline never waits for an event's insert (the checkpoint does).
    const emit = (event: PipelineEvent) => writer.push(seq++, event);
    const run = row ?? (await this.orm.em.fork().findOneOrFail(Conversation, { id: runId }, { populate: ['attachments', 'checkpoint'] }));
    const checkpoint = (run.checkpoint ?? undefined) as PipelineCheckpoint | undefined;
    // What this run's engine calls cost: earlier attempts' stored usage, plus this attempt's stages.
    let costMillicents = mode === 'start' ? 0 : await this.totalCost(runId);
    const billing = new RunBilling(this.orm, this.ledger, run.userId, runId, run.maxCostCents ?? null, attempt);
    const mine = { id: runId, instanceId: this.instanceId };
    // Checkpoints commit behind the pipeline, one after another: the next stage starts at once.
    let commits: Promise<void> = Promise.resolve();
    let commitFailure: unknown;
    const committed = async () => {
      await commits;
      if (commitFailure) throw commitFailure;
    };
    try {
      if (mode === 'start') emit({ type: 'run', runId, conversationId: runId });
      // A fresh run has no holds yet; a continued one may have the dead attempt's.
      else await billing.releaseLeftoverHolds();
      const engines = this.engines.resolve(run.modelOrder);
      const existingFiles = run.projectId && !checkpoint ? await this.projects.files(run.userId, run.projectId) : undefined;
      if (mode !== 'start') emit(logEvent(mode === 'takeover' ? 'warning' : 'info', continuedMessage(mode, checkpoint?.completedStages ?? 0)));
      const pipeline = runPipeline({
        idea: run.idea,
        attachments: run.attachments,
        cycles: run.cycles,
        engines,
        existingFiles,
        checkpoint,
        signal,
        beforeStage: async (stage) => {
          // Money reads what earlier stages cost: then (only then) their settlements must be in.
          if (billing.needsSettledStages(stage)) await committed();
          else if (commitFailure) throw commitFailure;
          await billing.reserve(stage);
        },
        onCheckpoint: (cp, calls) => {
          const hold = billing.takeHold();
          costMillicents += calls.reduce((sum, c) => sum + c.costMillicents, 0);
          commits = commits.then(async () => {
            if (commitFailure) return;
            try {
              // The stage's events are stored before its checkpoint: a crash loses only what the next owner redoes.
              await writer.flush();
              await this.saveCheckpoint(billing, hold, cp, calls, engines);
            } catch (error) {
              commitFailure = error;
            }
          });
        },
      });
      let step = await pipeline.next();
      while (!step.done) {
        emit(step.value);
        step = await pipeline.next();
      }
      const outcome = step.value;
      await committed();
      if (!outcome.verification.passed) {
        const refunded = await billing.refundRepairs();
        if (refunded > 0) emit(logEvent('info', `Refunded ${formatCents(refunded)} for repair rounds that did not make the code pass: you pay for proof, not for failed fixes.`));
      }
      const [projectId] = await Promise.all([
        this.projects.saveRunResult({
          userId: run.userId,
          conversationId: runId,
          idea: run.idea,
          projectId: run.projectId ?? null,
          files: outcome.files,
          processingMs: outcome.executionMs,
          costMillicents,
        }),
        writer.flush(),
      ]);
      await this.orm.em.fork().nativeUpdate(Conversation, mine, { projectId, status: 'completed', completedAt: new Date(), updatedAt: new Date() });
      emit({
        type: 'complete',
        projectId,
        filesGenerated: Object.keys(outcome.files).length,
        verification: outcome.verification,
        executionSeconds: Math.round(outcome.executionMs / 100) / 10,
      });
      // After the user has the result (the run is already completed either way); never fails the run.
      await this.onProjectSaved?.({ userId: run.userId, idea: run.idea, conversationId: runId, projectId }).catch((e) => this.log.warn(`run ${runId}: after-save work failed`, e));
    } catch (error) {
      // Shutting down, or another process owns the run now: it stays as it is, for whoever continues it.
      if (signal.aborted || error instanceof LeaseLostError) return;
      // Stages that finished are stored (or their failure is known) before anything is given back.
      await commits;
      if (commitFailure instanceof LeaseLostError) return;
      const message = error instanceof AppError ? error.message : 'The run stopped because of an internal error. Try again; if it keeps failing, report it.';
      if (!(error instanceof AppError)) this.log.error(`run ${runId} failed`, error);
      // The stage that failed made calls nobody can use: its hold goes back uncharged.
      await this.retrying(() => billing.releaseLeftoverHolds()).catch((e) => this.log.warn(`run ${runId}: releasing holds failed`, e));
      // Out of credits (or over its own cap): stopped before a stage, resumable after a top-up.
      const stopped = error instanceof AppError && error.code === 'PAYMENT_REQUIRED';
      await this.retrying(() => this.orm.em.fork().nativeUpdate(
        Conversation,
        mine,
        stopped ? { status: 'interrupted', error: message, updatedAt: new Date() } : { status: 'failed', error: message, completedAt: new Date(), updatedAt: new Date() },
      ));
      // The database may have stayed away long enough to stop the writer: the end must still be stored.
      if (!writer.reset()) return;
      emit({ type: 'error', error: message, code: error instanceof AppError ? error.code : 'INTERNAL' });
    }
  }

  /**
   * A failed run's last writes (holds given back, its status) are tried again for a while: the
   * failure may be the database going away, and money must not stay held for a run that ended.
   */
  private async retrying<T>(write: () => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await write();
      } catch (error) {
        if (attempt >= 8) throw error;
        await new Promise((resolve) => setTimeout(resolve, Math.min(2000, 100 * 2 ** attempt)));
      }
    }
  }

  /** The stage's checkpoint, its engine usage and its settled charge: one transaction, fenced by the lease. */
  private async saveCheckpoint(
    billing: RunBilling,
    hold: StageHold | null,
    cp: PipelineCheckpoint,
    calls: EngineCallRecord[],
    engines: { key: string; provider: string; model: string }[],
  ): Promise<void> {
    await billing.settleStage(hold, calls, engines, async (em) => {
      const saved = await em.nativeUpdate(
        Conversation,
        { id: billing.runId, instanceId: this.instanceId },
        { checkpoint: cp as unknown as Record<string, unknown>, stages: cp.stages, executionMs: cp.executionMs, updatedAt: new Date(), heartbeatAt: new Date() },
      );
      // Another process took the run over: nothing of this stage may be stored or charged here.
      if (saved === 0) throw new LeaseLostError(`run ${billing.runId} was taken over by another server`);
    });
  }

  private async totalCost(runId: string): Promise<number> {
    const rows = await this.sql<{ total: string | number | null }>('select coalesce(sum(cost_millicents), 0) as total from engine_usage where conversation_id = ?', [runId]);
    return Number(rows[0]?.total ?? 0);
  }

  /** The newest stored event's number (0 before any) and type. */
  private async lastEvent(runId: string): Promise<{ seq: number; type: string | null }> {
    const rows = await this.sql<{ seq: number; type: string | null }>(
      `select seq, data->>'type' as type from run_events where conversation_id = ? order by seq desc limit 1`,
      [runId],
    );
    return { seq: Number(rows[0]?.seq ?? 0), type: rows[0]?.type ?? null };
  }

  private async lastSeq(runId: string): Promise<number> {
    return (await this.lastEvent(runId)).seq;
  }

  private async getOwned(user: Owner, runId: string) {
    const row = isUuid(runId) ? await this.orm.em.fork().findOne(Conversation, { id: runId, userId: user.id }) : null;
    if (!row) throw new AppError('NOT_FOUND', 'Run not found');
    return row;
  }

  async info(user: Owner, runId: string): Promise<RunInfo> {
    const row = await this.getOwned(user, runId);
    return {
      id: row.id,
      conversationId: row.id,
      idea: row.idea,
      status: row.status,
      projectId: row.status === 'completed' ? (row.projectId ?? null) : null,
      lastEventId: await this.lastSeq(runId),
      createdAt: row.createdAt.toISOString(),
      error: row.error ?? null,
    };
  }

  /**
   * Whether a follower of a run run elsewhere has seen its end: the run stopped and its last
   * stored event is its end (or the run stopped long enough ago that nothing more is coming).
   */
  private async hasEnded(user: Owner, runId: string, after: number): Promise<boolean | 'more'> {
    const row = await this.getOwned(user, runId);
    if (row.status === 'running') return false;
    const last = await this.lastEvent(runId);
    if (last.seq > after) return 'more';
    return last.type === 'complete' || last.type === 'error' || row.updatedAt.getTime() < Date.now() - SETTLE_MS;
  }

  /**
   * The run's events after `afterSeq`: stored ones first, then new ones as they come, until the
   * run ends. Live events of a run in this process come from memory once stored; a run of another
   * process (or one about to be taken over) is followed through the notifier, with a slow poll
   * in case a notice was lost.
   */
  async *events(user: Owner, runId: string, afterSeq: number, signal: AbortSignal): AsyncGenerator<{ seq: number; event: PipelineEvent }> {
    await this.getOwned(user, runId);
    let after = afterSeq;
    while (!signal.aborted) {
      const live: Array<{ seq: number; event: PipelineEvent }> = [];
      let ended = false;
      let poked = false;
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
      const unNotify = this.notifier.subscribe((id) => {
        if (id !== runId && id !== ANY_RUN) return;
        poked = true;
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
        const end = await this.hasEnded(user, runId, after);
        if (end === true) return;
        if (end === 'more') continue;
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, this.notifier.fallbackPollMs);
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
          if (signal.aborted || poked || live.length > 0 || ended) wake();
        });
      } finally {
        signal.removeEventListener('abort', onAbort);
        unsubscribe();
        unEnd();
        unNotify();
      }
    }
  }
}

/** The line a continued run's feed shows first. */
function continuedMessage(mode: 'resume' | 'takeover', done: number): string {
  const kept = done === 1 ? '1 finished stage kept' : `${done} finished stages kept`;
  if (mode === 'takeover') {
    return done > 0 ? `The server restarted; continuing the run from its last finished stage (${kept}).` : 'The server restarted; continuing the run from its first stage.';
  }
  return done > 0 ? `Resumed after an interruption: ${done} finished stage(s) kept, continuing from there.` : 'Resumed after an interruption: starting the first stage again.';
}

export function logEvent(level: 'info' | 'success' | 'warning' | 'error', message: string): PipelineEvent {
  return { type: 'log', id: randomUUID(), level, message, timestamp: new Date().toISOString() };
}
