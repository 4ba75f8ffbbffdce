import type { EntityManager, MikroORM } from '@mikro-orm/core';
import { AppError, callCostCents, costCapMessage, mayHoldInFlight, notEnoughCreditsMessage, settleCalls, type PipelineRole } from '@wolfpack/core';
import type { EngineCallRecord, GateInFlight, StageBudget } from '@wolfpack/core/pipeline';
import type { LedgerService, WalletTx } from './ledger-service.js';
import { plainSql } from '../db/plain-sql.js';
import { rowsWrite, type GatedWrite } from '../db/one-statement.js';


/** What was held for one stage: settled after it, released if it never finishes. */
export interface StageHold {
  id: string;
  key: string;
  cents: number;
  role: PipelineRole;
}

/**
 * The money side of one run: before each stage its worst case is held (or the run stops with
 * PAYMENT_REQUIRED before any engine is called); after it, the hold settles to the real cost in the
 * same transaction as the stage's checkpoint and usage rows, so a resumed run never charges a
 * finished stage twice and a crashed stage's hold is given back on the next attempt.
 */
export class RunBilling {
  private hold: StageHold | null = null;
  /** The balance this run's last hold left (null before its first): what a hold taken in flight relies on. */
  private knownBalanceCents: number | null = null;
  /** A hold being taken while its stage's engines work (see {@link reserve}). */
  private inFlight: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly orm: MikroORM,
    private readonly ledger: LedgerService,
    readonly userId: string,
    readonly runId: string,
    private readonly maxCostCents: number | null,
    /** How often the run was launched: a stage's hold and usage are keyed by run, stage and attempt. */
    private readonly attempt = 0,
  ) {}

  /** Holds of an earlier attempt whose stage never finished go back uncharged (and this attempt's, once a hold in flight is in). */
  async releaseLeftoverHolds(): Promise<void> {
    await this.inFlight;
    this.hold = null;
    await this.ledger.transact(this.userId, (tx) => tx.releaseOpenHolds({ conversationId: this.runId }));
  }

  /**
   * Holds the stage's worst case. Earlier stages' settlements may still be committing behind the
   * pipeline (they run while this stage's engines work, off the user's wait); until they are in,
   * their holds count in full, never less than they will cost, so the balance check is only
   * stricter. Refused that way, it waits for them (`settleEarlier`) and looks once more.
   *
   * When the balance this run's last hold left covers the stage's worst case (core's
   * `mayHoldInFlight`), the hold is not awaited: the stage's calls start at once, the hold is taken
   * once their requests are out (`whenBusy`), and their answers count only after it is in. Refused
   * (spent elsewhere meanwhile), the calls are cancelled, nothing is charged for them, and the run
   * stops as it would have before them.
   */
  async reserve(stage: StageBudget, settleEarlier?: () => Promise<void>, whenBusy?: () => Promise<void>): Promise<void | GateInFlight> {
    const cents = stage.worstCase.cents;
    if (mayHoldInFlight(this.knownBalanceCents, cents, this.maxCostCents !== null)) {
      const confirmed = Promise.resolve(whenBusy?.()).then(() => this.holdStage(stage, settleEarlier));
      this.inFlight = confirmed.catch(() => {});
      return { confirmed };
    }
    if (this.maxCostCents !== null) {
      const spent = await this.spentCents();
      if (spent + cents > this.maxCostCents) {
        throw new AppError('PAYMENT_REQUIRED', costCapMessage(cents, Math.max(0, this.maxCostCents - spent), this.maxCostCents));
      }
    }
    await this.holdStage(stage, settleEarlier);
  }

  private async holdStage(stage: StageBudget, settleEarlier?: () => Promise<void>): Promise<void> {
    const cents = stage.worstCase.cents;
    // Deterministic: the same stage of the same attempt can hold, and be charged, only once.
    const key = `${stage.position}:${this.attempt}`;
    const id = `run:${this.runId}:${key}`;
    if (cents > 0) {
      const tryToHold = () => this.ledger.reserve(this.userId, id, cents, { conversationId: this.runId });
      let result = await tryToHold();
      if (!result.ok && settleEarlier) {
        await settleEarlier();
        result = await tryToHold();
      }
      this.knownBalanceCents = result.balanceCents;
      if (!result.ok) throw new AppError('PAYMENT_REQUIRED', notEnoughCreditsMessage(cents, result.balanceCents));
    }
    this.hold = { id, key, cents, role: stage.role };
  }

  /**
   * The hold of the stage that just finished, handed to {@link settleStage}: the next stage may
   * reserve before this one's settlement is committed (it runs behind the pipeline). A hold taken
   * in flight is in by then: every call of its stage waited for it.
   */
  takeHold(): StageHold | null {
    const hold = this.hold;
    this.hold = null;
    return hold;
  }

  /** Whether reserving must wait for earlier stages to settle: a cost cap reads what they were billed. */
  needsSettledStages(): boolean {
    return this.maxCostCents !== null;
  }

  /**
   * Finished stages' engine calls with what each was billed (the real cost, at most its hold), as a
   * write `write` stores with its own (the checkpoint, or the end of the run), and their holds
   * settled in the same transaction; answers what `write` answered. Stages that move no money lock
   * no wallet and open no transaction: `write` then gets an entity manager outside one, and stores
   * everything in one statement (or opens its own transaction).
   */
  async settleStages<T>(
    stages: ReadonlyArray<{ hold: StageHold | null; calls: readonly EngineCallRecord[] }>,
    engines: readonly { key: string; provider: string; model: string }[],
    write: (em: EntityManager, usage: GatedWrite | null) => Promise<T>,
  ): Promise<T> {
    const byKey = new Map(engines.map((e) => [e.key, e]));
    const settled = stages.map(({ hold, calls }) => ({
      hold,
      calls,
      billed: settleCalls(calls.map((c) => ({ cents: callCostCents(c.pricePer1kTokensCents, c.totalTokens) })), hold?.cents ?? 0),
    }));
    const rows = settled.flatMap(({ hold, calls, billed }) =>
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
          billed_cents: billed[i] ?? 0,
          purpose: call.purpose,
          call_key: hold ? `${hold.key}:${i}` : null,
        };
      }),
    );
    const usage = rows.length > 0 ? usageWrite(this.userId, this.runId, rows) : null;
    const work = async (em: EntityManager, tx?: WalletTx) => {
      const result = await write(em, usage);
      for (const { hold, calls, billed } of settled) {
        if (!tx || !hold || hold.cents <= 0) continue;
        const total = billed.reduce((sum, c) => sum + c, 0);
        const tokens = calls.reduce((sum, c) => sum + c.totalTokens, 0);
        await tx.settle(hold.id, total, { kind: 'engine_usage', amountCents: -total, reference: `usage:${hold.id}`, conversationId: this.runId, description: `${hold.role}: ${tokens} tokens` });
      }
      return result;
    };
    return settled.some((s) => (s.hold?.cents ?? 0) > 0) ? this.ledger.transact(this.userId, (tx) => work(tx.em, tx)) : work(this.orm.em.fork());
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

  /** What this run has been billed so far (over every attempt). */
  private spentCents(): Promise<number> {
    return this.sum('select coalesce(sum(billed_cents), 0) as total from engine_usage where conversation_id = ?');
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
