import { describe, expect, it } from 'vitest';
import { balanceReply, billingHistoryReply, topUpReply, topUpRequest } from './billing.js';

describe('billing', () => {
  it('parses the balance fields, numbers possibly as strings', () => {
    const balance = balanceReply.parse({
      balanceCents: '1250',
      balanceDollars: '12.50',
      monthlyGrantDollars: 5,
      grantResetDate: '2026-12-01T00:00:00.000Z',
      referralEarningsDollars: 15,
      totalReferrals: 1,
      referralCode: 'WPAB12CD',
    });
    expect(balance).toMatchObject({ balanceCents: 1250, balanceDollars: 12.5, totalReferrals: 1 });
  });

  it('rejects fractional cents', () => {
    const valid = {
      balanceCents: 1,
      balanceDollars: 0.01,
      monthlyGrantDollars: 5,
      grantResetDate: 'x',
      referralEarningsDollars: 0,
      totalReferrals: 0,
      referralCode: 'WPAB12CD',
    };
    expect(balanceReply.safeParse(valid).success).toBe(true);
    expect(balanceReply.safeParse({ ...valid, balanceCents: 12.5 }).success).toBe(false);
  });

  it('parses the usage history', () => {
    const reply = billingHistoryReply.parse({
      history: [{ id: 'u1', role: 'Building', totalTokens: '2048', createdAt: '2026-11-01', billedDollars: '6.25' }],
    });
    expect(reply.history[0]).toMatchObject({ totalTokens: 2048, billedDollars: 6.25 });
  });

  it('accepts only the credit packs as top-up amounts', () => {
    for (const amountDollars of [10, 25, 50, 100]) expect(topUpRequest.parse({ amountDollars })).toEqual({ amountDollars });
    for (const amountDollars of [0, 5, 26, 1000, '10']) {
      const result = topUpRequest.safeParse({ amountDollars });
      expect(result.success).toBe(false);
      expect(result.error?.issues[0]?.message).toBe('Choose a credit pack of $10, $25, $50 or $100');
    }
  });

  it('requires a checkout URL in the top-up reply', () => {
    expect(topUpReply.parse({ checkoutUrl: 'https://checkout.stripe.com/c/pay/cs_test' }).checkoutUrl).toMatch(/^https:/);
    expect(topUpReply.safeParse({ checkoutUrl: '' }).success).toBe(false);
  });
});
