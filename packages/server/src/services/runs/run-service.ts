import { randomUUID } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/core';
import { AppError, type PipelineEvent, type RepairRequest, type RunEstimateReply, type RunInfo, type StreamRequest } from '@wolfpack/core';
import { executeProject, type ProjectExecutor, type ProofEnv } from '@wolfpack/core/proof';
import type { LedgerService } from '../billing/ledger-service.js';
import { RunEstimates } from './run-estimates.js';
import type { Logger } from '../../logger.js';
import type { EngineRegistry } from './engine-registry.js';
import type { ProjectService } from '../projects/project-service.js';
import type { SqlAll } from './run-event-writer.js';
import type { RunHub } from './run-hub.js';
import { RunLeases } from './run-leases.js';
import { localRunNotifier, type RunNotifier } from './run-notifier.js';
import { RunReader } from './run-reader.js';
import { RunDatabaseStops } from './run-database-stops.js';
import type { VerificationService } from './verification-service.js';
import { RunExecution } from './run-execution.js';
import { RunLauncher } from './run-launcher.js';
import { RunTakeover } from './run-takeover.js';

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
  /** Proven Code's sandbox settings (WOLFPACK_SANDBOX, WOLFPACK_PROOF_*), as config/env.ts read them. @default {} (every default) */
  proofEnv?: ProofEnv;
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

/**
 * Runs outlive connections and processes: a run is started in the background under a lease this
 * process renews every second; its events are stored write-behind (numbered, for Last-Event-ID)
 * and reach followers only once stored; its checkpoint after each finished stage is stored with
 * that stage's engine usage in one transaction. A run whose process died is taken over by a live
 * process (at start-up on PGlite, within one lease on PostgreSQL) and continued from its last
 * finished stage, with "The server restarted; continuing" in its feed.
 *
 * Starting runs is the launcher's work (run-launcher.ts), running one the execution's
 * (run-execution.ts), leases and takeovers the takeover's (run-takeover.ts).
 */
export class RunService {
  readonly instanceId: string;
  private readonly launcher: RunLauncher;
  private readonly takeover: RunTakeover;
  private readonly reader: RunReader;
  private readonly estimates: RunEstimates;

  constructor(
    private readonly orm: MikroORM,
    engines: EngineRegistry,
    projects: ProjectService,
    hub: RunHub,
    log: Logger,
    ledger: LedgerService,
    options: RunServiceOptions = {},
  ) {
    const instanceId = (this.instanceId = options.instanceId ?? randomUUID());
    const sql = this.sql;
    const leases = new RunLeases(sql, instanceId, options.leaseMs ?? 3000);
    const notifier = options.notifier ?? localRunNotifier(1000);
    const verifications = options.verifications;
    const databaseRetryMs = options.databaseRetryMs ?? 120_000;
    this.reader = new RunReader(orm, sql, hub, notifier, (runId) => this.launcher.local.has(runId));
    this.estimates = new RunEstimates(sql, engines, projects);
    const stops = new RunDatabaseStops(orm, sql, hub, log, instanceId, databaseRetryMs, options.onDiskFull);
    const execution = new RunExecution({
      orm,
      engines,
      projects,
      ledger,
      log,
      sql,
      instanceId,
      stops,
      verifications,
      proofEnv: options.proofEnv ?? {},
      executeProject: options.executeProject ?? executeProject,
      onProjectSaved: options.onProjectSaved,
    });
    this.launcher = new RunLauncher({ orm, engines, projects, hub, log, notifier, sql, instanceId, leaseMs: leases.leaseMs, databaseRetryMs, reader: this.reader, stops, verifications, execution });
    this.takeover = new RunTakeover({ launcher: this.launcher, leases, notifier, log, sql, instanceId, orphansAtStart: options.orphansAtStart ?? false });
  }

  private readonly sql: SqlAll = (sql, params) => this.orm.em.fork().getConnection().execute(sql, params, 'all');

  /** What a run of `request` would probably cost (POST /api/wolfpack/estimate): a range, before it starts. */
  estimate(user: Owner, request: StreamRequest): Promise<RunEstimateReply> {
    return this.estimates.estimate(user.id, request);
  }

  /** Takes over orphaned runs, then renews this process's leases and watches for expired ones (see RunTakeover). */
  startBackgroundWork(closing?: AbortSignal): Promise<void> {
    return this.takeover.startBackgroundWork(closing);
  }

  /** Shutdown: this process's runs stop, their events are flushed and their leases released. */
  stop(): Promise<void> {
    return this.takeover.stop();
  }

  start(user: Owner, request: StreamRequest): Promise<string> {
    return this.launcher.start(user, request);
  }

  /** "Repair again": Proven Code alone on the project's current files (see RunLauncher.startRepair). */
  startRepair(user: Owner, projectId: string, request: RepairRequest): Promise<string> {
    return this.launcher.startRepair(user, projectId, request);
  }

  /** Continues a run stopped for lack of credits (or given up after takeovers) from its last finished stage. */
  resume(user: Owner, runId: string): Promise<void> {
    return this.launcher.resume(user, runId);
  }

  info(user: Owner, runId: string): Promise<RunInfo> {
    return this.reader.info(user, runId);
  }

  /** "Run not found" unless the run is the user's (one plain select). */
  assertOwned(user: Owner, runId: string): Promise<void> {
    // A crowd opening streams on a run of this process is answered from memory: no query each.
    const owner = this.launcher.local.get(runId)?.owner;
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
