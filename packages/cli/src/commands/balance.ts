import { balanceReply, centsToDollars, formatCents, LOW_BALANCE_CENTS, type BalanceReply } from '@wolfpack/core';
import { explainLoggedOut, loggedInApi, spinnerOptions, type CommandContext } from '../context.js';
import type { Output } from '../output.js';
import { withSpinner } from '../ui/spinner.js';

/** `wolfpack balance` has no options of its own. */
export type BalanceOptions = Record<string, never>;

/** Settings' sentence under a balance below $5 (companion §2). */
export const LOW_BALANCE_HINT = 'Low balance - Consider adding credits.';

/**
 * `wolfpack balance`: the credits left, the monthly free grant and when it resets, referral
 * earnings and the referral code (GET /api/billing/balance). `--json`: the server's figures with
 * dollars as "15.00" strings, plus `lowBalance`.
 */
export async function balance(_options: BalanceOptions, context: CommandContext): Promise<void> {
  const api = await loggedInApi(context);
  const reply = await withSpinner(`Asking ${api.server}`, () => api.get('/api/billing/balance', { reply: balanceReply }), spinnerOptions(context)).catch(
    (error: unknown) => {
      throw explainLoggedOut(error, api.server);
    },
  );
  const data = balanceData(reply);
  context.output.result(balanceLines(data, context.output.style).join('\n'), data);
}

export type BalanceData = ReturnType<typeof balanceData>;

/** The reply as `--json` prints it: dollars back as the API's "15.00" strings, and `lowBalance`. */
export function balanceData(reply: BalanceReply) {
  return {
    balanceCents: reply.balanceCents,
    balanceDollars: centsToDollars(reply.balanceCents),
    monthlyGrantDollars: dollars(reply.monthlyGrantDollars),
    grantResetDate: reply.grantResetDate,
    referralEarningsDollars: dollars(reply.referralEarningsDollars),
    totalReferrals: reply.totalReferrals,
    referralCode: reply.referralCode,
    lowBalance: reply.balanceCents < LOW_BALANCE_CENTS,
  };
}

/** What a person reads; under $5 the Settings page's hint and how to buy credits. */
export function balanceLines(data: BalanceData, style: Output['style'] = (_format, text) => text): string[] {
  const lines = [
    `Balance        ${style('bold', formatCents(data.balanceCents))}`,
    // The reset is at 00:00 UTC: a local time would show the day before west of Greenwich.
    `Monthly grant  $${data.monthlyGrantDollars} of free credits, renewed on ${data.grantResetDate.slice(0, 10)} (UTC)`,
    `Referrals      ${data.totalReferrals}, earned $${data.referralEarningsDollars}`,
  ];
  if (data.referralCode !== '') lines.push(`Referral code  ${data.referralCode}`);
  if (data.lowBalance) lines.push('', style('yellow', LOW_BALANCE_HINT), 'Buy a credit pack with: wolfpack topup 10 (or 25, 50, 100)');
  return lines;
}

/** The reply's dollars (parsed to numbers) back as the API's "5.00" strings. */
function dollars(value: number): string {
  return centsToDollars(Math.round(value * 100));
}
