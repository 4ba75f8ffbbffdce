import { randomUUID } from 'node:crypto';
import type { EntityManager, MikroORM } from '@mikro-orm/core';
import { AppError, type PipelineRole, type RepairRequest, type StreamRequest } from '@wolfpack/core';
import { EngineActivity } from './engine-activity.js';
import { Conversation } from '../../entities/index.js';
import type { Logger } from '../../logger.js';
import type { EngineRegistry } from './engine-registry.js';
import type { ProjectService } from '../projects/project-service.js';
import { LeaseLostError, RunEventWriter, type SqlAll } from './run-event-writer.js';
import type { RunHub } from './run-hub.js';
import type { RunNotifier } from './run-notifier.js';
import type { RunReader } from './run-reader.js';
import { describeWait, RunDatabaseRetry, type OutageHooks } from './run-database-retry.js';
import { liveLine, type RunDatabaseStops } from './run-database-stops.js';
import type { VerificationService } from './verification-service.js';
import { EVENT_WAIT_MS, type LaunchMode, type RunExecution, type RunRow } from './run-execution.js';

type Owner = { id: string };

/** Queries in `em`'s transaction. */
const sqlOf =
  (em: EntityManager): SqlAll =>
  (sql, params) =>
    (em as EntityManager & { execute<T>(sql: string, params: unknown[], method: 'all'): Promise<T[]> }).execute(sql, params, 'all');

/** What "Repair again" does: Proven Code's repair rounds on the project's current files. */
const REPAIR_STAGES: PipelineRole[] = ['Proven Code'];

/**
 * A run this process runs; `stored` once the run's row exists (a lease can be renewed); `owner`
 * when known without a query (a run started or resumed here; not one taken over).
 */
export type LocalRun = { controller: AbortController; done: Promise<void>; stored: boolean; owner?: string };

export interface RunLauncherParts {
  orm: MikroORM;
  engines: EngineRegistry;
  projects: ProjectService;
  hub: RunHub;
  log: Logger;
  notifier: RunNotifier;
  sql: SqlAll;
  instanceId: string;
  leaseMs: number;
  databaseRetryMs: number;
  reader: RunReader;
  stops: RunDatabaseStops;
  verifications: VerificationService | undefined;
  execution: RunExecution;
}

/**
 * Starts runs in the background (new, "Repair again", resumed, taken over): each gets its event
 * writer, its database retry and its place among this process's runs until it ends.
 */
export class RunLauncher {
  /** Runs this process runs. */
  readonly local = new Map<string, LocalRun>();

  constructor(private readonly parts: RunLauncherParts) {}

  async start(user: Owner, request: StreamRequest): Promise<string> {
    const engines = this.parts.engines.resolve(request.modelOrder);
    if (request.projectId) await this.parts.projects.getOwned(user.id, request.projectId);
    const row = this.newRun(user, { ...request, modelOrder: engines.map((e) => e.key), onlyStages: null });
    // The run starts before its row is stored: the insert waits (briefly) until the first engine
    // request is on the wire, and nothing of the run is stored, renewed or sent before it is in.
    // The caller hears of the run once it is stored; a failed insert stops the run and is thrown.
    try {
      await this.launch(row.id, row.userId, 1, 'start', 0, row, (activity) => activity.quiet(EVENT_WAIT_MS).then(() => this.parts.orm.em.fork().insert(Conversation, row)));
    } catch (error) {
      throw this.parts.stops.unstorable(error) ?? error;
    }
    return row.id;
  }

  /**
   * "Repair again": a new run of Proven Code alone on the project's current files, reserved and
   * charged like any stage. Only a failed gate has something to repair, and one run at a time
   * works on a project (checked under the project's row lock, so two clicks start one run).
   */
  async startRepair(user: Owner, projectId: string, request: RepairRequest): Promise<string> {
    const engines = this.parts.engines.resolve(request.modelOrder);
    const row = await this.parts.orm.em.fork().transactional(async (em) => {
      const project = await this.parts.projects.getOwned(user.id, projectId, em);
      await sqlOf(em)('select id from projects where id = ? for update', [projectId]);
      const verdict = (await this.parts.verifications?.currentIn(em, projectId, project.version))?.verdict;
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
      instanceId: this.parts.instanceId,
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
    await this.parts.reader.getOwned(user, runId);
    // One process wins the claim: the update only matches a run nobody is running any more.
    const claimed = this.local.has(runId)
      ? []
      : await this.parts.sql<{ attempt: number }>(
          `update conversations set status = 'running', error = null, instance_id = ?, heartbeat_at = now(), attempt = attempt + 1, takeovers = 0, updated_at = now()
           where id = ? and user_id = ? and (status = 'interrupted' or (status = 'running' and (heartbeat_at is null or heartbeat_at < now() - ? * interval '1 millisecond')))
           returning attempt`,
          [this.parts.instanceId, runId, user.id, this.parts.leaseMs],
        );
    if (claimed.length === 0) {
      const run = await this.parts.reader.info(user, runId);
      throw new AppError(
        'CONFLICT',
        run.status === 'running' ? 'This run is still running; reattach to follow it.' : `This run has ${run.status} and cannot be resumed.`,
      );
    }
    this.launch(runId, user.id, (await this.lastSeq(runId)) + 1, 'resume', Number(claimed[0]!.attempt));
  }

  async lastSeq(runId: string): Promise<number> {
    return (await this.parts.reader.lastEvent(runId)).seq;
  }

  /**
   * `owner`: the user whose run it is, when known for certain (streams opened on the run then
   * check it without a query); `row`: the run as just created (a fresh start need not read it
   * back); `store`: stores that row while the run starts. Resolves once the row is stored (at once when there is none to store).
   */
  launch(
    runId: string,
    owner: string | undefined,
    nextSeq: number,
    mode: LaunchMode,
    attempt: number,
    row?: RunRow,
    store?: (activity: EngineActivity) => Promise<unknown>,
  ): Promise<void> {
    const { hub, log, notifier, databaseRetryMs } = this.parts;
    const controller = new AbortController();
    const activity = new EngineActivity();
    const outage: OutageHooks = {
      onLost: (reason) => {
        log.warn(`run ${runId}: the database is unreachable (${reason}); retrying for up to ${describeWait(databaseRetryMs)}`);
        // Unstored (nothing can be), to the run's followers here: the feed must not just go quiet.
        hub.notice(runId, liveLine('warning', `The database is unreachable; retrying for up to ${describeWait(databaseRetryMs)}. The run's work so far is kept.`));
      },
      onBack: (waitedMs) => log.info(`run ${runId}: the database answered again after ${Math.round(waitedMs / 1000)} s`),
    };
    const retry = new RunDatabaseRetry(databaseRetryMs, outage, controller.signal);
    const local: LocalRun = { controller, done: Promise.resolve(), stored: !store, ...(owner === undefined ? {} : { owner }) };
    const stored = (store ? store(activity) : Promise.resolve()).then(
      () => void (local.stored = true),
      (error: unknown) => {
        controller.abort(error);
        throw error;
      },
    );
    // The hub keeps the run's latest events from here on: streams opened on it replay from memory.
    hub.begin(runId, nextSeq);
    const writer = new RunEventWriter(
      this.parts.sql,
      runId,
      this.parts.instanceId,
      (batch) => {
        for (const { seq, event } of batch) hub.publish(runId, seq, event);
        void notifier.notify(runId);
      },
      // Events wait (briefly) for the engines to be busy (see EngineActivity), and for the run's row.
      () => stored.then(() => activity.quiet(EVENT_WAIT_MS)),
      (write) => retry.attempt(write),
    );
    const done = this.parts.execution
      .execute(runId, nextSeq, mode, attempt, { writer, activity, retry, outage, isStored: () => local.stored }, controller.signal, row)
      .catch((error) => log.error(`run ${runId} crashed`, error))
      // What was pushed is stored before followers are told the run ended here.
      .then(() => writer.flush())
      .catch((error) => {
        if (!(error instanceof LeaseLostError)) log.warn(`run ${runId}: storing its last events failed`, error);
      })
      .finally(() => {
        this.local.delete(runId);
        hub.end(runId);
        void notifier.notify(runId);
      });
    local.done = done;
    this.local.set(runId, local);
    return stored;
  }
}
