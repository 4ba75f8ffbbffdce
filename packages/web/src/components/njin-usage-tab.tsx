import { CalendarClock, CircleCheck, CreditCard, Infinity as InfinityIcon, LoaderCircle, Repeat, ShieldCheck, Sparkles } from 'lucide-react';
import { useState } from 'react';
import type { PageLicense } from '../api/njin';
import { describeRequestFailure } from '../api/client';
import { useCancelNjin, useNjinSubscribe } from '../api/njin';
import { usePaymentsConfigured } from '../api/queries';
import { toast } from '../hooks/use-toast';
import { formatExpiry, grantedLicenceText, LICENSE_LOAD_FAILED, licenseStatusLabel, NJIN_PRICE_TEXT, subscribeFailure } from '../lib/njin-format';
import { Button } from './button';
import { Card } from './card';
import { ConfirmDialog } from './confirm-dialog';
import { PAYMENTS_OFF_LABEL, PaymentsOffNote } from './payments-off';
import { LoadingBlock, SignInLinks, SignInPrompt } from './sign-in-prompt';
import { StatTile } from './stat-tile';

export interface NjinUsageTabProps {
  signedIn: boolean;
  /** undefined while loading. */
  license: PageLicense | null | undefined;
  loadFailed: boolean;
  /** Back from Checkout and the licence is not active yet: the webhook is on its way. */
  awaitingActivation: boolean;
}

/**
 * The Usage & Stats tab (companion §2, §4 Licence, §9): total iterations, Active or Inactive, the
 * expiry, and the $29 card; without a licence a purchase prompt. Visitors are asked to sign in.
 * A licence the operator granted says so, with its end: there is no subscription to speak of or
 * to cancel.
 */
export function NjinUsageTab({ signedIn, license, loadFailed, awaitingActivation }: NjinUsageTabProps) {
  if (!signedIn) {
    return (
      <div className="flex flex-col gap-6" data-testid="njin-usage">
        <SignInPrompt what="your njin licence and usage" />
        <PricingCard signedIn={false} active={false} />
      </div>
    );
  }
  if (loadFailed) {
    return (
      <p className="rounded-lg border border-red-200 bg-red-50 p-4 text-sm text-red-700 dark:border-red-500/30 dark:bg-red-500/10 dark:text-red-300" role="alert" data-testid="njin-license-error">
        {LICENSE_LOAD_FAILED}
      </p>
    );
  }
  if (license === undefined) return <LoadingBlock rows={3} label="Loading your licence" />;

  const active = license?.status === 'active';
  const granted = active && license?.source === 'operator';
  return (
    <div className="flex flex-col gap-6" data-testid="njin-usage">
      {awaitingActivation && !active ? (
        <p className="flex items-center gap-2 rounded-lg border border-brand/30 bg-brand/5 p-4 text-sm" role="status" data-testid="njin-activating">
          <LoaderCircle className="h-4 w-4 animate-spin text-brand" aria-hidden />
          Payment received: your licence activates as soon as Stripe confirms it.
        </p>
      ) : null}
      <dl className="grid grid-cols-1 gap-3 sm:grid-cols-3" data-testid="njin-stats">
        <StatTile icon={<Repeat className="h-4 w-4" aria-hidden />} label="Total iterations" value={(license?.usageCount ?? 0).toLocaleString('en-US')} testId="njin-usage-count" />
        <StatTile icon={<ShieldCheck className="h-4 w-4" aria-hidden />} label="Licence status" value={<StatusBadge label={licenseStatusLabel(license?.status)} />} testId="njin-license-status" />
        <StatTile icon={<CalendarClock className="h-4 w-4" aria-hidden />} label="Expires" value={license ? formatExpiry(license.expiresAt) : '—'} testId="njin-expiry" />
      </dl>
      {license === null ? <PurchasePrompt /> : null}
      <PricingCard signedIn active={active} grantedText={granted ? grantedLicenceText(license?.expiresAt) : null} />
      {active && !granted ? <CancelSubscription expiresAt={license?.expiresAt ?? null} /> : null}
    </div>
  );
}

function StatusBadge({ label }: { label: 'Active' | 'Inactive' }) {
  return (
    <span
      className={
        label === 'Active'
          ? 'rounded-full bg-emerald-100 px-2.5 py-0.5 text-base text-emerald-800 dark:bg-emerald-500/15 dark:text-emerald-300'
          : 'rounded-full bg-zinc-100 px-2.5 py-0.5 text-base text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300'
      }
    >
      {label}
    </span>
  );
}

function PurchasePrompt() {
  return (
    <Card className="flex items-start gap-3 border-brand/30 p-5" data-testid="njin-purchase-prompt">
      <Sparkles className="mt-0.5 h-5 w-5 shrink-0 text-brand" aria-hidden />
      <div className="text-sm">
        <p className="font-semibold">You don&apos;t have a licence yet</p>
        <p className="text-zinc-600 dark:text-zinc-400">
          Subscribe to call the iteration engine: heavy changes go to several engines at once, and only patches that pass the checks come back.
        </p>
      </div>
    </Card>
  );
}

/**
 * The $29 card. Subscribe Now is disabled while the request runs and stays so while the browser
 * leaves for Checkout; a failure toasts and enables it again. Like the credit packs, it waits for
 * the server to say it can take payments, and says why on a server that cannot. An active licence
 * says where it comes from: a subscription, or (`grantedText`) the operator's grant.
 */
function PricingCard({ signedIn, active, grantedText = null }: { signedIn: boolean; active: boolean; grantedText?: string | null }) {
  const subscribe = useNjinSubscribe();
  const paymentsConfigured = usePaymentsConfigured();
  const [redirecting, setRedirecting] = useState(false);

  async function onSubscribe() {
    try {
      const url = await subscribe.mutateAsync();
      setRedirecting(true);
      window.location.assign(url);
    } catch (error) {
      toast({ ...subscribeFailure(error), variant: 'destructive' });
    }
  }

  const busy = subscribe.isPending || redirecting;
  return (
    <Card className="flex flex-col gap-4 p-6 sm:max-w-sm" data-testid="njin-pricing">
      <div>
        <p className="text-sm font-medium text-zinc-500 dark:text-zinc-400">njin licence</p>
        <p className="text-4xl font-semibold tracking-tight">
          <span data-testid="njin-price">{NJIN_PRICE_TEXT}</span>
          <span className="text-base font-normal text-zinc-500 dark:text-zinc-400"> per month</span>
        </p>
      </div>
      <ul className="flex flex-col gap-2 text-sm">
        <li className="flex items-center gap-2">
          <InfinityIcon className="h-4 w-4 text-brand" aria-hidden />
          Unlimited iterations
        </li>
        <li className="flex items-center gap-2">
          <CircleCheck className="h-4 w-4 text-brand" aria-hidden />
          Consensus only among patches that pass the checks
        </li>
        <li className="flex items-center gap-2">
          <CreditCard className="h-4 w-4 text-brand" aria-hidden />
          Cancel at any time
        </li>
      </ul>
      {!signedIn ? (
        <SignInLinks />
      ) : active && grantedText ? (
        <p className="flex items-center gap-2 text-sm font-medium text-emerald-700 dark:text-emerald-400" data-testid="njin-granted">
          <ShieldCheck className="h-4 w-4 shrink-0" aria-hidden />
          {grantedText}
        </p>
      ) : active ? (
        <p className="flex items-center gap-2 text-sm font-medium text-emerald-700 dark:text-emerald-400" data-testid="njin-subscribed">
          <CircleCheck className="h-4 w-4" aria-hidden />
          You&apos;re subscribed.
        </p>
      ) : (
        <>
          {paymentsConfigured === false ? <PaymentsOffNote what="njin licences" /> : null}
          <Button size="lg" disabled={busy || paymentsConfigured !== true} onClick={() => void onSubscribe()} data-testid="njin-subscribe">
            {busy ? <LoaderCircle className="h-4 w-4 animate-spin" aria-hidden /> : <CreditCard className="h-4 w-4" aria-hidden />}
            {paymentsConfigured === false ? PAYMENTS_OFF_LABEL : 'Subscribe Now'}
          </Button>
        </>
      )}
    </Card>
  );
}

/** Cancels at the period end (companion §1: cancellable at any time); asked first. */
function CancelSubscription({ expiresAt }: { expiresAt: string | null }) {
  const cancel = useCancelNjin();
  const [open, setOpen] = useState(false);
  const until = expiresAt ? formatExpiry(expiresAt) : 'the end of the period you paid for';

  async function onConfirm() {
    try {
      await cancel.mutateAsync();
      setOpen(false);
      toast({ title: 'Subscription cancelled', description: `Your licence stays active until ${until}; it will not renew.` });
    } catch (error) {
      setOpen(false);
      toast({ title: 'Cancellation failed', description: describeRequestFailure(error, { failed: 'Failed to cancel the subscription', exception: 'Failed to cancel the subscription' }), variant: 'destructive' });
    }
  }

  return (
    <div>
      <Button variant="ghost" size="sm" className="text-zinc-500" onClick={() => setOpen(true)} data-testid="njin-cancel">
        Cancel subscription
      </Button>
      <ConfirmDialog
        open={open}
        onOpenChange={(next) => {
          if (!cancel.isPending) setOpen(next);
        }}
        title="Cancel your njin subscription?"
        description={`Nothing more is charged. Your licence and keys keep working until ${until}.`}
        confirmLabel="Cancel subscription"
        pending={cancel.isPending}
        onConfirm={() => void onConfirm()}
        testId="njin-cancel-dialog"
      />
    </div>
  );
}
