import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stageMaxCalls, stageWorstCase, settleCalls, callMaxTokens, enhancementWorstCase, mayHoldInFlight, MAX_OUTPUT_TOKENS_PER_CALL, PROMPT_OVERHEAD_TOKENS } from './guardrail.js';
import { callCostCents, centsToDollars, costCapMessage, CREDIT_PACKS, formatCents, grantResetDate, grantMonth, notEnoughCreditsMessage, packForAmountCents, walletMove } from './money.js';

describe('money', () => {
  it('has the four packs with their bonuses, rounded down', () => {
    expect(CREDIT_PACKS.map((p) => [p.dollars, p.amountCents, p.bonusCents, p.popular])).toEqual([
      [10, 1000, 0, false],
      [25, 2500, 50, false],
      [50, 5000, 200, true],
      [100, 10000, 400, false],
    ]);
    expect(packForAmountCents(2500)?.dollars).toBe(25);
    expect(packForAmountCents(2400)).toBeUndefined();
  });

  it('bills a call up to the next whole cent, never less than its exact price', () => {
    expect(callCostCents(305, 20_000)).toBe(6100); // the spec: about 20K tokens is about $60
    expect(callCostCents(0, 1_000_000)).toBe(0);
    expect(callCostCents(0.06, 1)).toBe(1);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100_000 }), fc.integer({ min: 0, max: 2_000_000 }), (priceMilli, tokens) => {
        const price = priceMilli / 1000;
        const exactMillicents = priceMilli * tokens; // thousandths of a cent x 1000
        const cents = callCostCents(price, tokens);
        expect(cents * 1_000_000).toBeGreaterThanOrEqual(exactMillicents);
        expect((cents - 1) * 1_000_000).toBeLessThan(exactMillicents);
      }),
    );
  });

  it('writes dollars as strings with two decimals', () => {
    expect(centsToDollars(1500)).toBe('15.00');
    expect(centsToDollars(5)).toBe('0.05');
    expect(centsToDollars(-1234)).toBe('-12.34');
    expect(formatCents(-5)).toBe('-$0.05');
    // Nothing is not a debit.
    expect(centsToDollars(0)).toBe('0.00');
    expect(formatCents(0)).toBe('$0.00');
    fc.assert(fc.property(fc.integer({ min: -2_000_000_000, max: 2_000_000_000 }), (c) => {
        expect(Math.round(Number(centsToDollars(c)) * 100)).toBe(c);
      }),
    );
  });

  it('resets the grant on the first day of next month (UTC)', () => {
    expect(grantResetDate(new Date('2026-11-23T10:00:00Z')).toISOString()).toBe('2026-12-01T00:00:00.000Z');
    expect(grantResetDate(new Date('2026-12-31T23:59:59Z')).toISOString()).toBe('2027-01-01T00:00:00.000Z');
    expect(grantMonth(new Date('2026-01-05T00:00:00Z'))).toBe('2026-01');
  });

  it('says how much a stage needs and what the balance is', () => {
    expect(notEnoughCreditsMessage(1234, 56)).toBe('Not enough credits: this stage needs about $12.34 and your balance is $0.56. Add credits in Settings.');
  });

  it("says how much a stage needs and how much of the run's own cap is left", () => {
    expect(costCapMessage(1234, 56, 2000)).toBe("Cost limit reached: this stage needs about $12.34 and only $0.56 of this run's $20.00 limit is left. Raise maxCostCents or resume with a higher limit.");
  });
});

describe('spend guardrail', () => {
  it('counts the calls a stage can make', () => {
    const shape = { plannedFiles: 4, repairRounds: 2, completionAttempts: 2 };
    expect(stageMaxCalls({ ...shape, role: 'Planning' })).toBe(1);
    expect(stageMaxCalls({ ...shape, role: 'Building' })).toBe(14);
    expect(stageMaxCalls({ ...shape, role: 'Checking' })).toBe(2);
    expect(stageMaxCalls({ ...shape, role: 'Polishing' })).toBe(1);
    expect(stageMaxCalls({ ...shape, role: 'Proven Code' })).toBe(2);
  });

  it('prices the worst case at the dearest engine, each call rounded up', () => {
    const worst = stageWorstCase({ role: 'Planning', plannedFiles: 0, repairRounds: 2, completionAttempts: 2 }, 3000, [0.5, 2]);
    expect(worst.tokens).toBe(1000 + PROMPT_OVERHEAD_TOKENS + MAX_OUTPUT_TOKENS_PER_CALL);
    expect(worst.cents).toBe(callCostCents(2, callMaxTokens(3000)));
  });

  it('reserves nothing for a stage whose engines have no price', () => {
    const worst = stageWorstCase({ role: 'Checking', plannedFiles: 0, repairRounds: 2, completionAttempts: 0 }, 3000, []);
    expect(worst).toEqual({ calls: 2, tokens: 2 * callMaxTokens(3000), cents: 0 });
  });

  it("prices the enhancement's worst case: each call also reads every engine's first-pass answer", () => {
    // 3,000 characters: 1,000 tokens in, + overhead, + the answer, + three first-pass answers read back.
    const perCall = 1000 + PROMPT_OVERHEAD_TOKENS + MAX_OUTPUT_TOKENS_PER_CALL + 3 * MAX_OUTPUT_TOKENS_PER_CALL;
    expect(enhancementWorstCase(3000, 4, 3, [1, 2])).toEqual({ calls: 4, tokens: 4 * perCall, cents: 4 * callCostCents(2, perCall) });
    expect(enhancementWorstCase(3000, 4, 3, [2])).toEqual({ calls: 4, tokens: 141_072, cents: 4 * 71 });
    // A smaller output cap bounds both the answers and what is read back.
    expect(enhancementWorstCase(300, 2, 2, [305], 1000)).toEqual({ calls: 2, tokens: 2 * (100 + PROMPT_OVERHEAD_TOKENS + 1000 + 2 * 1000), cents: 2 * callCostCents(305, 4600) });
  });

  it('never settles more than was held, nor more than a call cost', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 10_000 }), { maxLength: 30 }), fc.integer({ min: 0, max: 100_000 }), (costs, held) => {
        const billed = settleCalls(costs.map((cents) => ({ cents })), held);
        const total = billed.reduce((a, b) => a + b, 0);
        expect(total).toBeLessThanOrEqual(held);
        billed.forEach((b, i) => expect(b).toBeLessThanOrEqual(costs[i]!));
        expect(total).toBe(Math.min(held, costs.reduce((a, b) => a + b, 0)));
      }),
    );
  });
});

describe('mayHoldInFlight', () => {
  it('lets a stage hold while its engines work only when the balance its run last saw covers the worst case, with no cap', () => {
    expect(mayHoldInFlight(5000, 5000, false)).toBe(true);
    expect(mayHoldInFlight(4999, 5000, false)).toBe(false);
    // The run's first hold: nothing known, held before any engine is called.
    expect(mayHoldInFlight(null, 1, false)).toBe(false);
    // A cost cap reads what earlier stages were billed first.
    expect(mayHoldInFlight(1_000_000, 5000, true)).toBe(false);
    // A stage that moves no money holds nothing at all.
    expect(mayHoldInFlight(1_000_000, 0, false)).toBe(false);
  });
});

describe('walletMove', () => {
  it('spends the grant first, gives back what a released hold took, and adds a monthly grant', () => {
    const wallet = { balanceCents: 1500, grantCents: 500 };
    expect(walletMove(wallet, { kind: 'reservation', amountCents: -700 })).toEqual({ grantDeltaCents: -500, balanceAfterCents: 800, grantAfterCents: 0 });
    expect(walletMove(wallet, { kind: 'engine_usage', amountCents: -120 })).toEqual({ grantDeltaCents: -120, balanceAfterCents: 1380, grantAfterCents: 380 });
    expect(walletMove({ balanceCents: 800, grantCents: 0 }, { kind: 'reservation_release', amountCents: 700, grantReturnCents: 500 })).toEqual({ grantDeltaCents: 500, balanceAfterCents: 1500, grantAfterCents: 500 });
    // A credit gives back no more grant than it was told to, and no more than its amount.
    expect(walletMove({ balanceCents: 800, grantCents: 0 }, { kind: 'top_up', amountCents: 1000 })).toMatchObject({ grantDeltaCents: 0, grantAfterCents: 0 });
    expect(walletMove({ balanceCents: 800, grantCents: 0 }, { kind: 'reservation_release', amountCents: 100, grantReturnCents: 500 })).toMatchObject({ grantDeltaCents: 100, grantAfterCents: 100 });
    expect(walletMove({ balanceCents: 0, grantCents: 0 }, { kind: 'monthly_grant', amountCents: 500 })).toEqual({ grantDeltaCents: 500, balanceAfterCents: 500, grantAfterCents: 500 });
  });

  it('never leaves a grant above the balance or below zero, and moves the balance by exactly the amount', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 100_000 }),
        fc.integer({ min: 0, max: 100_000 }),
        fc.integer({ min: -100_000, max: 100_000 }),
        fc.constantFrom('reservation', 'reservation_release', 'engine_usage', 'top_up', 'monthly_grant', 'refund'),
        fc.integer({ min: 0, max: 100_000 }),
        (balance, grantWanted, amount, kind, grantReturnCents) => {
          const wallet = { balanceCents: balance, grantCents: Math.min(balance, grantWanted) };
          // The ledger never debits below zero, and a monthly grant is a credit.
          if (balance + amount < 0 || (kind === 'monthly_grant' && amount < 0)) return;
          const move = walletMove(wallet, { kind, amountCents: amount, grantReturnCents });
          expect(move.balanceAfterCents).toBe(balance + amount);
          expect(move.grantAfterCents).toBeGreaterThanOrEqual(0);
          expect(move.grantAfterCents).toBeLessThanOrEqual(move.balanceAfterCents);
          // A debit takes the grant first (+ 0: a zero taken is 0, not -0).
          if (amount < 0) expect(move.grantDeltaCents + 0).toBe(-Math.min(wallet.grantCents, -amount) + 0);
        },
      ),
    );
  });
});
