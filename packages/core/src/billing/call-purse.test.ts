import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AppError } from '../errors.js';
import { holdWithin, inputTokensEstimate, MIN_USEFUL_OUTPUT_TOKENS } from './call-caps.js';
import { CallPurse, GrantWithdrawn, type CallGrant, type CallRequest, type PurseStore, type StageKey } from './call-purse.js';
import { MAX_OUTPUT_TOKENS_PER_CALL } from './guardrail.js';

const PLANNING: StageKey = { position: 0, cycle: 1, role: 'Planning' };
const BUILDING: StageKey = { position: 1, cycle: 1, role: 'Building' };
const POLISHING: StageKey = { position: 3, cycle: 1, role: 'Polishing' };

/** 705 characters: 1,735 tokens in. At 10 c/1k the full call costs 100 cents, its minimum 28. */
const INPUT_CHARS = 705;
const INPUT_TOKENS = inputTokensEstimate(INPUT_CHARS);

function call(stage: StageKey, price = 10, overrides: Partial<CallRequest> = {}): CallRequest {
  return { stage, engineKey: 'alpha', pricePer1kTokensCents: price, inputChars: INPUT_CHARS, maxOutputTokens: MAX_OUTPUT_TOKENS_PER_CALL, ...overrides };
}

interface Held {
  stage: number;
  cents: number;
  atLeast: number;
}

interface Wallet {
  balance: number;
  holds: Held[];
  asked: Held[];
  settled: number;
  store: PurseStore;
}

/** A wallet in memory, held from as the ledger does (holdWithin), with hooks for timing. */
function wallet(balance: number, hooks: { whenBusy?: () => Promise<void>; settleEarlier?: () => Promise<void>; hold?: () => Promise<void> } = {}): Wallet {
  const w: Wallet = {
    balance,
    holds: [] as Held[],
    asked: [] as Held[],
    settled: 0,
    store: {
      hold: async (stage: StageKey, cents: number, atLeast: number) => {
        w.asked.push({ stage: stage.position, cents, atLeast });
        await hooks.hold?.();
        const held = holdWithin(cents, w.balance, atLeast);
        if (held === null) return { heldCents: 0, balanceCents: w.balance };
        w.balance -= held;
        w.holds.push({ stage: stage.position, cents: held, atLeast });
        return { heldCents: held, balanceCents: w.balance };
      },
      ...(hooks.whenBusy ? { whenBusy: hooks.whenBusy } : {}),
      ...(hooks.settleEarlier
        ? {
            settleEarlier: async () => {
              w.settled += 1;
              await hooks.settleEarlier!();
            },
          }
        : {}),
    },
  };
  return w;
}

/** A promise with its resolve, for hooks the test releases by hand. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

async function refusal(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  expect((error as AppError).code).toBe('PAYMENT_REQUIRED');
  return error as AppError;
}

describe('CallPurse', () => {
  it('holds nothing for a free engine, whatever the balance, and bills nothing', async () => {
    const w = wallet(0);
    const purse = new CallPurse(w.store, { capCents: null });
    const grant = await purse.grant(call(PLANNING, 0));
    expect(grant).toMatchObject({ maxTokens: MAX_OUTPUT_TOKENS_PER_CALL, heldCents: 0 });
    expect(grant.confirmed).toBeUndefined();
    expect(grant.done(100_000)).toBe(0);
    expect(w.asked).toEqual([]);
    expect(purse.spentCents).toBe(0);
  });

  it('holds a call at the engine\'s full cap before it starts when the balance covers it, and bills what it used', async () => {
    const w = wallet(1500);
    const purse = new CallPurse(w.store, { capCents: null });
    const grant = await purse.grant(call(PLANNING));
    // The run's first hold is awaited: nothing is known of the balance yet.
    expect(grant.confirmed).toBeUndefined();
    expect(grant).toMatchObject({ maxTokens: MAX_OUTPUT_TOKENS_PER_CALL, heldCents: 100 });
    expect(w.holds).toEqual([{ stage: 0, cents: 100, atLeast: 28 }]);
    expect(w.balance).toBe(1400);
    // 2,001 tokens at 10 c/1k: 20.01 cents, billed 21.
    expect(grant.done(2001)).toBe(21);
    expect(purse.spentCents).toBe(21);
    // Ending twice bills nothing more.
    expect(grant.done(2001)).toBe(0);
    expect(purse.spentCents).toBe(21);
  });

  it('gives the stage\'s next call what an earlier one did not use, without holding again', async () => {
    const w = wallet(150);
    const purse = new CallPurse(w.store, { capCents: null });
    const first = await purse.grant(call(BUILDING));
    expect(first.heldCents).toBe(100);
    first.done(500); // 5 cents used, 95 left with the stage
    const second = await purse.grant(call(BUILDING, 10, { inputChars: 0, maxOutputTokens: 8000 }));
    // 1,500 in and 8,000 out: 95 cents, all of it from what the stage holds.
    expect(second).toMatchObject({ maxTokens: 8000, heldCents: 95 });
    expect(second.confirmed).toBeUndefined();
    expect(w.asked).toHaveLength(1);
    // A call worth more than what is left (1 cent used, 94 back) holds only the difference.
    second.done(100);
    const third = await purse.grant(call(BUILDING));
    expect(third.heldCents).toBe(100);
    await third.confirmed;
    expect(w.asked.map((a) => a.cents)).toEqual([100, 6]);
    expect(w.balance).toBe(44);
  });

  it('cuts a call\'s output cap to what the balance pays, never below the useful minimum', async () => {
    const w = wallet(50);
    const purse = new CallPurse(w.store, { capCents: null });
    const grant = await purse.grant(call(PLANNING));
    // 50 cents pay 5,000 tokens: 1,735 in, 3,265 out.
    expect(grant).toMatchObject({ maxTokens: 5000 - INPUT_TOKENS, heldCents: 50 });
    expect(w.balance).toBe(0);
    expect(w.asked).toEqual([{ stage: 0, cents: 100, atLeast: 28 }]);
  });

  it('stops with the spec\'s sentence, naming what the call needs, when not even its minimum fits and no call could give back', async () => {
    const w = wallet(27, { settleEarlier: async () => {} });
    const purse = new CallPurse(w.store, { capCents: null });
    const error = await refusal(purse.grant(call(PLANNING)));
    expect(error.message).toBe('Not enough credits: this stage needs about $1.00 and your balance is $0.27. Add credits in Settings.');
    // Earlier stages' settlements were awaited once, in case they gave back enough.
    expect(w.settled).toBe(1);
    expect(w.holds).toEqual([]);
  });

  it('counts what the stage holds in the balance it names', async () => {
    const w = wallet(120, { settleEarlier: async () => {} });
    const purse = new CallPurse(w.store, { capCents: null });
    const first = await purse.grant(call(BUILDING));
    first.done(9500); // 95 cents used: 5 stay with the stage, 20 in the wallet (the call needs 28)
    const error = await refusal(purse.grant(call(BUILDING)));
    expect(error.message).toBe('Not enough credits: this stage needs about $1.00 and your balance is $0.25. Add credits in Settings.');
    expect(w.asked.slice(1)).toEqual([
      { stage: 1, cents: 95, atLeast: 23 },
      { stage: 1, cents: 95, atLeast: 23 },
    ]);
  });

  it('goes ahead once earlier stages\' settlements give back enough', async () => {
    const w = wallet(10);
    w.store.settleEarlier = async () => {
      w.balance += 90;
    };
    const purse = new CallPurse(w.store, { capCents: null });
    const grant = await purse.grant(call(PLANNING));
    expect(grant.heldCents).toBe(100);
    expect(w.asked.map((a) => a.cents)).toEqual([100, 100]);
  });

  it('refuses without a settlement to wait for', async () => {
    const w = wallet(10);
    const purse = new CallPurse(w.store, { capCents: null });
    await refusal(purse.grant(call(PLANNING)));
    expect(w.asked).toHaveLength(1);
  });

  it('a call that cannot get its minimum waits for the stage\'s calls in flight to give back what they did not use', async () => {
    const w = wallet(100);
    const purse = new CallPurse(w.store, { capCents: null });
    const first = await purse.grant(call(BUILDING));
    expect(first.heldCents).toBe(100);
    let second: CallGrant | undefined;
    const waiting = purse.grant(call(BUILDING)).then((g) => (second = g));
    await tick();
    expect(second).toBeUndefined();
    // 10 cents used: 90 come back, which pay a shorter call (9,000 tokens: 7,265 out).
    first.done(1000);
    await waiting;
    expect(second).toMatchObject({ maxTokens: 9000 - INPUT_TOKENS, heldCents: 90 });
    expect(w.holds).toHaveLength(1);
  });

  it('a call that waits for another that fails gets its whole hold', async () => {
    const w = wallet(100);
    const purse = new CallPurse(w.store, { capCents: null });
    const first = await purse.grant(call(BUILDING));
    const waiting = purse.grant(call(BUILDING));
    await tick();
    expect(first.done(null)).toBe(0);
    expect(await waiting).toMatchObject({ maxTokens: MAX_OUTPUT_TOKENS_PER_CALL, heldCents: 100 });
    expect(purse.spentCents).toBe(0);
  });

  it('parallel calls share the balance and never hold more than there is', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 1000 }), fc.array(fc.integer({ min: 0, max: 20_000 }), { minLength: 1, maxLength: 12 }), async (balance, used) => {
        const w = wallet(balance, { settleEarlier: async () => {} });
        const purse = new CallPurse(w.store, { capCents: null });
        const outcomes = await Promise.all(
          used.map(async (tokens) => {
            try {
              const grant = await purse.grant(call(BUILDING));
              expect(grant.maxTokens).toBeGreaterThanOrEqual(MIN_USEFUL_OUTPUT_TOKENS);
              await tick();
              return grant.done(Math.min(tokens, INPUT_TOKENS + grant.maxTokens));
            } catch (error) {
              expect((error as AppError).code).toBe('PAYMENT_REQUIRED');
              return 0;
            }
          }),
        );
        const billed = outcomes.reduce((a, b) => a + b, 0);
        expect(w.balance).toBeGreaterThanOrEqual(0);
        expect(billed).toBeLessThanOrEqual(balance);
        expect(purse.spentCents).toBe(billed);
        expect(w.holds.reduce((sum, h) => sum + h.cents, 0)).toBe(balance - w.balance);
      }),
      { numRuns: 60 },
    );
  });

  it('keeps a run under its own limit: calls are cut to what is left of it, and stop when not even a minimum fits', async () => {
    const w = wallet(100_000);
    const purse = new CallPurse(w.store, { capCents: 60, spentCents: 5 });
    const first = await purse.grant(call(PLANNING));
    // 55 cents left of the limit: 5,500 tokens.
    expect(first).toMatchObject({ maxTokens: 5500 - INPUT_TOKENS, heldCents: 55 });
    expect(w.asked).toEqual([{ stage: 0, cents: 55, atLeast: 28 }]);
    // A capped run waits for every hold, even when the balance is known to cover it.
    expect(first.done(1000)).toBe(10);
    const second = await purse.grant(call(BUILDING));
    expect(second.confirmed).toBeUndefined();
    expect(second.heldCents).toBe(45);
    // Nothing of the limit is left while the second runs: a third waits for it.
    let third: CallGrant | undefined;
    const waiting = purse.grant(call(BUILDING)).then((g) => (third = g));
    await tick();
    expect(third).toBeUndefined();
    second.done(1000);
    await waiting;
    expect(third!.heldCents).toBe(35);
    third!.done(3500);
    expect(purse.spentCents).toBe(60);
    const error = await refusal(purse.grant(call(BUILDING)));
    expect(error.message).toBe("Cost limit reached: this stage needs about $1.00 and only $0.00 of this run's $0.60 limit is left. Raise maxCostCents or resume with a higher limit.");
  });

  it('holds beside the calls once the balance the run last saw covers them: one hold for the calls that start together', async () => {
    const busy = gate();
    const w = wallet(10_000, { whenBusy: () => busy.opened });
    const purse = new CallPurse(w.store, { capCents: null });
    (await purse.grant(call(PLANNING))).done(2000);
    const grants = await Promise.all([purse.grant(call(BUILDING)), purse.grant(call(BUILDING)), purse.grant(call(BUILDING))]);
    // All three may start: nothing is held for them yet.
    expect(grants.map((g) => g.heldCents)).toEqual([100, 100, 100]);
    expect(grants.every((g) => g.confirmed !== undefined)).toBe(true);
    expect(w.asked).toHaveLength(1);
    busy.open();
    await Promise.all(grants.map((g) => g.confirmed));
    expect(w.asked.slice(1)).toEqual([{ stage: 1, cents: 300, atLeast: 300 }]);
    expect(grants.every((g) => !g.signal!.aborted)).toBe(true);
    expect(grants.map((g) => g.done(1000))).toEqual([10, 10, 10]);
    // What they did not use stays with the stage: a fourth call needs no hold.
    const fourth = await purse.grant(call(BUILDING));
    expect(fourth.confirmed).toBeUndefined();
    expect(w.asked).toHaveLength(2);
    // A later batch, after the first was taken, is a hold of its own.
    const more = await Promise.all([purse.grant(call(BUILDING)), purse.grant(call(BUILDING)), purse.grant(call(BUILDING))]);
    await Promise.all(more.map((g) => g.confirmed));
    expect(w.asked.slice(2).map((a) => a.cents)).toEqual([100 * 4 - 270]);
  });

  it('uses what the stage holds first, and holds only the rest beside the call', async () => {
    const w = wallet(10_000);
    const purse = new CallPurse(w.store, { capCents: null });
    const first = await purse.grant(call(BUILDING));
    first.done(7000); // 70 used, 30 free
    const second = await purse.grant(call(BUILDING));
    expect(second.confirmed).toBeDefined();
    await second.confirmed;
    expect(w.asked.map((a) => a.cents)).toEqual([100, 70]);
    expect(second.done(2000)).toBe(20);
    // 80 of its 100 came back to the stage.
    const third = await purse.grant(call(BUILDING));
    await third.confirmed;
    expect(w.asked.map((a) => a.cents)).toEqual([100, 70, 20]);
  });

  it('a hold beside calls that is refused withdraws them, and they are asked for again on the wait', async () => {
    const busy = gate();
    const w = wallet(1000, { whenBusy: () => busy.opened });
    const purse = new CallPurse(w.store, { capCents: null });
    (await purse.grant(call(BUILDING))).done(1000); // 10 billed, 90 stay with the stage
    const [a, b] = await Promise.all([purse.grant(call(BUILDING)), purse.grant(call(BUILDING))]);
    // Spent elsewhere meanwhile: 5 cents are left, less than the two calls need beside the stage's 90.
    w.balance = 5;
    busy.open();
    for (const grant of [a!, b!]) {
      await expect(grant.confirmed).rejects.toBeInstanceOf(GrantWithdrawn);
      expect(grant.signal!.reason).toBeInstanceOf(GrantWithdrawn);
      // The runner ends a withdrawn call as failed: nothing billed, nothing given back twice.
      expect(grant.done(null)).toBe(0);
    }
    expect(w.asked.slice(1)).toEqual([{ stage: 1, cents: 110, atLeast: 110 }]);
    // Asked again, on the wait now (the refusal told the run the balance): the stage's 90 and the 5 left.
    const again = await purse.grant(call(BUILDING));
    expect(again.confirmed).toBeUndefined();
    expect(again).toMatchObject({ heldCents: 95, maxTokens: 9500 - INPUT_TOKENS });
    expect(w.asked.slice(2)).toEqual([{ stage: 1, cents: 10, atLeast: 28 - 90 }]);
    expect(w.balance).toBe(0);
    expect(purse.spentCents).toBe(10);
  });

  it('a call that ends before its hold beside it is in gives back the rest once it is', async () => {
    const busy = gate();
    const w = wallet(1000, { whenBusy: () => busy.opened });
    const purse = new CallPurse(w.store, { capCents: null });
    (await purse.grant(call(BUILDING))).done(6000); // 60 billed, 40 free
    const early = await purse.grant(call(BUILDING));
    expect(early.done(null)).toBe(0);
    // Only the 40 that were held come back now: the next call holds 60 beside it.
    const next = await purse.grant(call(BUILDING));
    busy.open();
    await next.confirmed;
    await purse.idle();
    // One hold beside both: 60 for the early call, 60 for the next.
    expect(w.asked.map((a) => a.cents)).toEqual([100, 120]);
    next.done(10_000);
    // The early call's 60 came in with its hold: a call of 60 more needs no new hold.
    const covered = await purse.grant(call(BUILDING, 6));
    expect(covered.heldCents).toBe(60);
    expect(covered.confirmed).toBeUndefined();
    expect(w.asked).toHaveLength(2);
  });

  it('a call that ends before its hold beside it is refused gives back only what was held', async () => {
    const busy = gate();
    const w = wallet(1000, { whenBusy: () => busy.opened });
    const purse = new CallPurse(w.store, { capCents: null });
    (await purse.grant(call(BUILDING))).done(6000); // 40 free
    const early = await purse.grant(call(BUILDING));
    early.done(null);
    w.balance = 0;
    busy.open();
    await expect(early.confirmed).rejects.toBeInstanceOf(GrantWithdrawn);
    expect(early.done(null)).toBe(0);
    await purse.idle();
    // 3,500 tokens in: at least 46 cents, more than the 40 the stage holds.
    const error = await refusal(purse.grant(call(BUILDING, 10, { inputChars: 6000 })));
    expect(error.message).toBe('Not enough credits: this stage needs about $1.17 and your balance is $0.40. Add credits in Settings.');
  });

  it('a hold beside calls that fails fails them with its error', async () => {
    const broken = new Error('the database went away');
    let holds = 0;
    const w = wallet(1000, {
      hold: async () => {
        holds += 1;
        if (holds > 1) throw broken;
      },
    });
    const purse = new CallPurse(w.store, { capCents: null });
    (await purse.grant(call(PLANNING))).done(1000);
    const grant = await purse.grant(call(BUILDING));
    await expect(grant.confirmed).rejects.toBe(broken);
    expect(grant.signal!.reason).toBe(broken);
    await purse.idle();
    expect(grant.done(null)).toBe(0);
  });

  it('a new stage starts with nothing held: what the last one did not use goes back when it settles', async () => {
    const w = wallet(1000);
    const purse = new CallPurse(w.store, { capCents: null });
    (await purse.grant(call(PLANNING))).done(1000);
    // Without endStage, a call of another stage also starts afresh.
    await (await purse.grant(call(BUILDING))).confirmed;
    expect(w.asked.map((a) => [a.stage, a.cents])).toEqual([
      [0, 100],
      [1, 100],
    ]);
    purse.endStage();
    const polish = await purse.grant(call(POLISHING));
    await polish.confirmed;
    expect(w.asked.map((a) => a.stage)).toEqual([0, 1, 3]);
    // A stage's call ending after the stage ended gives nothing to the next one.
    const late = await purse.grant(call(POLISHING));
    await late.confirmed;
    purse.endStage();
    late.done(100);
    const next = await purse.grant(call({ position: 4, cycle: 1, role: 'Proven Code' }));
    await next.confirmed;
    expect(w.asked.map((a) => [a.stage, a.cents])).toEqual([
      [0, 100],
      [1, 100],
      [3, 100],
      [3, 100],
      [4, 100],
    ]);
  });

  it('idle waits for every hold being taken', async () => {
    const held = gate();
    const w = wallet(1000, { hold: () => held.opened });
    const purse = new CallPurse(w.store, { capCents: null });
    const grant = purse.grant(call(PLANNING));
    let idle = false;
    const waiting = purse.idle().then(() => (idle = true));
    await tick();
    expect(idle).toBe(false);
    held.open();
    await waiting;
    expect(idle).toBe(true);
    await grant;
    await purse.idle();
  });
});
