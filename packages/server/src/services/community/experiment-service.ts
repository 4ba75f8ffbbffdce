import { randomUUID } from 'node:crypto';
import type { InferEntity, MikroORM } from '@mikro-orm/core';
import {
  AppError,
  experimentSavingsPercent,
  experimentStatus,
  experimentTransition,
  streamRequest,
  type Experiment as ExperimentDto,
  type ExperimentAction,
  type ExperimentStatus,
  type RunStatus,
  type StartExperimentRequest,
  type SubmitCostsRequest,
} from '@wolfpack/core';
import { Experiment } from '../../entities/experiment.js';
import { Conversation } from '../../entities/index.js';
import { isUuid } from '../projects/project-service.js';
import type { RunService } from '../runs/run-service.js';
import { plainSql } from '../../db/plain-sql.js';

type Owner = { id: string };
type Row = InferEntity<typeof Experiment>;

/** Statuses whose run may still change: running, or interrupted and resumable. */
const RUN_OPEN = new Set<string>(['wolfpack_running', 'wolfpack_interrupted']);

/** How many experiments the history shows (newest first). */
const HISTORY_LIMIT = 100;

/**
 * The cost-comparison lab. An experiment starts a real pipeline run for its user; the
 * run's figures are read lazily (on the next read of the experiment after the run finished), so
 * nothing in the server polls. The Replit-only timer and the costs are the user's entries, timed
 * by the injected clock.
 */
export class ExperimentService {
  constructor(
    readonly orm: MikroORM,
    readonly runs: RunService,
    readonly clock: () => Date = () => new Date(),
  ) {}

  /** Starts the Wolfpack run of the prompt (billed like any run) and records the experiment. */
  async start(user: Owner, request: StartExperimentRequest): Promise<ExperimentDto> {
    // Every complexity runs the default pipeline: the label describes the prompt, it does not
    // buy a bigger run, so experiments of one complexity stay comparable.
    const runId = await this.runs.start(user, streamRequest.parse({ idea: request.testPrompt }));
    const now = this.clock();
    const em = this.orm.em.fork();
    const row = em.create(Experiment, {
      id: randomUUID(),
      userId: user.id,
      conversationId: runId,
      projectName: request.projectName,
      testPrompt: request.testPrompt,
      promptType: request.promptType,
      status: 'wolfpack_running' satisfies ExperimentStatus,
      wolfpackCostCents: null,
      wolfpackProcessingTimeMs: null,
      wolfpackReplitAssemblyCostCents: null,
      wolfpackReplitAssemblyTimeMs: null,
      replitOnlyStartedAt: null,
      replitOnlyCompletedAt: null,
      replitOnlyTotalTimeMs: null,
      replitOnlyCostCents: null,
      savingsHundredths: null,
      costsSubmittedAt: null,
      createdAt: now,
      updatedAt: now,
    });
    await em.flush();
    // A demo run can finish before this line: pick its figures up at once.
    return toDto(await this.refresh(user, row));
  }

  /** The user's experiments, newest first. */
  async list(user: Owner): Promise<ExperimentDto[]> {
    const rows = await this.orm.em.fork().find(Experiment, { userId: user.id }, { orderBy: { createdAt: 'desc', id: 'desc' }, limit: HISTORY_LIMIT });
    const fresh = await Promise.all(rows.map((row) => this.refresh(user, row)));
    return fresh.map(toDto);
  }

  /** One of the user's experiments; another user's, or none, is a 404. */
  async get(user: Owner, id: string): Promise<ExperimentDto> {
    return toDto(await this.refresh(user, await this.owned(user, id)));
  }

  /** Records the start of the Replit-only timer; a second start is a 409. */
  async replitStart(user: Owner, id: string): Promise<ExperimentDto> {
    const row = await this.owned(user, id);
    this.step(row, { type: 'replit-start' });
    const now = this.clock();
    // Conditional update: of two concurrent starts exactly one wins; the other is refused as a repeat.
    const updated = await this.orm.em.fork().nativeUpdate(Experiment, { id: row.id, userId: user.id, replitOnlyStartedAt: null }, { replitOnlyStartedAt: now, updatedAt: now });
    if (updated === 0) this.step(await this.owned(user, id), { type: 'replit-start' });
    return this.get(user, id);
  }

  /** Records the end of the Replit-only timer and its total; 409 before a start or after an end. */
  async replitComplete(user: Owner, id: string): Promise<ExperimentDto> {
    const row = await this.owned(user, id);
    this.step(row, { type: 'replit-complete' });
    const now = this.clock();
    // A clock that went back must not make a negative duration.
    const totalMs = Math.max(0, now.getTime() - row.replitOnlyStartedAt!.getTime());
    const updated = await this.orm.em
      .fork()
      .nativeUpdate(Experiment, { id: row.id, userId: user.id, replitOnlyCompletedAt: null }, { replitOnlyCompletedAt: now, replitOnlyTotalTimeMs: totalMs, updatedAt: now });
    if (updated === 0) this.step(await this.owned(user, id), { type: 'replit-complete' });
    return this.get(user, id);
  }

  /**
   * Saves the costs the user measured once the Replit-only timer is complete, and the savings from
   * the core formula (null while the Wolfpack cost is unknown or the Replit-only cost is 0). The
   * first costs are the result (core's experiment flow): the same costs again answer it as it
   * stands, other costs are a 409, and of two submissions at once exactly one is taken.
   */
  async submitCosts(user: Owner, id: string, costs: SubmitCostsRequest): Promise<ExperimentDto> {
    const action: ExperimentAction = { type: 'submit-costs', costs };
    const row = await this.owned(user, id);
    if (this.step(row, action) === 'unchanged') return toDto(await this.refresh(user, row));
    const now = this.clock();
    const submitted = {
      wolfpackReplitAssemblyCostCents: costs.wolfpackReplitAssemblyCostCents,
      wolfpackReplitAssemblyTimeMs: costs.wolfpackReplitAssemblyTimeMs ?? null,
      replitOnlyCostCents: costs.replitOnlyCostCents,
    };
    const changes: Partial<Row> = {
      ...submitted,
      costsSubmittedAt: now,
      savingsHundredths: savingsHundredths({ ...row, ...submitted }),
      updatedAt: now,
      ...(row.status === 'wolfpack_complete' ? { status: experimentStatus('completed', true) } : {}),
    };
    // Only while no costs are in: a concurrent submission that got there first wins, and this one
    // is judged again against what it stored (the same costs: its result; others: refused).
    const updated = await this.orm.em.fork().nativeUpdate(Experiment, { id: row.id, userId: user.id, costsSubmittedAt: null, status: row.status }, changes);
    if (updated === 0) {
      const current = await this.owned(user, id);
      if (current.costsSubmittedAt === null) return this.submitCosts(user, id, costs);
      this.step(current, action);
      return toDto(await this.refresh(user, current));
    }
    return toDto(await this.refresh(user, { ...row, ...changes } as Row));
  }

  /** Core's experiment flow for this row: throws its refusal as a 409, else says apply or unchanged. */
  private step(row: Row, action: ExperimentAction): 'apply' | 'unchanged' {
    const transition = experimentTransition(
      {
        replitOnlyStartedAt: row.replitOnlyStartedAt ?? null,
        replitOnlyCompletedAt: row.replitOnlyCompletedAt ?? null,
        costsSubmittedAt: row.costsSubmittedAt ?? null,
        wolfpackReplitAssemblyCostCents: row.wolfpackReplitAssemblyCostCents ?? null,
        wolfpackReplitAssemblyTimeMs: row.wolfpackReplitAssemblyTimeMs ?? null,
        replitOnlyCostCents: row.replitOnlyCostCents ?? null,
      },
      action,
    );
    if (transition.kind === 'refuse') throw new AppError('CONFLICT', transition.message);
    return transition.kind;
  }

  private async owned(user: Owner, id: string, em = this.orm.em.fork()): Promise<Row> {
    const row = isUuid(id) ? await em.findOne(Experiment, { id, userId: user.id }) : null;
    if (!row) throw new AppError('NOT_FOUND', 'Experiment not found. It may belong to another account.');
    return row;
  }

  /**
   * Brings an experiment whose run was still open up to date with that run: status, and once the
   * run completed its billed cost and processing time (then the savings, if the costs are in).
   */
  private async refresh(user: Owner, row: Row): Promise<Row> {
    if (!RUN_OPEN.has(row.status)) return row;
    const runStatus = await this.runStatus(user, row.conversationId ?? null);
    const status = experimentStatus(runStatus, row.costsSubmittedAt !== null);
    if (status === row.status) return row;
    const changes: Partial<Row> = { status, updatedAt: this.clock() };
    if (runStatus === 'completed' && row.conversationId) {
      Object.assign(changes, await this.runFigures(row.conversationId));
      changes.savingsHundredths = savingsHundredths({ ...row, ...changes });
    }
    // Only the first reader that sees the change writes it; the figures are the same for all. Costs
    // submitted since this row was read leave it unwritten: the savings it holds would be stale.
    await this.orm.em.fork().nativeUpdate(Experiment, { id: row.id, status: row.status, costsSubmittedAt: row.costsSubmittedAt ?? null }, changes);
    return { ...row, ...changes } as Row;
  }

  private async runStatus(user: Owner, conversationId: string | null): Promise<RunStatus> {
    // The run was deleted with its project: it can never complete now.
    if (!conversationId) return 'failed';
    try {
      return (await this.runs.info(user, conversationId)).status;
    } catch (error) {
      if (error instanceof AppError && error.code === 'NOT_FOUND') return 'failed';
      throw error;
    }
  }

  /**
   * What the run cost the user (the cents billed for its engine calls, less the repair rounds
   * refunded when the gate failed) and how long its stages took.
   */
  private async runFigures(conversationId: string): Promise<Pick<Row, 'wolfpackCostCents' | 'wolfpackProcessingTimeMs'>> {
    const em = this.orm.em.fork();
    const sql = plainSql(em);
    const [billed] = await sql.execute<Array<{ total: string | number | null }>>('select coalesce(sum(billed_cents), 0) as total from engine_usage where conversation_id = ?', [conversationId]);
    const [refunded] = await sql.execute<Array<{ total: string | number | null }>>(
      `select coalesce(sum(amount_cents), 0) as total from ledger_entries where conversation_id = ? and kind = 'refund'`,
      [conversationId],
    );
    const run = await em.findOne(Conversation, { id: conversationId }, { fields: ['executionMs'] });
    return {
      wolfpackCostCents: Math.max(0, Number(billed?.total ?? 0) - Number(refunded?.total ?? 0)),
      wolfpackProcessingTimeMs: Math.round(run?.executionMs ?? 0),
    };
  }
}

function savingsHundredths(row: Pick<Row, 'wolfpackCostCents' | 'wolfpackReplitAssemblyCostCents' | 'replitOnlyCostCents'>): number | null {
  const percent = experimentSavingsPercent({
    wolfpackCostCents: row.wolfpackCostCents ?? null,
    wolfpackReplitAssemblyCostCents: row.wolfpackReplitAssemblyCostCents ?? null,
    replitOnlyCostCents: row.replitOnlyCostCents ?? null,
  });
  // The formula gives exactly 2 decimals; stored as an integer it stays exact.
  return percent === null ? null : Math.round(percent * 100);
}

function toDto(row: Row): ExperimentDto {
  return {
    id: row.id,
    projectName: row.projectName,
    testPrompt: row.testPrompt,
    promptType: row.promptType as ExperimentDto['promptType'],
    status: row.status,
    wolfpackCostCents: row.wolfpackCostCents ?? null,
    wolfpackProcessingTimeMs: row.wolfpackProcessingTimeMs ?? null,
    wolfpackReplitAssemblyCostCents: row.wolfpackReplitAssemblyCostCents ?? null,
    wolfpackReplitAssemblyTimeMs: row.wolfpackReplitAssemblyTimeMs ?? null,
    replitOnlyStartedAt: iso(row.replitOnlyStartedAt),
    replitOnlyCompletedAt: iso(row.replitOnlyCompletedAt),
    replitOnlyTotalTimeMs: row.replitOnlyTotalTimeMs ?? null,
    replitOnlyCostCents: row.replitOnlyCostCents ?? null,
    savingsPercent: row.savingsHundredths === null || row.savingsHundredths === undefined ? null : Number(row.savingsHundredths) / 100,
    createdAt: row.createdAt.toISOString(),
  };
}

function iso(value: Date | null | undefined): string | null {
  return value ? value.toISOString() : null;
}
