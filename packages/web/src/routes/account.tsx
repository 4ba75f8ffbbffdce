import { formatCents, type AccountReply, type LedgerEntryItem } from '@wolfpack/core';
import { Activity, ChartLine, CreditCard, LogOut, Plus, ShieldAlert, UserRound } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { apiRequest } from '../api/client';
import { useAccount, useBalance, useMe } from '../api/queries';
import { Button, buttonClass } from '../components/button';
import { CancelAccountDialog } from '../components/cancel-account-dialog';
import { PageHeader, SectionCard } from '../components/section-card';
import { LoadingBlock, SignInPrompt } from '../components/sign-in-prompt';
import { toast } from '../hooks/use-toast';
import { cn } from '../lib/cn';
import { formatDate, formatDateTime } from '../lib/format-time';

/**
 * Account (/account, companion §2): status, created date, billing cycle, the card of the last
 * payment or a way to add one, recent activity, a link to the savings dashboard, and Cancel Account.
 */
export function AccountPage() {
  const { user, isPending: mePending } = useMe();
  const signedIn = user !== null;
  const account = useAccount(signedIn);
  const balance = useBalance(signedIn);
  const [cancelOpen, setCancelOpen] = useState(false);
  const [signingOut, setSigningOut] = useState(false);

  async function signOutEverywhere() {
    setSigningOut(true);
    try {
      await apiRequest('POST', '/api/account/sign-out-everywhere', {});
      // A full load, like Logout: every cached read starts over as a visitor.
      window.location.assign('/');
    } catch {
      setSigningOut(false);
      toast({ title: 'Sign out failed', description: 'You are still signed in everywhere. Try again.', variant: 'destructive' });
    }
  }

  return (
    <div className="mx-auto flex max-w-4xl flex-col gap-6">
      <PageHeader icon={<UserRound className="h-7 w-7" aria-hidden />} title="Account Information" description="Your plan, payment method and what moved on your balance." />

      {!mePending && !signedIn ? (
        <SignInPrompt what="your account" />
      ) : account.data ? (
        <>
          <div className="grid grid-cols-1 gap-6 md:grid-cols-2">
            <SectionCard icon={<UserRound className="h-5 w-5" aria-hidden />} title="Account" testId="account-details">
              <AccountDetails account={account.data} balanceCents={balance.data?.balanceCents} />
            </SectionCard>
            <SectionCard icon={<CreditCard className="h-5 w-5" aria-hidden />} title="Payment Method" testId="account-card">
              <PaymentMethod card={account.data.card} />
            </SectionCard>
          </div>

          <SectionCard
            icon={<Activity className="h-5 w-5" aria-hidden />}
            title="Recent Activity"
            description="Credits in and out of your balance, newest first."
            testId="account-activity"
            action={
              <Link to="/usage-metrics" className={buttonClass('outline', 'sm')} data-testid="link-usage-metrics">
                <ChartLine className="h-4 w-4" aria-hidden />
                Savings dashboard
              </Link>
            }
          >
            <RecentActivity entries={account.data.recentActivity} />
          </SectionCard>

          <SectionCard icon={<LogOut className="h-5 w-5" aria-hidden />} title="Sign Out Everywhere" testId="account-sign-out-everywhere">
            <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
              <p className="text-sm text-zinc-600 dark:text-zinc-400">
                Ends every session of yours: in every browser, every <code>wolfpack login</code> on the command line, and every
                preview link you opened or shared.
              </p>
              <Button variant="outline" onClick={() => void signOutEverywhere()} disabled={signingOut} data-testid="sign-out-everywhere">
                Sign out everywhere
              </Button>
            </div>
          </SectionCard>

          <SectionCard icon={<ShieldAlert className="h-5 w-5" aria-hidden />} title="Cancel Account" testId="account-cancel">
            <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
              <p className="text-sm text-zinc-600 dark:text-zinc-400">
                Closing your account signs you out everywhere and removes your personal data; the record of your payments
                is kept without your name.
              </p>
              <Button variant="destructive" onClick={() => setCancelOpen(true)} data-testid="cancel-account">
                Cancel Account
              </Button>
            </div>
          </SectionCard>

          <CancelAccountDialog
            open={cancelOpen}
            onOpenChange={setCancelOpen}
            username={account.data.username}
            // A full load, like Logout: every cached read starts over as a visitor.
            onClosed={() => window.location.assign('/')}
          />
        </>
      ) : account.isError ? (
        <p className="text-sm text-red-600 dark:text-red-400">Your account could not be loaded. Reload the page to try again.</p>
      ) : (
        <LoadingBlock rows={3} label="Loading your account" />
      )}
    </div>
  );
}

function AccountDetails({ account, balanceCents }: { account: AccountReply; balanceCents: number | undefined }) {
  const active = account.status === 'active';
  const rows = [
    { label: 'Username', value: account.username, testId: 'account-username' },
    {
      label: 'Status',
      value: (
        <span
          className={cn(
            'inline-flex items-center gap-1.5 rounded-full px-2 py-0.5 text-xs font-medium capitalize',
            active ? 'bg-emerald-100 text-emerald-800 dark:bg-emerald-500/15 dark:text-emerald-300' : 'bg-zinc-100 text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300',
          )}
        >
          <span className={cn('h-1.5 w-1.5 rounded-full', active ? 'bg-emerald-500' : 'bg-zinc-400')} aria-hidden />
          {account.status}
        </span>
      ),
      testId: 'account-status',
    },
    { label: 'Member since', value: formatDate(account.createdAt), testId: 'account-created' },
    { label: 'Billing cycle', value: account.billingCycle, testId: 'account-billing-cycle' },
    { label: 'Credit balance', value: balanceCents === undefined ? '…' : formatCents(balanceCents), testId: 'account-balance' },
  ];
  return (
    <dl className="flex flex-col divide-y divide-zinc-100 text-sm dark:divide-zinc-800">
      {rows.map((row) => (
        <div key={row.label} className="flex items-center justify-between gap-3 py-2 first:pt-0 last:pb-0">
          <dt className="text-zinc-500 dark:text-zinc-400">{row.label}</dt>
          <dd className="font-medium" data-testid={row.testId}>
            {row.value}
          </dd>
        </div>
      ))}
    </dl>
  );
}

function PaymentMethod({ card }: { card: AccountReply['card'] }) {
  if (!card) {
    return (
      <div className="flex flex-col items-start gap-3">
        <p className="text-sm text-zinc-600 dark:text-zinc-400">No card on file. The card of your last credit purchase shows here.</p>
        <Link to="/settings#buy-credits" className={buttonClass('outline', 'sm')} data-testid="add-payment-method">
          <Plus className="h-4 w-4" aria-hidden />
          Add Payment Method
        </Link>
      </div>
    );
  }
  const expiry = `${String(card.expMonth).padStart(2, '0')}/${String(card.expYear % 100).padStart(2, '0')}`;
  return (
    <div className="flex items-center gap-4" data-testid="payment-card">
      <span className="grid h-12 w-18 place-items-center rounded-lg bg-gradient-to-br from-zinc-700 to-zinc-900 text-xs font-semibold text-white uppercase">
        {card.brand}
      </span>
      <div className="text-sm">
        <p className="font-medium">
          <span className="capitalize">{card.brand}</span> •••• {card.last4}
        </p>
        <p className="text-zinc-500 dark:text-zinc-400">Expires {expiry}</p>
      </div>
    </div>
  );
}

function RecentActivity({ entries }: { entries: readonly LedgerEntryItem[] }) {
  if (entries.length === 0) {
    return <p className="text-sm text-zinc-500 dark:text-zinc-400">No activity yet.</p>;
  }
  return (
    <ul className="-my-2 divide-y divide-zinc-100 dark:divide-zinc-800" data-testid="activity-list">
      {entries.map((entry) => (
        <li key={entry.id} className="flex items-center justify-between gap-3 py-2.5 text-sm" data-testid="activity-item">
          <div className="min-w-0">
            <p className="truncate font-medium">{entry.label}</p>
            <p className="text-xs text-zinc-500 dark:text-zinc-400">{formatDateTime(entry.createdAt)}</p>
          </div>
          <div className="text-right tabular-nums">
            <p className={cn('font-medium', entry.amountCents >= 0 ? 'text-emerald-700 dark:text-emerald-400' : 'text-zinc-900 dark:text-zinc-100')}>
              {entry.amountCents >= 0 ? '+' : ''}
              {formatCents(entry.amountCents)}
            </p>
            <p className="text-xs text-zinc-500 dark:text-zinc-400">Balance {formatCents(entry.balanceAfterCents)}</p>
          </div>
        </li>
      ))}
    </ul>
  );
}
