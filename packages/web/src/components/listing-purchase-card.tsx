import type { Listing } from '@wolfpack/core';
import { CircleCheck, Clock, Download, FolderOpen, LoaderCircle, Pencil, ShoppingCart, Store, Trash2, Undo2 } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { usePaymentsConfigured } from '../api/queries';
import { usePurchaseListing } from '../api/showcase';
import { toast } from '../hooks/use-toast';
import { purchaseFailureText } from '../lib/showcase-listing-form';
import { formatListingPrice } from '../lib/showcase-query';
import { Button, buttonClass } from './button';
import { Card } from './card';
import { PAYMENTS_OFF_LABEL, PaymentsOffNote } from './payments-off';
import { SignInLinks } from './sign-in-prompt';
import { ToastAction } from './toast';

/** Where the page stands after Stripe Checkout sent the browser back (?checkout=…). */
export type CheckoutReturnState = 'none' | 'completing' | 'late' | 'cancelled';

export interface ListingPurchaseCardProps {
  listing: Listing;
  /** null for a visitor. */
  signedIn: boolean;
  checkout: CheckoutReturnState;
  onEdit: () => void;
  onDelete: () => void;
}

/**
 * The purchase or download card of a listing (spec §2, §4 Purchase): sign in; your own listing;
 * your copy; after Checkout, the wait for it; otherwise Get (free) or Buy (commercial), disabled
 * while the request runs, then the copy or the redirect to Checkout; a failure toasts and the
 * button works again. Buy stays disabled until the server says it can take payments, and says why
 * on a server that cannot.
 */
export function ListingPurchaseCard({ listing, signedIn, checkout, onEdit, onDelete }: ListingPurchaseCardProps) {
  const purchase = usePurchaseListing();
  const paymentsConfigured = usePaymentsConfigured();
  const navigate = useNavigate();
  // Kept after the reply so the button stays disabled while the browser leaves for Checkout.
  const [redirecting, setRedirecting] = useState(false);
  const [copyId, setCopyId] = useState<string | null>(null);
  const free = listing.visibility === 'free';
  const ownedCopy = listing.purchasedProjectId ?? copyId;

  async function buy() {
    try {
      const reply = await purchase.mutateAsync(listing.id);
      if ('checkoutUrl' in reply) {
        setRedirecting(true);
        window.location.assign(reply.checkoutUrl);
      } else if ('projectId' in reply) {
        setCopyId(reply.projectId);
        toast({
          title: 'Project added',
          description: `A copy of "${listing.title}" is in your Projects.`,
          action: (
            // The toaster sits outside the router, so the action navigates through this page's hook.
            <ToastAction altText="Open your copy" onClick={() => void navigate(`/projects/${encodeURIComponent(reply.projectId)}`)}>
              Open
            </ToastAction>
          ),
        });
      } else {
        toast({ title: 'Purchase Failed', description: reply.error || 'Purchase failed', variant: 'destructive' });
      }
    } catch (error) {
      toast({ title: 'Purchase Failed', description: purchaseFailureText(error), variant: 'destructive' });
    }
  }

  let body: ReactNode;
  let state: string;
  if (!signedIn) {
    state = 'sign-in';
    body = (
      <>
        <p className="text-sm text-zinc-600 dark:text-zinc-400">Sign in or create an account to {free ? 'get a copy of this project' : 'buy this project'}.</p>
        <SignInLinks />
      </>
    );
  } else if (listing.isOwner) {
    state = 'owner';
    body = (
      <>
        <Note icon={<Store className="h-5 w-5 text-brand" aria-hidden />} title="This is your listing" text="Buyers get a copy of the files as they were when you listed it." />
        <div className="flex flex-wrap gap-2">
          <Button variant="outline" size="sm" onClick={onEdit} data-testid="edit-listing">
            <Pencil className="h-4 w-4" aria-hidden />
            Edit
          </Button>
          <Button variant="outline" size="sm" onClick={onDelete} className="text-red-600 dark:text-red-400" data-testid="delete-listing">
            <Trash2 className="h-4 w-4" aria-hidden />
            Delete
          </Button>
        </div>
      </>
    );
  } else if (ownedCopy) {
    state = 'owned';
    body = (
      <>
        <Note icon={<CircleCheck className="h-5 w-5 text-emerald-600 dark:text-emerald-400" aria-hidden />} title="You have this project" text="Your copy is in your Projects; change it as you like." />
        <Link to={`/projects/${encodeURIComponent(ownedCopy)}`} className={buttonClass('primary', 'md', 'w-full')} data-testid="open-copy">
          <FolderOpen className="h-4 w-4" aria-hidden />
          Open your copy
        </Link>
      </>
    );
  } else if (checkout === 'completing') {
    state = 'completing';
    body = (
      <Note
        icon={<LoaderCircle className="h-5 w-5 animate-spin text-brand" aria-hidden />}
        title="Payment received, completing your purchase…"
        text="Stripe is confirming the payment; your copy appears here in a moment."
      />
    );
  } else if (checkout === 'late') {
    state = 'late';
    body = (
      <Note
        icon={<Clock className="h-5 w-5 text-amber-600" aria-hidden />}
        title="Your payment is still being confirmed"
        text="Your copy is added as soon as Stripe confirms the payment, usually within a few minutes. Reload this page to check again; you will not be charged twice."
      />
    );
  } else {
    const busy = purchase.isPending || redirecting;
    const paymentsOff = !free && paymentsConfigured === false;
    state = free ? 'get' : 'buy';
    body = (
      <>
        {checkout === 'cancelled' ? (
          <p className="flex items-center gap-2 text-sm text-zinc-600 dark:text-zinc-400" data-testid="checkout-cancelled">
            <Undo2 className="h-4 w-4" aria-hidden />
            Checkout cancelled; nothing was charged.
          </p>
        ) : null}
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          {free ? 'Free: a copy of the files goes straight into your Projects.' : 'One payment; a copy of the files goes into your Projects.'}
        </p>
        {paymentsOff ? <PaymentsOffNote what="projects" /> : null}
        <Button
          size="lg"
          className="w-full"
          onClick={() => void buy()}
          disabled={busy || (!free && paymentsConfigured !== true)}
          aria-busy={busy}
          data-testid="purchase-button"
        >
          {busy ? <LoaderCircle className="h-4 w-4 animate-spin" aria-hidden /> : free ? <Download className="h-4 w-4" aria-hidden /> : <ShoppingCart className="h-4 w-4" aria-hidden />}
          {purchaseLabel(listing, { free, busy, paymentsOff })}
        </Button>
      </>
    );
  }

  return (
    <Card className="flex flex-col gap-4 p-5" data-testid="purchase-card" data-state={state}>
      <div className="flex items-baseline justify-between gap-2">
        <span className="text-sm font-medium text-zinc-500 dark:text-zinc-400">{free ? 'Price' : 'One-time price'}</span>
        <span className="text-2xl font-semibold tabular-nums" data-testid="purchase-price">
          {free ? 'FREE' : formatListingPrice(listing.priceCents)}
        </span>
      </div>
      {body}
    </Card>
  );
}

function purchaseLabel(listing: Listing, { free, busy, paymentsOff }: { free: boolean; busy: boolean; paymentsOff: boolean }): string {
  if (free) return busy ? 'Getting your copy…' : 'Get this project';
  if (paymentsOff) return PAYMENTS_OFF_LABEL;
  return busy ? 'Opening checkout…' : `Buy for ${formatListingPrice(listing.priceCents)}`;
}

function Note({ icon, title, text }: { icon: ReactNode; title: string; text: string }) {
  return (
    <div className="flex items-start gap-3" role="status">
      <span className="mt-0.5 shrink-0">{icon}</span>
      <div>
        <p className="font-semibold" data-testid="purchase-note">
          {title}
        </p>
        <p className="text-sm text-zinc-600 dark:text-zinc-400">{text}</p>
      </div>
    </div>
  );
}
