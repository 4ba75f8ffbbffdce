import { randomUUID } from 'node:crypto';
import type { EntityManager, InferEntity, MikroORM } from '@mikro-orm/core';
import { AppError, buildVerificationRecord, formatCents, type PipelineEvent, type PipelineRole, type RepairRequest, type RunEstimateReply, type RunInfo, type StreamRequest } from '@wolfpack/core';
import { runPipeline, type PipelineCheckpoint } from '@wolfpack/core/pipeline';
import { createExecutionGate, executeProject, type ProjectExecutor } from '@wolfpack/core/proof';
import type { LedgerService } from '../billing/ledger-service.js';
import { RunBilling } from './run-billing.js';
import { RunEstimates } from './run-estimates.js';
import { EngineActivity } from './engine-activity.js';
import { StageCommits, type FinishedStage } from './stage-commits.js';
import { Conversation } from '../../entities/index.js';
import type { Logger } from '../../logger.js';
import type { EngineRegistry } from './engine-registry.js';
import type { ProjectService, RunResult } from '../projects/project-service.js';
import { LeaseLostError, RunEventWriter, yieldToIo, type SqlAll } from './run-event-writer.js';
import { oneStatement, sqlPart, type GatedWrite, type SqlPart } from '../../db/one-statement.js';
import { plainSql } from '../../db/plain-sql.js';
import type { RunHub } from './run-hub.js';
import { RunLeases } from './run-leases.js';
import { localRunNotifier, type RunNotifier } from './run-notifier.js';
import { RunReader } from './run-reader.js';
import { traceStep } from './run-trace.js';
import { DatabaseGoneError, describeWait, retryBriefly, RunDatabaseRetry, type OutageHooks } from './run-database-retry.js';
import { liveLine, RunDatabaseStops } from './run-database-stops.js';
import { isDatabaseUnreachable, isDiskFull, retryUnique } from '../../db/database-faults.js';
import type { VerificationService } from './verification-service.js';

export interface RunServiceOptions {
  /** Identifies this process in runs it owns. */
  instanceId?: string;
  /** A run whose lease was not renewed for this long is taken over by a live process. @default 3000 */
  leaseMs?: number;
  /** PGlite: one process owns the data directory, so every running run found at start-up is orphaned. */
  orphansAtStart?: boolean;
  /** How other processes hear of new events (PostgreSQL LISTEN/NOTIFY). @default none, 1 s fallback poll */
  notifier?: RunNotifier;
  /** Keeps each saved version's verification record. */
  verifications?: VerificationService;
  /** Proven Code's sandbox settings (WOLFPACK_SANDBOX, WOLFPACK_PROOF_*). @default process.env */
  proofEnv?: NodeJS.ProcessEnv;
  /** What runs a project for Proven Code: the app's `ExecutionThread`. @default executeProject, on this thread */
  executeProject?: ProjectExecutor | undefined;
  /**
   * How long a run waits for a database it lost (its writes tried again with backoff, its work kept
   * in memory) before it stops, left interrupted and resumable. @default 120000 (WOLFPACK_DB_RETRY_SECONDS)
   */
  databaseRetryMs?: number;
  /** Told of every write a run's database refused for want of disk space (GET /api/health reports it). */
  onDiskFull?: (error: unknown) => void;
  /** Called once a run's project is saved (links the enhancement the run's idea came from). */
  onProjectSaved?: (run: { userId: string; idea: string; conversationId: string; projectId: string }) => Promise<void>;
}

type Owner = { id: string };
/** The longest a run's events wait for its engines to be busy before they are stored anyway. */
const EVENT_WAIT_MS = 50;

/** Queries in `em`'s transaction. */
const sqlOf =
  (em: EntityManager): SqlAll =>
  (sql, params) =>
    (em as EntityManager & { execute<T>(sql: string, params: unknown[], method: 'all'): Promise<T[]> }).execute(sql, params, 'all');

/** How the verdict shows in the activity feed: only a passed one is a success. */
const VERDICT_LEVEL = { passed: 'success', failed: 'error', unproven: 'warning' } as const;

type EngineKeys = { key: string; provider: string; model: string };
/** What a fenced statement changes in the run's row. */
type RunChanges = {
  checkpoint?: object | null;
  stages?: unknown[];
  executionMs?: number;
  projectId?: string;
  status?: 'completed';
  completedAt?: Date;
};
type RunRow = Pick<InferEntity<typeof Conversation>, 'userId' | 'idea' | 'attachments' | 'cycles' | 'modelOrder' | 'maxCostCents' | 'projectId' | 'checkpoint' | 'onlyStages'>;

/** What "Repair again" does: Proven Code's repair rounds on the project's current files. */
const REPAIR_STAGES: PipelineRole[] = ['Proven Code'];
type LaunchMode = 'start' | 'resume' | 'takeover';

/** A run that kills its server every time is not taken over forever. */
export const MAX_TAKEOVERS = 3;
/** Runs one process takes over per lease scan (others are left to the other processes). */
const CLAIM_BATCH = 4;

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
  private readonly verifications: VerificationService | undefined;
  private readonly proofEnv: NodeJS.ProcessEnv;
  private readonly executeProject: ProjectExecutor;
  private readonly databaseRetryMs: number;
  /** What a run does when its database stops it (gone too long, full). */
  private readonly stops: RunDatabaseStops;
  /**
   * Runs this process runs; `stored` once the run's row exists (a lease can be renewed); `owner`
   * when known without a query (a run started or resumed here; not one taken over).
   */
  private readonly local = new Map<string, { controller: AbortController; done: Promise<void>; stored: boolean; owner?: string }>();
  private ticker: NodeJS.Timeout | undefined;
  /** The lease renewal and takeover under way, if any: shutdown waits for it (see stop). */
  private ticking: Promise<void> | undefined;

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
    this.verifications = options.verifications;
    this.proofEnv = options.proofEnv ?? process.env;
    this.executeProject = options.executeProject ?? executeProject;
    this.databaseRetryMs = options.databaseRetryMs ?? 120_000;
    this.reader = new RunReader(orm, this.sql, hub, this.notifier, (runId) => this.local.has(runId));
    this.estimates = new RunEstimates(this.sql, engines, projects);
    this.stops = new RunDatabaseStops(orm, this.sql, hub, log, this.instanceId, this.databaseRetryMs, options.onDiskFull);
  }

  private readonly sql: SqlAll = (sql, params) => this.orm.em.fork().getConnection().execute(sql, params, 'all');
  private readonly reader: RunReader;
  private readonly estimates: RunEstimates;

  /** What a run of `request` would probably cost (POST /api/wolfpack/estimate): a range, before it starts. */
  estimate(user: Owner, request: StreamRequest): Promise<RunEstimateReply> {
    return this.estimates.estimate(user.id, request);
  }

  /**
   * Takes over orphaned runs, then renews this process's leases and watches for expired ones.
   * `closing` already aborted (asked to close while starting): none of that, as the process may be
   * killed before it gives back a run it took.
   */
  async startBackgroundWork(closing?: AbortSignal): Promise<void> {
    await this.notifier.start();
    if (closing?.aborted) return;
    if (this.orphansAtStart) {
      for (let claimed = await this.takeOver(true); claimed > 0; claimed = await this.takeOver(true));
    } else {
      await this.takeOver(false);
    }
    const every = Math.max(100, Math.floor(this.leases.leaseMs / 3));
    this.ticker = setInterval(() => {
      if (this.ticking) return;
      this.ticking = this.tick()
        .catch((e) => this.log.warn('run lease renewal failed', e))
        .finally(() => (this.ticking = undefined));
    }, every);
    this.ticker.unref();
  }

  private async tick(): Promise<void> {
    const mine = [...this.local.entries()].filter(([, run]) => run.stored).map(([id]) => id);
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
      this.launch(run.id, undefined, (await this.lastSeq(run.id)) + 1, 'takeover', run.attempt);
    }
    return claimed.length;
  }

  /**
   * Shutdown: this process's runs stop at once, their stored events are flushed, and their leases
   * are released, so another process (or this one's next start) continues them.
   */
  async stop(): Promise<void> {
    clearInterval(this.ticker);
    // A takeover under way (of a run another closing process just released) would launch its run
    // after the list below is taken, and leave it running with its lease held.
    await this.ticking;
    const runs = [...this.local.entries()];
    for (const [, run] of runs) run.controller.abort(new Error('server shutting down'));
    await Promise.race([Promise.allSettled(runs.map(([, run]) => run.done)), new Promise((resolve) => setTimeout(resolve, 5000).unref())]);
    await this.leases.release(runs.map(([id]) => id)).catch((e) => this.log.warn('releasing run leases failed', e));
    await this.notifier.close();
  }

  async start(user: Owner, request: StreamRequest): Promise<string> {
    const engines = this.engines.resolve(request.modelOrder);
    if (request.projectId) await this.projects.getOwned(user.id, request.projectId);
    const row = this.newRun(user, { ...request, modelOrder: engines.map((e) => e.key), onlyStages: null });
    // The run starts before its row is stored: the insert waits (briefly) until the first engine
    // request is on the wire, and nothing of the run is stored, renewed or sent before it is in.
    // The caller hears of the run once it is stored; a failed insert stops the run and is thrown.
    try {
      await this.launch(row.id, row.userId, 1, 'start', 0, row, (activity) => activity.quiet(EVENT_WAIT_MS).then(() => this.orm.em.fork().insert(Conversation, row)));
    } catch (error) {
      throw this.stops.unstorable(error) ?? error;
    }
    return row.id;
  }

  /**
   * "Repair again": a new run of Proven Code alone on the project's current files, reserved and
   * charged like any stage. Only a failed gate has something to repair, and one run at a time
   * works on a project (checked under the project's row lock, so two clicks start one run).
   */
  async startRepair(user: Owner, projectId: string, request: RepairRequest): Promise<string> {
    const engines = this.engines.resolve(request.modelOrder);
    const row = await this.orm.em.fork().transactional(async (em) => {
      const project = await this.projects.getOwned(user.id, projectId, em);
      await sqlOf(em)('select id from projects where id = ? for update', [projectId]);
      const verdict = (await this.verifications?.currentIn(em, projectId, project.version))?.verdict;
      if (verdict === 'passed') throw new AppError('CONFLICT', 'This project passed Proven Code: there is nothing to repair.');
      if (verdict === 'unproven') {
        throw new AppError('CONFLICT', 'Nothing in this project failed Proven Code, so there is nothing to repair; what could not run here is named on its Proven Code tab. Re-check it instead.');
      }
      const busy = await sqlOf(em)("select id from conversations where project_id = ? and status = 'running' limit 1", [projectId]);
      if (busy.length > 0) throw new AppError('CONFLICT', 'A run is already working on this project. Follow it, or wait for it to finish and try again.');
      const created = this.newRun(user, { idea: project.idea, cycles: 1, projectId, maxCostCents: request.maxCostCents, modelOrder: engines.map((e) => e.key), onlyStages: REPAIR_STAGES });
      await em.insert(Conversation, created);
      return created;
    });
    this.launch(row.id, row.userId, 1, 'start', 0, row);
    return row.id;
  }

  private newRun(
    user: Owner,
    request: Pick<StreamRequest, 'idea' | 'cycles' | 'projectId' | 'attachments' | 'maxCostCents' | 'modelOrder'> & { onlyStages: PipelineRole[] | null },
  ) {
    const now = new Date();
    return {
      id: randomUUID(),
      userId: user.id,
      idea: request.idea,
      modelOrder: request.modelOrder,
      cycles: request.cycles,
      onlyStages: request.onlyStages,
      maxCostCents: request.maxCostCents ?? null,
      attachments: request.attachments ?? [],
      projectId: request.projectId ?? null,
      status: 'running' as const,
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
    };
  }

  /** Continues a run stopped for lack of credits (or given up after takeovers) from its last finished stage. */
  async resume(user: Owner, runId: string): Promise<void> {
    await this.reader.getOwned(user, runId);
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
    this.launch(runId, user.id, (await this.lastSeq(runId)) + 1, 'resume', Number(claimed[0]!.attempt));
  }

  /**
   * `owner`: the user whose run it is, when known for certain (streams opened on the run then
   * check it without a query); `row`: the run as just created (a fresh start need not read it
   * back); `store`: stores that row while the run starts. Resolves once the row is stored (at once when there is none to store).
   */
  private launch(
    runId: string,
    owner: string | undefined,
    nextSeq: number,
    mode: LaunchMode,
    attempt: number,
    row?: RunRow,
    store?: (activity: EngineActivity) => Promise<unknown>,
  ): Promise<void> {
    const controller = new AbortController();
    const activity = new EngineActivity();
    const outage: OutageHooks = {
      onLost: (reason) => {
        this.log.warn(`run ${runId}: the database is unreachable (${reason}); retrying for up to ${describeWait(this.databaseRetryMs)}`);
        // Unstored (nothing can be), to the run's followers here: the feed must not just go quiet.
        this.hub.notice(runId, liveLine('warning', `The database is unreachable; retrying for up to ${describeWait(this.databaseRetryMs)}. The run's work so far is kept.`));
      },
      onBack: (waitedMs) => this.log.info(`run ${runId}: the database answered again after ${Math.round(waitedMs / 1000)} s`),
    };
    const retry = new RunDatabaseRetry(this.databaseRetryMs, outage, controller.signal);
    const local = { controller, done: Promise.resolve(), stored: !store, ...(owner === undefined ? {} : { owner }) };
    const stored = (store ? store(activity) : Promise.resolve()).then(
      () => void (local.stored = true),
      (error: unknown) => {
        controller.abort(error);
        throw error;
      },
    );
    // The hub keeps the run's latest events from here on: streams opened on it replay from memory.
    this.hub.begin(runId, nextSeq);
    const writer = new RunEventWriter(
      this.sql,
      runId,
      this.instanceId,
      (batch) => {
        for (const { seq, event } of batch) this.hub.publish(runId, seq, event);
        void this.notifier.notify(runId);
      },
      // Events wait (briefly) for the engines to be busy (see EngineActivity), and for the run's row.
      () => stored.then(() => activity.quiet(EVENT_WAIT_MS)),
      (write) => retry.attempt(write),
    );
    const done = this.execute(runId, nextSeq, mode, attempt, { writer, activity, retry, outage, isStored: () => local.stored }, controller.signal, row)
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
    local.done = done;
    this.local.set(runId, local);
    return stored;
  }

  private async execute(
    runId: string,
    firstSeq: number,
    mode: LaunchMode,
    attempt: number,
    { writer, activity, retry, outage, isStored }: { writer: RunEventWriter; activity: EngineActivity; retry: RunDatabaseRetry; outage: OutageHooks; isStored: () => boolean },
    signal: AbortSignal,
    row?: RunRow,
  ): Promise<void> {
    let seq = firstSeq;
    // Write-behind: the pipeline never waits for an event's insert (the checkpoint does).
    const emit = (event: PipelineEvent) => writer.push(seq++, event);
    // Every statement of the run waits out a lost database (see RunDatabaseRetry).
    const attempt_ = <T>(write: () => Promise<T>) => retry.attempt(write);
    const onBack = outage.onBack;
    let goingOn = true;
    outage.onBack = (waitedMs) => {
      onBack(waitedMs);
      // Stored with the run's events (the writer is what just got through, or about to).
      if (goingOn && !writer.failed) emit(logEvent('info', `The database answered again after ${describeWait(waitedMs)}; the run goes on.`));
    };
    const run = row ?? (await attempt_(() => this.orm.em.fork().findOneOrFail(Conversation, { id: runId }, { populate: ['attachments', 'checkpoint'] })));
    const checkpoint = (run.checkpoint ?? undefined) as PipelineCheckpoint | undefined;
    // What this run's engine calls cost: earlier attempts' stored usage, plus this attempt's stages.
    let costMillicents = mode === 'start' ? 0 : await attempt_(() => this.totalCost(runId));
    // What earlier attempts were billed: where the run's cost so far starts, and what counts against its limit.
    const spentBefore = mode === 'start' ? 0 : await attempt_(() => RunBilling.spentCents(this.orm, runId));
    // Each engine call holds what it may cost as it starts (core's CallPurse); a call refused for
    // credits first waits for earlier stages' settlements, which commit behind the pipeline.
    const billing = new RunBilling(this.orm, this.ledger, run.userId, runId, run.maxCostCents ?? null, attempt, spentBefore, {
      settleEarlier: () => commits.settled(),
      whenBusy: () => activity.quiet(EVENT_WAIT_MS),
      check: () => commits.check(),
      retry: attempt_,
    });
    const mine = { id: runId, instanceId: this.instanceId };
    const engines = this.engines.resolve(run.modelOrder);
    // Proven Code runs the generated project in the sandbox (when this server has one).
    const gate = createExecutionGate({ env: this.proofEnv, execute: this.executeProject, owner: { userId: run.userId, ...(run.projectId ? { projectId: run.projectId } : {}) } });
    // Checkpoints commit behind the pipeline, while the next stage's engines work.
    const commits = new StageCommits(async (stages) => {
      // The stages' events are stored before their checkpoint: a crash loses only what the next owner redoes.
      await writer.flush();
      // A commit that went through unanswered is found by its usage rows' keys on the next try.
      await retryUnique(attempt_, () => this.saveCheckpoint(billing, stages, engines), () => this.stops.committed(runId, stages));
    }, activity);
    try {
      if (mode === 'start') emit({ type: 'run', runId, conversationId: runId, ...(run.onlyStages ? { stages: run.onlyStages } : {}) });
      // A fresh run has no holds yet; a continued one may have the dead attempt's.
      else await attempt_(() => billing.releaseLeftoverHolds());
      const existingFiles = run.projectId && !checkpoint ? await attempt_(() => this.projects.files(run.userId, run.projectId!)) : undefined;
      if (mode !== 'start') emit(logEvent(mode === 'takeover' ? 'warning' : 'info', continuedMessage(mode, checkpoint?.completedStages ?? 0)));
      const pipeline = runPipeline({
        idea: run.idea,
        attachments: run.attachments,
        cycles: run.cycles,
        ...(run.onlyStages ? { stages: run.onlyStages } : {}),
        engines: activity.watch(engines),
        extraCheck: gate.check,
        existingFiles,
        checkpoint,
        signal,
        // Every engine call holds what it may cost, at the output cap the balance pays, as it starts
        // (or, when the run's last hold shows the balance covers it, while it goes out); a stage that
        // calls no engine holds nothing.
        budget: billing.purse,
        spentCents: spentBefore,
        onCheckpoint: async (cp, calls) => {
          costMillicents += calls.reduce((sum, c) => sum + c.costMillicents, 0);
          const position = cp.completedStages - 1;
          commits.add({ holds: await billing.takeStage(position, cp.stages.at(-1)?.role ?? 'Planning'), cp, calls });
        },
      });
      let step = await pipeline.next();
      while (!step.done) {
        emit(step.value);
        step = await pipeline.next();
      }
      const outcome = step.value;
      traceStep('pipeline-done');
      activity.end();
      // The run's last events are stored with its end, in one transaction (see finish).
      writer.hold();
      const result: RunResult = {
        userId: run.userId,
        conversationId: runId,
        idea: run.idea,
        projectId: run.projectId ?? null,
        files: outcome.files,
        processingMs: outcome.executionMs,
        costMillicents,
      };
      // The record of what was proven: the static checks and the run of exactly the final files.
      const record = buildVerificationRecord({
        version: 1,
        paths: Object.keys(outcome.files),
        staticReport: outcome.staticReport,
        execution: await gate.reportFor(outcome.files, signal, (message) => emit(logEvent('info', message))),
      });
      const verification = { ...outcome.verification, checkedFiles: record.coveredFiles.length, verdict: record.verdict, proven: record.proven, notProven: record.notProven };
      emit(logEvent(VERDICT_LEVEL[record.verdict], `Proven Code verdict: ${record.verdict}. ${record.proven}${record.notProven ? ` Not proven: ${record.notProven}` : ''}`));
      let last = await commits.take();
      if (!outcome.verification.passed) {
        // The refund reads what the repair rounds were billed, the last stages' included: they commit first.
        await writer.flush();
        const stages = last;
        if (stages.length > 0) await attempt_(() => this.saveCheckpoint(billing, stages, engines));
        last = [];
        const refunded = await attempt_(() => billing.refundRepairs());
        if (refunded > 0) {
          emit(logEvent('info', `Refunded ${formatCents(refunded)} for repair rounds that did not make the code pass: you pay for proof, not for failed fixes.`));
          emit({ type: 'cost', spentCents: Math.max(0, billing.purse.spentCents - refunded) });
        }
      }
      await writer.idle();
      // One statement (one transaction when stages move money): the last stages' usage and charges,
      // the project, the run completed, its last events and `complete` event. (Should it fail,
      // those stages' holds go back below uncharged.)
      const endSeq = seq++;
      const { projectId, stored } = await attempt_(() => this.finish(billing, last, engines, result, (project) => {
        const { write, batch } = writer.takeHeld(endSeq, {
          type: 'complete',
          projectId: project.id,
          filesGenerated: Object.keys(outcome.files).length,
          verification,
          executionSeconds: Math.round(outcome.executionMs / 100) / 10,
        });
        // The verification record of the version this run saved, kept with it.
        const proof = this.verifications?.recordWrite(project.id, { ...record, version: project.version });
        return { writes: [...(proof ? [['verification', proof] as const] : []), ['events', write] as const], stored: batch };
      }).catch((error: unknown) => {
        // Not stored: the events it took go back first, for the next try.
        writer.reset();
        throw error;
      }));
      traceStep('end-stored');
      writer.announce(stored);
      // The result reaches the user before the after-save work's queries take this thread (PGlite).
      await yieldToIo();
      // After the user has the result (the run is already completed either way); never fails the run.
      await this.onProjectSaved?.({ userId: run.userId, idea: run.idea, conversationId: runId, projectId }).catch((e) => this.log.warn(`run ${runId}: after-save work failed`, e));
    } catch (error) {
      goingOn = false;
      // Shutting down, or another process owns the run now: it stays as it is, for whoever continues it.
      if (signal.aborted || error instanceof LeaseLostError) {
        // Unless its row was never stored: nobody can continue it, so what it held goes back.
        if (!isStored()) await billing.releaseLeftoverHolds().catch((e) => this.log.warn(`run ${runId}: releasing the holds of a run never stored failed`, e));
        return;
      }
      activity.end();
      // Stages that finished are stored (or their failure is known) before anything is given back.
      await commits.settled().catch(() => {});
      if (commits.failed instanceof LeaseLostError) return;
      // The database itself may have stopped the run: full, or gone for longer than the run waits.
      const causes = [error, commits.failed, writer.stoppedBy];
      const full = causes.find((cause) => cause !== undefined && isDiskFull(cause));
      if (full !== undefined) return await this.stops.stopUnstorable(runId, full, billing);
      if (causes.some((cause) => cause instanceof DatabaseGoneError || (cause !== undefined && isDatabaseUnreachable(cause)))) {
        return await this.stops.stopUntilDatabaseBack(runId, billing, signal, (event) => writer.reset() && (emit(event), true));
      }
      let message = error instanceof AppError ? error.message : 'The run stopped because of an internal error. Try again; if it keeps failing, report it.';
      if (!(error instanceof AppError)) this.log.error(`run ${runId} failed`, error);
      // The stage that failed made calls nobody can use: its hold goes back uncharged.
      await retryBriefly(() => billing.releaseLeftoverHolds()).catch((e) => this.log.warn(`run ${runId}: releasing holds failed`, e));
      // Told with the balance and the cost as they are now that the holds are back.
      const told = await billing.afterStop(error, message, billing.purse.spentCents).catch(() => ({ message, cost: null }));
      message = told.message;
      // Out of credits (or over its own cap): stopped before a stage, resumable after a top-up.
      const stopped = error instanceof AppError && error.code === 'PAYMENT_REQUIRED';
      await retryBriefly(() => this.orm.em.fork().nativeUpdate(
        Conversation,
        mine,
        stopped ? { status: 'interrupted', error: message, updatedAt: new Date() } : { status: 'failed', error: message, completedAt: new Date(), updatedAt: new Date() },
      ));
      // The database may have stayed away long enough to stop the writer: the end must still be stored.
      if (!writer.reset()) return;
      if (told.cost) emit(told.cost);
      emit({ type: 'error', error: message, code: error instanceof AppError ? error.code : 'INTERNAL' });
    }
  }

  /**
   * The end of a run in one statement, fenced by the lease: the last stages' usage (and, in the
   * same transaction, their charges), the project saved, the run completed (its checkpoint
   * dropped: a completed run is never continued), and what `more` adds for the saved project.
   */
  private async finish<T>(
    billing: RunBilling,
    stages: FinishedStage[],
    engines: readonly EngineKeys[],
    result: RunResult,
    more: (project: { id: string; version: number }) => { writes: ReadonlyArray<readonly [string, GatedWrite]>; stored: T },
  ): Promise<{ projectId: string; stored: T }> {
    const cp = stages.at(-1)?.cp;
    traceStep('end-begins');
    return billing.settleStages(stages, engines, async (em, usage) => {
      const save = async (em: EntityManager) => {
        const project = await this.projects.runResultWrites(em, result);
        const { writes, stored } = more(project);
        const fence = this.fence(billing.runId, {
          ...(cp ? { stages: cp.stages, executionMs: cp.executionMs } : {}),
          checkpoint: null,
          projectId: project.id,
          status: 'completed',
          completedAt: new Date(),
        });
        await this.whileOwned(em, billing.runId, fence, [...project.writes, ...writes, ...(usage ? [['usage', usage] as const] : [])]);
        return { projectId: project.id, stored };
      };
      // A project the run continues is updated by statements of its own first: then all in one transaction.
      return result.projectId && !em.isInTransaction() ? em.transactional(save) : save(em);
    });
  }

  /** Finished stages' checkpoint (the last one's), engine usage and settled charges: one statement (and transaction), fenced by the lease. */
  private async saveCheckpoint(billing: RunBilling, stages: FinishedStage[], engines: readonly EngineKeys[]): Promise<void> {
    const cp = stages.at(-1)!.cp;
    await billing.settleStages(stages, engines, (em, usage) =>
      this.whileOwned(em, billing.runId, this.fence(billing.runId, { checkpoint: cp, stages: cp.stages, executionMs: cp.executionMs }), usage ? [['usage', usage]] : []),
    );
  }

  /** The run's row updated, only while this process owns it: the gate of a statement's writes. */
  private fence(runId: string, changes: RunChanges): SqlPart {
    const now = new Date();
    const set: Array<[string, unknown]> = [];
    if ('checkpoint' in changes) set.push(['checkpoint = ?::jsonb', changes.checkpoint === null ? null : JSON.stringify(changes.checkpoint)]);
    if (changes.stages) set.push(['stages = ?::jsonb', JSON.stringify(changes.stages)]);
    if (changes.executionMs !== undefined) set.push(['execution_ms = ?::bigint', changes.executionMs]);
    if (changes.projectId) set.push(['project_id = ?::uuid', changes.projectId]);
    if (changes.status) set.push(['status = ?::text', changes.status]);
    if (changes.completedAt) set.push(['completed_at = ?::timestamptz', changes.completedAt]);
    // The write renews the lease, but never takes back one this process gave back (heartbeat_at
    // null, at shutdown): a stage that ends after the release must leave the run claimable.
    set.push(['updated_at = ?::timestamptz', now], ['heartbeat_at = case when heartbeat_at is null then null else ?::timestamptz end', now]);
    return sqlPart(`update conversations set ${set.map(([column]) => column).join(', ')} where id = ?::uuid and instance_id = ? returning id`, [
      ...set.map(([, value]) => value),
      runId,
      this.instanceId,
    ]);
  }

  /**
   * `fence` and `writes` in one statement: nothing is stored, and it throws, when another process
   * owns the run now (every write reads from the fence, which then yields no row).
   */
  private async whileOwned(em: EntityManager, runId: string, fence: SqlPart, writes: ReadonlyArray<readonly [string, GatedWrite]>): Promise<void> {
    const { text, params } = oneStatement(['fence', fence], writes, sqlPart('select count(*)::int as owned from fence'));
    const rows = await plainSql(em).execute<Array<{ owned: number }>>(text, params);
    // Nothing of this run may be stored or charged here any more.
    if (Number(rows[0]?.owned ?? 0) === 0) throw new LeaseLostError(`run ${runId} was taken over by another server`);
  }

  private async totalCost(runId: string): Promise<number> {
    const rows = await this.sql<{ total: string | number | null }>('select coalesce(sum(cost_millicents), 0) as total from engine_usage where conversation_id = ?', [runId]);
    return Number(rows[0]?.total ?? 0);
  }

  private async lastSeq(runId: string): Promise<number> {
    return (await this.reader.lastEvent(runId)).seq;
  }

  info(user: Owner, runId: string): Promise<RunInfo> {
    return this.reader.info(user, runId);
  }

  /** "Run not found" unless the run is the user's (one plain select). */
  assertOwned(user: Owner, runId: string): Promise<void> {
    // A crowd opening streams on a run of this process is answered from memory: no query each.
    const owner = this.local.get(runId)?.owner;
    if (owner === undefined) return this.reader.assertOwned(user, runId);
    return owner === user.id ? Promise.resolve() : Promise.reject(new AppError('NOT_FOUND', 'Run not found'));
  }

  /**
   * The run's events after `afterSeq`, then live ones until it ends (see {@link RunReader.events});
   * `checked`: the caller has already made sure the run is the user's.
   */
  events(user: Owner, runId: string, afterSeq: number, signal: AbortSignal, checked = false): AsyncGenerator<{ seq: number; event: PipelineEvent }> {
    return this.reader.events(user, runId, afterSeq, signal, checked);
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
