import { describe, expect, it } from 'vitest';
import { CREDIT_PACKS } from '@wolfpack/core';
import type { EntryInput, WalletTx } from './ledger-service.js';
import { creditTopUp, type CheckoutRow } from './payment-service.js';

/** A wallet transaction that only records what was posted. */
function recordingTx(): WalletTx & { posted: EntryInput[] } {
  const posted: EntryInput[] = [];
  return {
    posted,
    em: undefined as never,
    userId: 'u1',
    balanceCents: () => 0,
    post: async (entry) => {
      posted.push(entry);
      return { id: posted.length, amountCents: entry.amountCents, balanceAfterCents: 0, duplicate: false };
    },
    reserve: async () => ({ ok: true, balanceCents: 0, heldCents: 0 }),
    settle: async () => {},
    releaseOpenHolds: async () => 0,
  };
}

const row = (packDollars: number | null, amountCents: number): CheckoutRow => ({ id: 'cs_test_1', userId: 'u1', purpose: 'top_up', packDollars, amountCents, status: 'open', referenceId: null });

describe('creditTopUp', () => {
  it.each(CREDIT_PACKS.map((p) => [p.dollars, p.amountCents, p.bonusCents] as const))('the $%i pack credits %i cents plus a %i cents bonus, with per-session references', async (dollars, amount, bonus) => {
    const tx = recordingTx();
    await creditTopUp(tx, row(dollars, amount));
    const expected: Array<Partial<EntryInput>> = [{ kind: 'top_up', amountCents: amount, reference: 'topup:cs_test_1' }];
    if (bonus > 0) expected.push({ kind: 'pack_bonus', amountCents: bonus, reference: 'pack-bonus:cs_test_1' });
    expect(tx.posted).toMatchObject(expected);
    expect(tx.posted).toHaveLength(expected.length);
  });

  it('refuses a stored row that is not a pack (and credits nothing)', async () => {
    for (const [pack, amount] of [[25, 2600], [30, 3000], [null, 2500]] as const) {
      const tx = recordingTx();
      await expect(creditTopUp(tx, row(pack, amount))).rejects.toThrow(/does not match a credit pack/);
      expect(tx.posted).toEqual([]);
    }
  });
});
