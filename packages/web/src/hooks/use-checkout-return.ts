/**
 * Settings after Stripe Checkout: `?checkout=success&session_id=…` polls the balance
 * until the webhook's credit shows ("Payment received, crediting…", then "Credits added");
 * `?checkout=cancelled` only notes that nothing was charged.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { fetchBalance, fetchLedger, invalidateMoney } from '../api/queries';
import { checkoutReturnFrom, pendingCheckoutStore, pollCheckout } from '../lib/checkout-return';

export type CheckoutView =
  | { state: 'crediting' }
  | { state: 'credited'; balanceCents: number }
  | { state: 'late'; balanceCents: number | null }
  | { state: 'cancelled' };

/** The checkout outcome to show, or null when the page was not opened from Checkout. */
export function useCheckoutReturn(signedIn: boolean): CheckoutView | null {
  const [params] = useSearchParams();
  const search = params.toString();
  const ret = useMemo(() => checkoutReturnFrom(new URLSearchParams(search)), [search]);
  const [result, setResult] = useState<{ key: string; view: CheckoutView } | null>(null);
  const client = useQueryClient();
  const polling = ret?.kind === 'success' && signedIn;

  useEffect(() => {
    if (!polling) return;
    const controller = new AbortController();
    void pollCheckout({
      pending: pendingCheckoutStore.get(),
      readBalance: async () => (await fetchBalance()).balanceCents,
      readEntries: () => fetchLedger(10),
      signal: controller.signal,
    }).then((outcome) => {
      if (controller.signal.aborted) return;
      if (outcome.status === 'credited') pendingCheckoutStore.remove();
      setResult({ key: search, view: outcome.status === 'credited' ? { state: 'credited', balanceCents: outcome.balanceCents } : { state: 'late', balanceCents: outcome.balanceCents } });
      void invalidateMoney(client);
    });
    return () => controller.abort();
  }, [polling, search, client]);

  if (!ret) return null;
  if (ret.kind === 'cancelled') return { state: 'cancelled' };
  return result?.key === search ? result.view : { state: 'crediting' };
}
