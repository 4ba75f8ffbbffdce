import type { EntityManager, MikroORM } from '@mikro-orm/core';
import { AppError, CallPurse, notEnoughCreditsMessage, type CostEvent, type HeldAnswer, type PipelineRole, type StageKey } from '@wolfpack/core';
import type { EngineCallRecord } from '@wolfpack/core/pipeline';
import type { LedgerService, WalletTx } from '../billing/ledger-service.js';
import { plainSql } from '../../db/plain-sql.js';
import { rowsWrite, type GatedWrite } from '../../db/one-statement.js';

/** One hold of a stage: settled after it, released if it never finishes. */
export interface StageHold {
  id: string;
  cents: number;
  role: PipelineRole;
}

/** A finished stage's holds, keyed by run position and attempt (its usage rows' `call_key` prefix). */
export interface StageHolds {
  key: string;
  role: PipelineRole;
  holds: StageHold[];
}

/** What the run's purse is told by the run around it. */
export interface RunBillingHooks {
  /** Earlier stages' settlements, committed (they run behind the pipeline). */
  settleEarlier?: () => Promise<void>;
  /** Resolves when a hold may be taken beside calls on the wire. */
  whenBusy?: () => Promise<void>;
  /** Throws what stopped the run's commits (a lost lease), before anything more is held. */
  check?: () => void;
  /** How a hold is tried again while the database is unreachable (the run's RunDatabaseRetry). */
  retry?: <T>(write: () => Promise<T>) => Promise<T>;
}

/**
 * The money side of one run: each engine call holds what it may cost at the output cap
 * the balance pays, as it starts (core's CallPurse decides every amount; this stores the holds and
 * keys them). A stage's holds settle to what its calls were billed in the same transaction as its
 * checkpoint and usage rows, so a resumed run never charges a finished stage twice and a crashed
 * stage's holds are given back on the next attempt.
 */
export class RunBilling {
  /** What every engine call of the run asks before it starts. */
  readonly purse: CallPurse;
  /** Holds of the stage under way, in the order taken. */
  private holds: StageHold[] = [];
  /** Holds taken so far per stage position (the first is keyed by position and attempt alone). */
  private readonly taken = new Map<number, number>();

  constructor(
    private readonly orm: MikroORM,
    private readonly ledger: LedgerService,
    readonly userId: string,
    readonly runId: string,
    maxCostCents: number | null,
    /** How often the run was launched: a stage's holds and usage are keyed by run, stage and attempt. */
    private readonly attempt = 0,
    /** What earlier attempts were billed (a resumed run): counts against `maxCostCents`. */
    spentCents = 0,
    private readonly hooks: RunBillingHooks = {},
  ) {
    this.purse = new CallPurse(
      {
        hold: (stage, cents, atLeastCents) => this.hold(stage, cents, atLeastCents),
        ...(hooks.settleEarlier ? { settleEarlier: hooks.settleEarlier } : {}),
        ...(hooks.whenBusy ? { whenBusy: hooks.whenBusy } : {}),
      },
      { capCents: maxCostCents, spentCents },
    );
  }

  /** The key of a stage of this attempt: `<position>:<attempt>`. */
  stageKey(position: number): string {
    return `${position}:${this.attempt}`;
  }

  /**
   * Holds for a call of `stage`. Deterministic ids: the same stage of the same attempt holds (and
   * is charged) once per id: `run:<id>:<position>:<attempt>`, then `.1`, `.2`… for more.
   */
  private async hold(stage: StageKey, cents: number, atLeastCents: number): Promise<HeldAnswer> {
    this.hooks.check?.();
    const n = this.taken.get(stage.position) ?? 0;
    this.taken.set(stage.position, n + 1);
    const id = `run:${this.runId}:${this.stageKey(stage.position)}${n === 0 ? '' : `.${n}`}`;
    const reserve = () => this.ledger.reserve(this.userId, id, cents, { conversationId: this.runId }, atLeastCents);
    const result = await (this.hooks.retry ? this.hooks.retry(reserve) : reserve());
    if (!result.ok) return { heldCents: 0, balanceCents: result.balanceCents };
    if (result.heldCents > 0) this.holds.push({ id, cents: result.heldCents, role: stage.role });
    return { heldCents: result.heldCents, balanceCents: result.balanceCents };
  }

  /** Holds of an earlier attempt whose stage never finished go back uncharged (and this attempt's, once those being taken are in). */
  async releaseLeftoverHolds(): Promise<void> {
    await this.purse.idle();
    this.holds = [];
    await this.ledger.transact(this.userId, (tx) => tx.releaseOpenHolds({ conversationId: this.runId }));
  }

  /**
   * The holds of the stage that just finished, handed to {@link settleStages}: the next stage may
   * hold before this one's settlement is committed (it runs behind the pipeline). Holds still being
   * taken beside the stage's calls are in first.
   */
  async takeStage(position: number, role: PipelineRole): Promise<StageHolds> {
    await this.purse.idle();
    this.purse.endStage();
    return { key: this.stageKey(position), role, holds: this.holds.splice(0) };
  }

  /**
   * Finished stages' engine calls with what each was billed (core's purse decided it: the real cost,
   * at most what the call held), as a write `write` stores with its own (the checkpoint, or the end
   * of the run), and their holds settled in the same transaction; answers what `write` answered.
   * Stages that move no money lock no wallet and open no transaction: `write` then gets an entity
   * manager outside one, and stores everything in one statement (or opens its own transaction).
   */
  async settleStages<T>(
    stages: ReadonlyArray<{ holds: StageHolds; calls: readonly EngineCallRecord[] }>,
    engines: readonly { key: string; provider: string; model: string }[],
    write: (em: EntityManager, usage: GatedWrite | null) => Promise<T>,
  ): Promise<T> {
    const byKey = new Map(engines.map((e) => [e.key, e]));
    const rows = stages.flatMap(({ holds, calls }) =>
      calls.map((call, i) => {
        const engine = byKey.get(call.engineKey);
        return {
          cycle: call.cycle,
          stage: call.stage,
          engine_key: call.engineKey,
          provider: engine?.provider ?? 'openai',
          model: engine?.model ?? '',
          input_tokens: call.inputTokens,
          output_tokens: call.outputTokens,
          total_tokens: call.totalTokens,
          duration_ms: Math.round(call.durationMs),
          attempts: call.attempts,
          cost_millicents: call.costMillicents,
          billed_cents: call.billedCents,
          purpose: call.purpose,
          call_key: `${holds.key}:${i}`,
        };
      }),
    );
    const usage = rows.length > 0 ? usageWrite(this.userId, this.runId, rows) : null;
    const work = async (em: EntityManager, tx?: WalletTx) => {
      const result = await write(em, usage);
      if (tx) for (const stage of stages) await this.settleHolds(tx, stage.holds, stage.calls);
      return result;
    };
    const movesMoney = stages.some((s) => s.holds.holds.length > 0);
    return movesMoney ? this.ledger.transact(this.userId, (tx) => work(tx.em, tx)) : work(this.orm.em.fork());
  }

  /** A stage's holds settled to what its calls were billed, filled in the order they were taken; the rest goes back. */
  private async settleHolds(tx: WalletTx, stage: StageHolds, calls: readonly EngineCallRecord[]): Promise<void> {
    let billed = calls.reduce((sum, c) => sum + c.billedCents, 0);
    const tokens = calls.reduce((sum, c) => sum + c.totalTokens, 0);
    const count = stage.holds.length;
    for (const [i, hold] of stage.holds.entries()) {
      const charge = Math.min(billed, hold.cents);
      billed -= charge;
      const description = count === 1 ? `${hold.role}: ${tokens} tokens` : `${hold.role}: ${tokens} tokens (${i + 1} of ${count})`;
      await tx.settle(hold.id, charge, { kind: 'engine_usage', amountCents: -charge, reference: `usage:${hold.id}`, conversationId: this.runId, description });
    }
  }

  /**
   * When the Proven Code gate still fails, what the run's repair rounds were billed comes back
   * (once: the reference is the run's). Answers the cents refunded now.
   */
  async refundRepairs(): Promise<number> {
    const cents = await this.sum(`select coalesce(sum(billed_cents), 0) as total from engine_usage where conversation_id = ? and purpose = 'repair'`);
    if (cents <= 0) return 0;
    const posted = await this.ledger.post(this.userId, {
      kind: 'refund',
      amountCents: cents,
      reference: `refund-repairs:${this.runId}`,
      conversationId: this.runId,
      description: 'Repair rounds that did not pass the Proven Code gate',
    });
    return posted.duplicate ? 0 : cents;
  }

  /**
   * How a run stopped after its holds went back: the stop message told with the balance as it is
   * now (the one the purse saw left out what the stopped stage held), and a cost event when what the
   * run showed as spent included calls of that stage, which were given back uncharged.
   */
  async afterStop(error: unknown, message: string, shownCents: number): Promise<{ message: string; cost: CostEvent | null }> {
    const needed = error instanceof AppError && error.code === 'PAYMENT_REQUIRED' ? error.details?.neededCents : undefined;
    const told = needed === undefined ? message : notEnoughCreditsMessage(needed, (await this.ledger.balance(this.userId)).balanceCents);
    const charged = await RunBilling.spentCents(this.orm, this.runId);
    return { message: told, cost: charged !== shownCents ? { type: 'cost', spentCents: charged } : null };
  }

  /** What a run has been billed so far (over every attempt). */
  static async spentCents(orm: MikroORM, runId: string): Promise<number> {
    const rows = await plainSql(orm.em.fork()).execute<Array<{ total: string | number }>>('select coalesce(sum(billed_cents), 0) as total from engine_usage where conversation_id = ?', [runId]);
    return Number(rows[0]?.total ?? 0);
  }

  private async sum(sql: string): Promise<number> {
    const rows = await plainSql(this.orm.em.fork()).execute<Array<{ total: string | number }>>(sql, [this.runId]);
    return Number(rows[0]?.total ?? 0);
  }
}

/**
 * Engine calls as one multi-row insert (rows, not entities: no unit of work to compute at the end
 * of a run, where every millisecond is on the user's wait).
 */
function usageWrite(userId: string, runId: string, rows: readonly object[]): GatedWrite {
  return rowsWrite(
    `engine_usage (user_id, conversation_id, enhancement_id, cycle, stage, engine_key, provider, model, input_tokens, output_tokens,
       total_tokens, duration_ms, attempts, cost_millicents, billed_cents, purpose, call_key, created_at)`,
    `?::uuid, ?::uuid, null, x.cycle, x.stage, x.engine_key, x.provider, x.model, x.input_tokens, x.output_tokens,
       x.total_tokens, x.duration_ms, x.attempts, x.cost_millicents, x.billed_cents, x.purpose, x.call_key, now()`,
    [userId, runId],
    `cycle int, stage text, engine_key text, provider text, model text, input_tokens int, output_tokens int, total_tokens int,
       duration_ms int, attempts int, cost_millicents bigint, billed_cents int, purpose text, call_key text`,
    rows,
  );
}
