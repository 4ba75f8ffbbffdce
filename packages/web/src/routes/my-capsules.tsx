import type { Capsule } from '@wolfpack/core';
import { Eye, EyeOff, Globe, Hammer, LogIn, Lock, Radio, RefreshCw, Settings, Share2, Sparkles, TriangleAlert, UserPlus, type LucideIcon } from 'lucide-react';
import { Link } from 'react-router-dom';
import { isUnauthorized, useMyCapsules, usePublishCapsule } from '../api/capsules';
import { Button, buttonClass } from '../components/button';
import { CapsuleCard, CapsuleCardSkeleton, capsulePath } from '../components/capsule-card';
import { useCapsuleShare } from '../components/capsule-share-dialog';
import { NoticeCard } from '../components/notice-card';
import { PageHeader } from '../components/section-card';
import { StatTile } from '../components/stat-tile';
import { toast } from '../hooks/use-toast';
import { capsuleTotals, formatCount } from '../lib/capsule-format';

/**
 * My Capsules (/my-capsules, companion §2, §6): the signed-in user's PackCast capsules with their
 * totals; each card shares, publishes or makes private, and opens the capsule.
 */
export function MyCapsulesPage() {
  const query = useMyCapsules();

  return (
    <div className="mx-auto flex max-w-6xl flex-col gap-6">
      <PageHeader
        icon={<Radio className="h-7 w-7" aria-hidden />}
        title="My Capsules"
        description="Your PackCast capsules: recordings of your generation sessions, their views and shares."
      />
      {query.isPending ? (
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3" role="status" aria-label="Loading your capsules">
          {Array.from({ length: 3 }, (_, i) => (
            <CapsuleCardSkeleton key={i} />
          ))}
        </div>
      ) : query.isError ? (
        isUnauthorized(query.error) ? (
          <AuthRequired />
        ) : (
          <LoadError onRetry={() => void query.refetch()} retrying={query.isFetching} />
        )
      ) : query.data.length === 0 ? (
        <EmptyState />
      ) : (
        <CapsuleList capsules={query.data} />
      )}
    </div>
  );
}

function CapsuleList({ capsules }: { capsules: Capsule[] }) {
  const totals = capsuleTotals(capsules);
  const { ready, copyLink } = useCapsuleShare(true);
  const publish = usePublishCapsule();

  function setVisibility(capsule: Capsule, isPublic: boolean) {
    publish.mutate(
      { id: capsule.id, isPublic },
      {
        onSuccess: () =>
          toast({
            title: 'Capsule visibility updated',
            description: isPublic ? `"${capsule.title}" is public: anyone with the link can open it.` : `"${capsule.title}" is private again.`,
          }),
        onError: () => toast({ title: 'Failed to update capsule', description: 'The visibility did not change. Please try again.', variant: 'destructive' }),
      },
    );
  }

  return (
    <>
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-5" data-testid="capsule-totals">
        <StatTile icon={<Radio className="h-4 w-4" aria-hidden />} label="Capsules" value={formatCount(totals.count)} testId="total-capsules" />
        <StatTile icon={<Eye className="h-4 w-4" aria-hidden />} label="Total views" value={formatCount(totals.views)} testId="total-views" />
        <StatTile icon={<Share2 className="h-4 w-4" aria-hidden />} label="Total shares" value={formatCount(totals.shares)} testId="total-shares" />
        <StatTile icon={<Globe className="h-4 w-4" aria-hidden />} label="Public" value={formatCount(totals.publicCount)} testId="total-public" />
        <StatTile icon={<Lock className="h-4 w-4" aria-hidden />} label="Private" value={formatCount(totals.privateCount)} testId="total-private" />
      </dl>
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3" data-testid="my-capsules-grid">
        {capsules.map((capsule) => {
          const busy = publish.isPending && publish.variables.id === capsule.id;
          return (
            <CapsuleCard
              key={capsule.id}
              capsule={capsule}
              showVisibility
              actions={
                <>
                  <Button variant="outline" size="sm" disabled={!ready} onClick={() => void copyLink(capsule)} data-testid="capsule-share-link">
                    <Share2 className="h-4 w-4" aria-hidden />
                    Share
                  </Button>
                  <Button
                    variant={capsule.isPublic ? 'outline' : 'primary'}
                    size="sm"
                    disabled={busy}
                    onClick={() => setVisibility(capsule, !capsule.isPublic)}
                    data-testid="capsule-toggle-visibility"
                  >
                    {capsule.isPublic ? <EyeOff className="h-4 w-4" aria-hidden /> : <Globe className="h-4 w-4" aria-hidden />}
                    {capsule.isPublic ? 'Make Private' : 'Publish'}
                  </Button>
                  <Link to={capsulePath(capsule.slug)} className={buttonClass('ghost', 'sm')} data-testid="capsule-view">
                    <Eye className="h-4 w-4" aria-hidden />
                    View
                  </Link>
                </>
              }
            />
          );
        })}
      </div>
    </>
  );
}

/** A notice's secondary link, styled as a small button. */
function SmallLink({ to, icon: Icon, label, variant, testId }: { to: string; icon: LucideIcon; label: string; variant: 'outline' | 'ghost'; testId?: string }) {
  return (
    <Link to={to} className={buttonClass(variant, 'sm')} data-testid={testId}>
      <Icon className="h-4 w-4" aria-hidden />
      {label}
    </Link>
  );
}

/** The spec's link to /njin, and the build that records a capsule (what the sentence asks for). */
function EmptyState() {
  const njin = <SmallLink to="/njin" icon={Sparkles} label="Go to Njin" variant="outline" testId="my-capsules-njin" />;
  return (
    <NoticeCard
      icon={Radio}
      tone="brand"
      title="No capsules yet"
      testId="my-capsules-empty"
      link={{ to: '/', label: 'Start a build', icon: Hammer, testId: 'my-capsules-start-build' }}
      actions={njin}
    >
      Every completed run records a capsule of its session, private until you publish it. Start a run to record your first one.
    </NoticeCard>
  );
}

/** The spec's words and its link to /settings, and the way to sign in that a visitor needs. */
function AuthRequired() {
  const more = (
    <>
      <SmallLink to="/register" icon={UserPlus} label="Sign Up" variant="outline" testId="my-capsules-sign-up" />
      <SmallLink to="/settings" icon={Settings} label="Go to Settings" variant="ghost" />
    </>
  );
  return (
    <NoticeCard
      icon={Lock}
      tone="warning"
      title="Authentication Required"
      testId="my-capsules-auth"
      link={{ to: '/login', label: 'Sign in', icon: LogIn, testId: 'my-capsules-sign-in' }}
      actions={more}
    >
      Please log in to view your PackCast capsules
    </NoticeCard>
  );
}

function LoadError({ onRetry, retrying }: { onRetry: () => void; retrying: boolean }) {
  const retry = (
    <Button variant="outline" size="sm" onClick={onRetry} disabled={retrying}>
      <RefreshCw className="h-4 w-4" aria-hidden />
      Try again
    </Button>
  );
  return (
    <NoticeCard icon={TriangleAlert} tone="danger" title="Error Loading Capsules" testId="my-capsules-error" actions={retry}>
      Your capsules could not be loaded. Please try again.
    </NoticeCard>
  );
}
