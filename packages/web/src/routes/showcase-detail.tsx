import type { Listing } from '@wolfpack/core';
import { ArrowLeft, ExternalLink, FileQuestion, Files, GitBranch, Layers, MessageSquareText, Sparkles, Tag } from 'lucide-react';
import { useEffect, useState, type ReactNode } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { describeRequestFailure, httpErrorParts } from '../api/client';
import { useMe } from '../api/queries';
import { useDeleteListing, useListing } from '../api/showcase';
import { Card } from '../components/card';
import { ConfirmDialog } from '../components/confirm-dialog';
import { ListInShowcaseDialog } from '../components/list-in-showcase-dialog';
import { ListingPriceBadge } from '../components/listing-card';
import { ListingPurchaseCard, type CheckoutReturnState } from '../components/listing-purchase-card';
import { NoticeCard, PageLoadError } from '../components/notice-card';
import { Skeleton } from '../components/skeleton';
import { toast } from '../hooks/use-toast';
import { checkoutReturnFrom, CHECKOUT_POLL_LIMIT_MS, CHECKOUT_POLL_MS } from '../lib/checkout-return';
import { formatDateTime } from '../lib/format-time';

/**
 * Listing detail (/showcase/:id, companion §2): cover, title, price or FREE, summary, stack, tags,
 * links, the prompts used and the purchase or download card. Back from Checkout
 * (?checkout=success) it re-reads the listing until the webhook has made the buyer's copy.
 */
export function ShowcaseDetailPage() {
  const { id = '' } = useParams();
  const [params] = useSearchParams();
  const me = useMe();
  const signedIn = me.user !== null;
  const ret = checkoutReturnFrom(params);
  const [late, setLate] = useState(false);
  const [pollDone, setPollDone] = useState(false);
  const waiting = ret?.kind === 'success' && signedIn && !late && !pollDone;
  const listing = useListing(id, me.user?.username ?? null, {
    enabled: !me.isPending,
    refetchInterval: waiting ? CHECKOUT_POLL_MS : false,
  });
  const bought = Boolean(listing.data?.purchasedProjectId);
  useEffect(() => {
    if (bought) setPollDone(true);
  }, [bought]);
  useEffect(() => {
    if (!waiting) return;
    const timer = setTimeout(() => setLate(true), CHECKOUT_POLL_LIMIT_MS);
    return () => clearTimeout(timer);
  }, [waiting]);

  if (me.isPending || listing.isPending) return <DetailSkeleton />;
  if (listing.isError) {
    const status = httpErrorParts(listing.error)?.status;
    if (status === 404 || status === 400) return <ListingNotFound />;
    return <PageLoadError title="This listing could not be loaded" error={listing.error} onRetry={() => void listing.refetch()} testId="listing-error" />;
  }
  const checkout: CheckoutReturnState =
    ret?.kind === 'cancelled' ? 'cancelled' : ret?.kind === 'success' && signedIn ? (late && !bought ? 'late' : 'completing') : 'none';
  return <ListingView listing={listing.data} signedIn={signedIn} checkout={checkout} />;
}

function ListingView({ listing, signedIn, checkout }: { listing: Listing; signedIn: boolean; checkout: CheckoutReturnState }) {
  const navigate = useNavigate();
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const remove = useDeleteListing();

  async function confirmDelete() {
    try {
      await remove.mutateAsync(listing.id);
      toast({ title: 'Listing removed', description: `"${listing.title}" is no longer in the Showcase.` });
      setDeleting(false);
      void navigate('/showcase');
    } catch (error) {
      toast({ title: 'Error', description: describeRequestFailure(error, { failed: 'Failed to delete listing', exception: 'Failed to delete listing' }), variant: 'destructive' });
    }
  }

  return (
    <div className="flex flex-col gap-6" data-testid="listing-detail">
      <BackLink />
      <div className="grid grid-cols-1 items-start gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]">
        <div className="flex min-w-0 flex-col gap-6">
          <Card className="overflow-hidden">
            {listing.coverImage ? (
              <img src={listing.coverImage} alt={`Cover of ${listing.title}`} className="aspect-[16/7] w-full bg-zinc-100 object-cover dark:bg-zinc-800" data-testid="listing-cover" />
            ) : null}
            <div className="flex flex-col gap-3 p-5 sm:p-6">
              <div className="flex flex-wrap items-start justify-between gap-3">
                <h1 className="min-w-0 text-2xl font-semibold tracking-tight break-words sm:text-3xl" data-testid="listing-title">
                  {listing.title}
                </h1>
                <ListingPriceBadge listing={listing} className="px-3 py-1 text-sm" />
              </div>
              <p className="text-sm text-zinc-500 dark:text-zinc-400">
                {listing.sellerName ? <>by {listing.sellerName} · </> : null}
                listed <time dateTime={listing.createdAt}>{formatDateTime(listing.createdAt)}</time>
                {listing.fileCount !== undefined ? (
                  <span data-testid="listing-file-count">
                    {' '}
                    · <Files className="inline h-3.5 w-3.5 align-[-2px]" aria-hidden /> {listing.fileCount} {listing.fileCount === 1 ? 'file' : 'files'}
                  </span>
                ) : null}
              </p>
              <p className="leading-relaxed break-words whitespace-pre-wrap text-zinc-700 dark:text-zinc-300" data-testid="listing-summary">
                {listing.summary}
              </p>
            </div>
          </Card>

          {listing.techStack.length > 0 || listing.tags.length > 0 ? (
            <Card className="flex flex-col gap-4 p-5">
              {listing.techStack.length > 0 ? (
                <Section icon={<Layers className="h-4 w-4" aria-hidden />} title="Tech stack">
                  <ul className="flex flex-wrap gap-1.5" data-testid="listing-tech-stack">
                    {listing.techStack.map((tech) => (
                      <li key={tech} className="rounded-md bg-zinc-100 px-2 py-0.5 text-sm font-medium dark:bg-zinc-800">
                        {tech}
                      </li>
                    ))}
                  </ul>
                </Section>
              ) : null}
              {listing.tags.length > 0 ? (
                <Section icon={<Tag className="h-4 w-4" aria-hidden />} title="Tags">
                  <ul className="flex flex-wrap gap-1.5" data-testid="listing-tags">
                    {listing.tags.map((tag) => (
                      <li key={tag.tagName} className="rounded-full border border-zinc-200 px-2.5 py-0.5 text-sm text-zinc-600 dark:border-zinc-700 dark:text-zinc-300">
                        #{tag.tagName}
                      </li>
                    ))}
                  </ul>
                </Section>
              ) : null}
            </Card>
          ) : null}

          {listing.promptOriginal || listing.promptEnhancedSnapshot ? (
            <Card className="flex flex-col gap-4 p-5" data-testid="listing-prompts">
              <h2 className="flex items-center gap-2 font-semibold">
                <MessageSquareText className="h-4 w-4 text-brand" aria-hidden />
                Prompts used
              </h2>
              {listing.promptOriginal ? <PromptBlock label="Original prompt" text={listing.promptOriginal} testId="prompt-original" /> : null}
              {listing.promptEnhancedSnapshot ? (
                <PromptBlock label="Enhanced prompt" icon={<Sparkles className="h-3.5 w-3.5" aria-hidden />} text={listing.promptEnhancedSnapshot} testId="prompt-enhanced" />
              ) : null}
            </Card>
          ) : listing.promptsWithPurchase ? (
            <Card className="flex flex-col gap-2 p-5" data-testid="listing-prompts-locked">
              <h2 className="flex items-center gap-2 font-semibold">
                <MessageSquareText className="h-4 w-4 text-brand" aria-hidden />
                Prompts used
              </h2>
              <p className="text-sm text-zinc-600 dark:text-zinc-300">The original and enhanced prompts come with the purchase: buy this project to read them.</p>
            </Card>
          ) : null}
        </div>

        <aside className="flex flex-col gap-4 lg:sticky lg:top-20">
          <ListingPurchaseCard listing={listing} signedIn={signedIn} checkout={checkout} onEdit={() => setEditing(true)} onDelete={() => setDeleting(true)} />
          {listing.demoUrl || listing.repoUrl ? (
            <Card className="flex flex-col gap-2 p-5" data-testid="listing-links">
              <h2 className="text-sm font-semibold">Links</h2>
              {listing.demoUrl ? <ExternalAnchor href={listing.demoUrl} icon={<ExternalLink className="h-4 w-4" aria-hidden />} label="Live demo" testId="listing-demo" /> : null}
              {listing.repoUrl ? <ExternalAnchor href={listing.repoUrl} icon={<GitBranch className="h-4 w-4" aria-hidden />} label="Repository" testId="listing-repo" /> : null}
            </Card>
          ) : null}
        </aside>
      </div>

      <ListInShowcaseDialog target={editing ? { kind: 'edit', listing } : null} onClose={() => setEditing(false)} />
      <ConfirmDialog
        open={deleting}
        onOpenChange={(open) => (open ? undefined : setDeleting(false))}
        title="Delete this listing?"
        description={`"${listing.title}" leaves the Showcase. Copies people already have stay theirs.`}
        pending={remove.isPending}
        onConfirm={() => void confirmDelete()}
        testId="delete-listing-dialog"
      />
    </div>
  );
}

function BackLink() {
  return (
    <Link
      to="/showcase"
      className="inline-flex w-fit items-center gap-1.5 text-sm font-medium text-zinc-600 hover:text-zinc-900 dark:text-zinc-400 dark:hover:text-white"
      data-testid="back-to-showcase"
    >
      <ArrowLeft className="h-4 w-4" aria-hidden />
      Back to Showcase
    </Link>
  );
}

function Section({ icon, title, children }: { icon: ReactNode; title: string; children: ReactNode }) {
  return (
    <section className="flex flex-col gap-2">
      <h2 className="flex items-center gap-2 text-sm font-semibold">
        <span className="text-brand">{icon}</span>
        {title}
      </h2>
      {children}
    </section>
  );
}

/** A prompt as plain text (never HTML), scrollable when long. */
function PromptBlock({ label, text, icon, testId }: { label: string; text: string; icon?: ReactNode; testId: string }) {
  return (
    <div className="flex flex-col gap-1.5">
      <span className="flex items-center gap-1.5 text-xs font-medium tracking-wide text-zinc-500 uppercase dark:text-zinc-400">
        {icon}
        {label}
      </span>
      <pre className="max-h-72 overflow-auto rounded-lg bg-zinc-50 p-3 font-sans text-sm leading-relaxed break-words whitespace-pre-wrap dark:bg-zinc-950" data-testid={testId}>
        {text}
      </pre>
    </div>
  );
}

/** External links open in a new tab without handing the listing page to the target. */
function ExternalAnchor({ href, icon, label, testId }: { href: string; icon: ReactNode; label: string; testId: string }) {
  return (
    <a href={href} target="_blank" rel="noopener noreferrer" className="flex items-center gap-2 truncate text-sm font-medium text-brand-strong hover:underline" data-testid={testId}>
      {icon}
      <span className="truncate">{label}</span>
    </a>
  );
}

/** Spec §2: a missing listing says so and links back to the Showcase. */
function ListingNotFound() {
  return (
    <NoticeCard icon={FileQuestion} heading="h1" title="Listing Not Found" testId="listing-not-found" link={{ to: '/showcase', label: 'Back to Showcase', icon: ArrowLeft, testId: 'not-found-back' }}>
      This listing could not be found or has been removed.
    </NoticeCard>
  );
}

function DetailSkeleton() {
  return (
    <div className="flex flex-col gap-6" role="status" aria-label="Loading listing">
      <Skeleton shade="strong" className="h-5 w-36 rounded" />
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]">
        <Card className="flex flex-col overflow-hidden">
          <Skeleton className="aspect-[16/7]" />
          <div className="flex flex-col gap-3 p-6">
            <Skeleton shade="strong" className="h-8 w-2/3 rounded" />
            <Skeleton shade="faint" className="h-4 w-full rounded" />
          </div>
        </Card>
        <Card className="h-44 animate-pulse" />
      </div>
    </div>
  );
}
