/**
 * A run's purse: each engine call holds, as it starts, what it may cost at the output cap
 * the balance can pay ({@link callCap}); a stage's parallel calls share what the stage holds. What a
 * call did not use stays with the stage for its next calls, and goes back to the balance when the
 * stage settles. The store (the server's ledger) only holds and reports the balance; every amount
 * is decided here.
 */
import { AppError } from '../errors.js';
import type { PipelineRole } from '../schemas/events.js';
import { allowanceCents, callCap, fullCallCents, inputTokensEstimate, minimumCallCents, type CallCap } from './call-caps.js';
import { mayHoldInFlight, settleCalls } from './guardrail.js';
import { callCostCents, costCapMessage, notEnoughCreditsMessage } from './money.js';

/** The stage a call belongs to: what its holds are keyed and settled by. */
export interface StageKey {
  position: number;
  cycle: number;
  role: PipelineRole;
}

/** One engine call about to start, as its budget sees it. */
export interface CallRequest {
  stage: StageKey;
  engineKey: string;
  pricePer1kTokensCents: number;
  /** Characters the call sends (images counted as IMAGE_INPUT_CHARS each). */
  inputChars: number;
  /** The engine's output cap: the most the call may ask for. */
  maxOutputTokens: number;
}

/** What a call may do: its output cap and what it holds, with the hand-back once it ends. */
export interface CallGrant {
  /** The call's output cap (`max_tokens`). */
  maxTokens: number;
  /** What the call holds: it is never billed more. 0 on a free engine. */
  heldCents: number;
  /**
   * Set when the hold is taken while the call already runs: the answer counts only once this
   * resolves. Should it fail, `signal` aborts with the reason ({@link GrantWithdrawn}: ask again).
   */
  confirmed?: Promise<void>;
  signal?: AbortSignal;
  /**
   * Called once when the call ends: with the tokens it reported once its answer counts, or null
   * when it failed or was cancelled (nothing billed). Answers the cents it is billed.
   */
  done(totalTokens: number | null): number;
}

/** What the engine runner asks before each call. */
export interface CallBudget {
  /** Resolves once the call may start, or throws (an AppError PAYMENT_REQUIRED) when it may not. */
  grant(request: CallRequest): Promise<CallGrant>;
}

/**
 * A hold taken beside calls already on the wire was refused (the balance was spent elsewhere
 * meanwhile): those calls are cancelled, uncharged, and asked for again on the wait.
 */
export class GrantWithdrawn extends Error {
  override readonly name = 'GrantWithdrawn';
  constructor() {
    super('The hold for this call was refused while it ran; it is asked for again.');
  }
}

export interface HeldAnswer {
  /** What was held now (0: refused). */
  heldCents: number;
  /** The balance after it. */
  balanceCents: number;
}

/** Where a purse's holds are kept: the server's ledger. */
export interface PurseStore {
  /**
   * Holds `cents` more for `stage`, or, when the balance is shorter, all of it if that is at least
   * `atLeastCents`; else nothing.
   */
  hold(stage: StageKey, cents: number, atLeastCents: number): Promise<HeldAnswer>;
  /**
   * Earlier stages' settlements, committed (they run behind the pipeline, and until they are in,
   * their holds count in full). Called once before a call is refused for credits.
   */
  settleEarlier?(): Promise<void>;
  /** Resolves when a hold may be taken beside calls that are on the wire (their engines busy). */
  whenBusy?(): Promise<void>;
}

export interface PurseOptions {
  /** The run's own limit (`maxCostCents`), or null. */
  capCents: number | null;
  /** What the run was billed before (earlier attempts): counts against the limit. @default 0 */
  spentCents?: number;
}

/** Holds taken beside calls on the wire, gathered while the calls go out: one hold for all of them. */
interface Batch {
  stage: StageKey;
  cents: number;
  /** True once held, false when refused. */
  held: Promise<boolean>;
}

export class CallPurse implements CallBudget {
  /** The stage whose holds `free` is part of. */
  private stage: number | null = null;
  /** Held for the current stage and given to no call in flight. */
  private free = 0;
  /** Held by calls in flight. */
  private allocated = 0;
  private spent: number;
  /** The balance this run's last hold left, less holds still being taken beside their calls (null before its first hold). */
  private knownBalance: number | null = null;
  private pendingCents = 0;
  private batch: Batch | null = null;
  private readonly busy = new Set<Promise<unknown>>();
  private waiters: Array<() => void> = [];

  constructor(
    private readonly store: PurseStore,
    private readonly options: PurseOptions,
  ) {
    this.spent = options.spentCents ?? 0;
  }

  /** What the run has been billed so far, earlier attempts included. */
  get spentCents(): number {
    return this.spent;
  }

  /**
   * The current stage is over (its holds settle to what it was billed): what it held and gave to
   * no call is no longer the purse's to give.
   */
  endStage(): void {
    this.stage = null;
    this.free = 0;
  }

  /** Resolves once no hold is being taken (a failed run waits for them before giving its holds back). */
  async idle(): Promise<void> {
    while (this.busy.size > 0) await Promise.allSettled([...this.busy]);
  }

  async grant(request: CallRequest): Promise<CallGrant> {
    this.enter(request.stage);
    const price = request.pricePer1kTokensCents;
    const inputTokens = inputTokensEstimate(request.inputChars);
    const maxOutput = request.maxOutputTokens;
    const full = fullCallCents(price, inputTokens, maxOutput);
    // A free engine holds nothing.
    if (full === 0) return this.allocate(request, 0, maxOutput, 0);
    const least = minimumCallCents(price, inputTokens, maxOutput);
    const fit = (cents: number) => callCap({ availableCents: cents, pricePer1kTokensCents: price, inputTokens, maxOutputTokens: maxOutput });
    let settledEarlier = false;
    for (;;) {
      const allowance = allowanceCents(this.options.capCents, this.spent, this.allocated);
      // The call at the engine's cap, or as long as the run's limit allows (never below its minimum).
      const target = fit(Math.min(full, allowance));
      if (!target.ok) {
        // What the calls in flight do not use comes back under the limit.
        if (this.allocated > 0) {
          await this.returned();
          continue;
        }
        throw new AppError('PAYMENT_REQUIRED', costCapMessage(full, allowance, this.options.capCents ?? 0));
      }
      const want = target.holdCents;
      if (this.free >= want) return this.fromFree(request, target);
      const shortfall = want - this.free;
      if (mayHoldInFlight(this.knownBalance, shortfall, this.options.capCents !== null)) {
        return this.inFlight(request, target, shortfall);
      }
      const answer = await this.hold(request.stage, shortfall, least - this.free);
      if (this.free >= want) continue;
      // The balance could not cover the whole call: a shorter one, from what the stage holds.
      const shorter = fit(Math.min(this.free, allowanceCents(this.options.capCents, this.spent, this.allocated)));
      if (shorter.ok) return this.fromFree(request, shorter);
      if (!settledEarlier && this.store.settleEarlier) {
        settledEarlier = true;
        await this.store.settleEarlier();
        continue;
      }
      // Calls in flight give back what they did not use.
      if (this.allocated > 0) {
        await this.returned();
        continue;
      }
      // The balance here leaves out what this stage still holds; whoever gives that back says it again.
      throw new AppError('PAYMENT_REQUIRED', notEnoughCreditsMessage(full, answer.balanceCents + this.free), { neededCents: full });
    }
  }

  private enter(stage: StageKey): void {
    if (this.stage === stage.position) return;
    this.stage = stage.position;
    this.free = 0;
  }

  private track<T>(work: Promise<T>): Promise<T> {
    this.busy.add(work);
    const untrack = () => void this.busy.delete(work);
    work.then(untrack, untrack);
    return work;
  }

  private async hold(stage: StageKey, cents: number, atLeastCents: number): Promise<HeldAnswer> {
    const answer = await this.track(this.store.hold(stage, cents, atLeastCents));
    this.knownBalance = answer.balanceCents - this.pendingCents;
    if (this.stage === stage.position) this.free += answer.heldCents;
    return answer;
  }

  private fromFree(request: CallRequest, cap: Extract<CallCap, { ok: true }>): CallGrant {
    this.free -= cap.holdCents;
    return this.allocate(request, cap.holdCents, cap.maxTokens, cap.holdCents);
  }

  /**
   * A grant whose hold is `cents`, of which `backed` is held already (the rest is being held beside
   * the call). `done` gives back what the call did not use: to the stage's free part while the stage
   * lasts.
   */
  private allocate(request: CallRequest, cents: number, maxTokens: number, backed: number, extra: Partial<CallGrant> = {}, onDone?: (billed: number) => boolean): CallGrant {
    const stage = request.stage.position;
    this.allocated += cents;
    let ended = false;
    const end = (billed: number, back: number) => {
      ended = true;
      this.allocated -= cents;
      this.spent += billed;
      if (this.stage === stage) this.free += back;
      this.wake();
    };
    const grant: CallGrant = {
      maxTokens,
      heldCents: cents,
      ...extra,
      done: (totalTokens) => {
        if (ended) return 0;
        const billed = totalTokens === null ? 0 : settleCalls([{ cents: callCostCents(request.pricePer1kTokensCents, totalTokens) }], cents)[0]!;
        // A hold still being taken gives back only what was held already; the rest once it is in.
        const settled = onDone ? onDone(billed) : true;
        end(billed, settled ? cents - billed : backed);
        return billed;
      },
    };
    withdrawals.set(grant, () => {
      if (!ended) end(0, backed);
    });
    return grant;
  }

  /**
   * The call starts at once; `shortfall` is held beside it, with the other calls that start before
   * the engines are busy, in one hold. Refused, the call is withdrawn ({@link GrantWithdrawn}).
   */
  private inFlight(request: CallRequest, cap: Extract<CallCap, { ok: true }>, shortfall: number): CallGrant {
    const backed = this.free;
    this.free = 0;
    this.knownBalance = this.knownBalance! - shortfall;
    this.pendingCents += shortfall;
    const batch = this.batchFor(request.stage);
    batch.cents += shortfall;
    const controller = new AbortController();
    let state: 'pending' | 'held' | 'refused' = 'pending';
    let endedEarly = false;
    const confirmed = batch.held.then((held) => {
      state = held ? 'held' : 'refused';
      if (held) {
        // Ended before its hold was in: the rest of what it did not use is the stage's now.
        if (endedEarly && this.stage === request.stage.position) this.free += shortfall;
        return;
      }
      withdrawals.get(grant)!();
      throw new GrantWithdrawn();
    });
    // The call is cancelled with the reason: a refusal (asked again) or the hold's own failure.
    confirmed.catch((error: unknown) => controller.abort(error));
    const grant = this.allocate(request, cap.holdCents, cap.maxTokens, backed, { confirmed, signal: controller.signal }, () => {
      if (state === 'held') return true;
      endedEarly = state === 'pending';
      return false;
    });
    return grant;
  }

  private batchFor(stage: StageKey): Batch {
    if (this.batch && this.batch.stage.position === stage.position) return this.batch;
    const batch: Batch = { stage, cents: 0, held: Promise.resolve(false) };
    this.batch = batch;
    batch.held = this.track(
      (async () => {
        try {
          await this.store.whenBusy?.();
        } finally {
          // Calls that start from now on are held in a batch of their own.
          if (this.batch === batch) this.batch = null;
        }
        try {
          const answer = await this.store.hold(stage, batch.cents, batch.cents);
          this.knownBalance = answer.balanceCents - (this.pendingCents - batch.cents);
          return answer.heldCents >= batch.cents;
        } finally {
          this.pendingCents -= batch.cents;
        }
      })(),
    );
    // Each call awaits it through its grant; a batch whose calls all ended first must not go unhandled.
    batch.held.catch(() => {});
    return batch;
  }

  /** Resolves when a call in flight gave back what it held. */
  private returned(): Promise<void> {
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }
}

/** How a grant held beside its call is withdrawn when that hold is refused. */
const withdrawals = new WeakMap<CallGrant, () => void>();
