/** The pure parts of `balance`, `topup` and a run paused for credits; the commands themselves are in billing.int.test.ts. */
import { balanceReply, costCapMessage, notEnoughCreditsMessage } from '@wolfpack/core';
import { describe, expect, it } from 'vitest';
import { balanceData, balanceLines, LOW_BALANCE_HINT } from './commands/balance.js';
import { parsePackAmount } from './commands/topup.js';
import { attachCommand, paymentRequiredMessage } from './follow-run.js';

const reply = (balanceCents: number) =>
  balanceReply.parse({
    balanceCents,
    balanceDollars: (balanceCents / 100).toFixed(2),
    monthlyGrantDollars: '5.00',
    grantResetDate: '2026-12-01T00:00:00.000Z',
    referralEarningsDollars: '12.50',
    totalReferrals: 3,
    referralCode: 'WPAB12CD',
  });

describe('balance', () => {
  it('shows the balance, the grant and its reset day in UTC, and the referral figures', () => {
    const data = balanceData(reply(1500));
    expect(data).toEqual({
      balanceCents: 1500,
      balanceDollars: '15.00',
      monthlyGrantDollars: '5.00',
      grantResetDate: '2026-12-01T00:00:00.000Z',
      referralEarningsDollars: '12.50',
      totalReferrals: 3,
      referralCode: 'WPAB12CD',
      lowBalance: false,
    });
    expect(balanceLines(data)).toEqual([
      'Balance        $15.00',
      'Monthly grant  $5.00 of free credits, renewed on 2026-12-01 (UTC)',
      'Referrals      3, earned $12.50',
      'Referral code  WPAB12CD',
    ]);
  });

  it('adds the low-balance hint below $5, not at $5', () => {
    expect(balanceData(reply(500)).lowBalance).toBe(false);
    const low = balanceData(reply(499));
    expect(low.lowBalance).toBe(true);
    expect(balanceLines(low).slice(-3)).toEqual(['', LOW_BALANCE_HINT, 'Buy a credit pack with: wolfpack topup 10 (or 25, 50, 100)']);
    expect(LOW_BALANCE_HINT).toBe('Low balance - Consider adding credits.');
  });
});

describe('topup amounts', () => {
  it.each([
    ['10', 10],
    ['$25', 25],
    [' 50 ', 50],
    ['100.00', 100],
    ['$100.0', 100],
  ])('%j is the $%i pack', (text, dollars) => {
    expect(parsePackAmount(text)).toBe(dollars);
  });

  it.each(['7', '$5', '25.50', '1e2', '0x19', '', '$', 'ten', '-10', '250'])('%j is not a pack', (text) => {
    expect(parsePackAmount(text)).toBeUndefined();
  });
});

describe('a run paused for credits', () => {
  it('keeps the server’s sentence and says how to top up and resume', () => {
    expect(paymentRequiredMessage(notEnoughCreditsMessage(1940, 1500), 'run-1')).toBe(
      'Not enough credits: this stage needs about $19.40 and your balance is $15.00. Add credits in Settings. The run is paused; once credits are in (`wolfpack topup 25` prints a checkout link), resume it with: wolfpack attach run-1',
    );
  });

  it('resumes with the --out (quoted for the shell) and the exit-code flags the run was followed with', () => {
    expect(paymentRequiredMessage('Not enough credits.', 'run-1', 'build', { out: '/tmp/my app', strict: true })).toMatch(
      / resume it with: wolfpack attach run-1 --out '\/tmp\/my app' --strict$/,
    );
    expect(attachCommand('run-1', { out: '/tmp/out', force: true, requireProof: true })).toBe('wolfpack attach run-1 --out /tmp/out --force --require-proof');
    expect(attachCommand('run-1', {})).toBe('wolfpack attach run-1');
  });

  it('at its own --max-cost, says to build again with a higher one (resuming would stop there again)', () => {
    expect(paymentRequiredMessage(costCapMessage(60, 20, 100), 'run-1')).toBe(
      "Cost limit reached: this stage needs about $0.60 and only $0.20 of this run's $1.00 limit is left. The run stopped at its --max-cost limit; build again with a higher --max-cost to go further.",
    );
    expect(paymentRequiredMessage(costCapMessage(60, 20, 100), 'run-1', 'repair')).toMatch(/; repair again with a higher --max-cost to go further\.$/);
  });
});
