import { CREDIT_PACK_DOLLARS, centsToDollars, checkoutReply, creditPack, formatCents, type CreditPackDollars } from '@wolfpack/core';
import { explainLoggedOut, loggedInApi, spinnerOptions, type CommandContext } from '../context.js';
import { withSpinner } from '../ui/spinner.js';
import { UsageError } from '../usage-error.js';

/** `wolfpack topup` has no options of its own. */
export type TopupOptions = Record<string, never>;

const PACKS_TEXT = `${CREDIT_PACK_DOLLARS.slice(0, -1).map((d) => `$${d}`).join(', ')} or $${CREDIT_PACK_DOLLARS.at(-1)}`;

/** "25", "$25" and "25.00" name the $25 pack; anything else is not a pack. */
export function parsePackAmount(text: string): CreditPackDollars | undefined {
  const match = /^\$?(\d{1,3})(?:\.00?)?$/.exec(text.trim());
  const dollars = match ? Number(match[1]) : NaN;
  return CREDIT_PACK_DOLLARS.find((pack) => pack === dollars);
}

/**
 * `wolfpack topup AMOUNT`: asks the server for a Stripe Checkout page for a credit pack
 * (POST /api/billing/top-up) and prints its URL alone on stdout, so `open "$(wolfpack topup 25)"`
 * works; the credits arrive when Stripe confirms the payment. `--json`: `{amountDollars,
 * bonusDollars, checkoutUrl}`. A server without Stripe keys answers 503 with its sentence (exit 1).
 */
export async function topup(amount: string, _options: TopupOptions, context: CommandContext): Promise<void> {
  const dollars = parsePackAmount(amount);
  if (dollars === undefined) throw new UsageError(`"${amount}" is not a credit pack. Choose ${PACKS_TEXT}: wolfpack topup 25`);
  const pack = creditPack(dollars);

  const api = await loggedInApi(context);
  const { checkoutUrl } = await withSpinner(
    `Opening a checkout for ${formatCents(pack.amountCents)}`,
    () => api.post('/api/billing/top-up', { body: { amountDollars: dollars }, reply: checkoutReply }),
    spinnerOptions(context),
  ).catch((error: unknown) => {
    throw explainLoggedOut(error, api.server);
  });

  if (!context.output.json) {
    const bonus = pack.bonusCents > 0 ? ` plus a ${formatCents(pack.bonusCents)} bonus` : '';
    context.io.stderr.write(`Buy the $${dollars} pack (${formatCents(pack.amountCents)} of credits${bonus}) on this Stripe Checkout page; the credits arrive once the payment goes through:\n`);
  }
  context.output.result(checkoutUrl, { amountDollars: dollars, bonusDollars: centsToDollars(pack.bonusCents), checkoutUrl });
}
