import { randomUUID } from 'node:crypto';
import type { EntityManager, InferEntity, MikroORM } from '@mikro-orm/core';
import { AppError, buildVerificationRecord, formatCents, type PipelineEvent } from '@wolfpack/core';
import { runPipeline, type PipelineCheckpoint } from '@wolfpack/core/pipeline';
import { createExecutionGate, type ProjectExecutor, type ProofEnv } from '@wolfpack/core/proof';
import type { LedgerService } from '../billing/ledger-service.js';
import { RunBilling } from './run-billing.js';
import type { EngineActivity } from './engine-activity.js';
import { StageCommits, type FinishedStage } from './stage-commits.js';
import { Conversation } from '../../entities/index.js';
import type { Logger } from '../../logger.js';
import type { EngineRegistry } from './engine-registry.js';
import type { ProjectService, RunResult } from '../projects/project-service.js';
import { LeaseLostError, yieldToIo, type RunEventWriter, type SqlAll } from './run-event-writer.js';
import { oneStatement, sqlPart, type GatedWrite, type SqlPart } from '../../db/one-statement.js';
import { plainSql } from '../../db/plain-sql.js';
import { traceStep } from './run-trace.js';
import { DatabaseGoneError, describeWait, retryBriefly, type OutageHooks, type RunDatabaseRetry } from './run-database-retry.js';
import type { RunDatabaseStops } from './run-database-stops.js';
import { isDatabaseUnreachable, isDiskFull, retryUnique } from '../../db/database-faults.js';
import type { VerificationService } from './verification-service.js';

/** The longest a run's events wait for its engines to be busy before they are stored anyway. */
export const EVENT_WAIT_MS = 50;

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
export type RunRow = Pick<InferEntity<typeof Conversation>, 'userId' | 'idea' | 'attachments' | 'cycles' | 'modelOrder' | 'maxCostCents' | 'projectId' | 'checkpoint' | 'onlyStages'>;
export type LaunchMode = 'start' | 'resume' | 'takeover';

/** What one run's execution works with, made by the launcher for that run. */
export interface RunTools {
  writer: RunEventWriter;
  activity: EngineActivity;
  retry: RunDatabaseRetry;
  outage: OutageHooks;
  isStored: () => boolean;
}

/** What every run of this process shares. */
export interface RunExecutionParts {
  orm: MikroORM;
  engines: EngineRegistry;
  projects: ProjectService;
  ledger: LedgerService;
  log: Logger;
  sql: SqlAll;
  instanceId: string;
  stops: RunDatabaseStops;
  verifications: VerificationService | undefined;
  proofEnv: ProofEnv;
  executeProject: ProjectExecutor;
  onProjectSaved: ((run: { userId: string; idea: string; conversationId: string; projectId: string }) => Promise<void>) | undefined;
}

/**
 * One run's pipeline from its first (or next unfinished) stage to its end: each finished stage's
 * checkpoint is stored with that stage's engine usage and charges in one transaction fenced by the
 * run's lease, and the end (project, verification record, `complete` event) in one statement.
 */
export class RunExecution {
  constructor(private readonly parts: RunExecutionParts) {}

  async execute(runId: string, firstSeq: number, mode: LaunchMode, attempt: number, tools: RunTools, signal: AbortSignal, row?: RunRow): Promise<void> {
    const { writer, activity, retry, outage, isStored } = tools;
    const { orm, ledger, log, instanceId, stops, verifications } = this.parts;
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
    const run = row ?? (await attempt_(() => orm.em.fork().findOneOrFail(Conversation, { id: runId }, { populate: ['attachments', 'checkpoint'] })));
    const checkpoint = (run.checkpoint ?? undefined) as PipelineCheckpoint | undefined;
    // What this run's engine calls cost: earlier attempts' stored usage, plus this attempt's stages.
    let costMillicents = mode === 'start' ? 0 : await attempt_(() => this.totalCost(runId));
    // What earlier attempts were billed: where the run's cost so far starts, and what counts against its limit.
    const spentBefore = mode === 'start' ? 0 : await attempt_(() => RunBilling.spentCents(orm, runId));
    // Each engine call holds what it may cost as it starts (core's CallPurse); a call refused for
    // credits first waits for earlier stages' settlements, which commit behind the pipeline.
    const billing = new RunBilling(orm, ledger, run.userId, runId, run.maxCostCents ?? null, attempt, spentBefore, {
      settleEarlier: () => commits.settled(),
      whenBusy: () => activity.quiet(EVENT_WAIT_MS),
      check: () => commits.check(),
      retry: attempt_,
    });
    const mine = { id: runId, instanceId };
    const engines = this.parts.engines.resolve(run.modelOrder);
    // Proven Code runs the generated project in the sandbox (when this server has one).
    const gate = createExecutionGate({ env: this.parts.proofEnv, execute: this.parts.executeProject, owner: { userId: run.userId, ...(run.projectId ? { projectId: run.projectId } : {}) } });
    // Checkpoints commit behind the pipeline, while the next stage's engines work.
    const commits = new StageCommits(async (stages) => {
      // The stages' events are stored before their checkpoint: a crash loses only what the next owner redoes.
      await writer.flush();
      // A commit that went through unanswered is found by its usage rows' keys on the next try.
      await retryUnique(attempt_, () => this.saveCheckpoint(billing, stages, engines), () => stops.committed(runId, stages));
    }, activity);
    try {
      if (mode === 'start') emit({ type: 'run', runId, conversationId: runId, ...(run.onlyStages ? { stages: run.onlyStages } : {}) });
      // A fresh run has no holds yet; a continued one may have the dead attempt's.
      else await attempt_(() => billing.releaseLeftoverHolds());
      const existingFiles = run.projectId && !checkpoint ? await attempt_(() => this.parts.projects.files(run.userId, run.projectId!)) : undefined;
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
        // "Repair again" runs only Proven Code's stages; other runs on a project continue it.
        ...(run.onlyStages ? { source: { kind: 'repair' as const } } : {}),
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
        const proof = verifications?.recordWrite(project.id, { ...record, version: project.version });
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
      await this.parts.onProjectSaved?.({ userId: run.userId, idea: run.idea, conversationId: runId, projectId }).catch((e) => log.warn(`run ${runId}: after-save work failed`, e));
    } catch (error) {
      goingOn = false;
      // Shutting down, or another process owns the run now: it stays as it is, for whoever continues it.
      if (signal.aborted || error instanceof LeaseLostError) {
        // Unless its row was never stored: nobody can continue it, so what it held goes back.
        if (!isStored()) await billing.releaseLeftoverHolds().catch((e) => log.warn(`run ${runId}: releasing the holds of a run never stored failed`, e));
        return;
      }
      activity.end();
      // Stages that finished are stored (or their failure is known) before anything is given back.
      await commits.settled().catch(() => {});
      if (commits.failed instanceof LeaseLostError) return;
      // The database itself may have stopped the run: full, or gone for longer than the run waits.
      const causes = [error, commits.failed, writer.stoppedBy];
      const full = causes.find((cause) => cause !== undefined && isDiskFull(cause));
      if (full !== undefined) return await stops.stopUnstorable(runId, full, billing);
      if (causes.some((cause) => cause instanceof DatabaseGoneError || (cause !== undefined && isDatabaseUnreachable(cause)))) {
        return await stops.stopUntilDatabaseBack(runId, billing, signal, (event) => writer.reset() && (emit(event), true));
      }
      let message = error instanceof AppError ? error.message : 'The run stopped because of an internal error. Try again; if it keeps failing, report it.';
      if (!(error instanceof AppError)) log.error(`run ${runId} failed`, error);
      // The stage that failed made calls nobody can use: its hold goes back uncharged.
      await retryBriefly(() => billing.releaseLeftoverHolds()).catch((e) => log.warn(`run ${runId}: releasing holds failed`, e));
      // Told with the balance and the cost as they are now that the holds are back.
      const told = await billing.afterStop(error, message, billing.purse.spentCents).catch(() => ({ message, cost: null }));
      message = told.message;
      // Out of credits (or over its own cap): stopped before a stage, resumable after a top-up.
      const stopped = error instanceof AppError && error.code === 'PAYMENT_REQUIRED';
      await retryBriefly(() => orm.em.fork().nativeUpdate(
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
        const project = await this.parts.projects.runResultWrites(em, result);
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
      this.parts.instanceId,
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
    const rows = await this.parts.sql<{ total: string | number | null }>('select coalesce(sum(cost_millicents), 0) as total from engine_usage where conversation_id = ?', [runId]);
    return Number(rows[0]?.total ?? 0);
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
