import type { CapsuleDetailReply } from '@wolfpack/core';
import { ArrowLeft, Eye, Home, Lock, MessageSquareText, Radio, SearchX, Share2, Sparkles, TriangleAlert } from 'lucide-react';
import { useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { isNotFound, useCapsule } from '../api/capsules';
import { Button } from '../components/button';
import { Card } from '../components/card';
import { CapsuleMetrics } from '../components/capsule-metrics';
import { CapsuleShareDialog } from '../components/capsule-share-dialog';
import { CapsuleTextBlock } from '../components/capsule-text-block';
import { CapsuleTimeline } from '../components/capsule-timeline';
import { CodeViewer } from '../components/code-viewer';
import { NoticeCard } from '../components/notice-card';
import { LoadingBlock } from '../components/sign-in-prompt';
import { formatCount } from '../lib/capsule-format';
import { formatDateTime } from '../lib/format-time';

/**
 * A PackCast capsule (/capsules/:slug, companion §2 Capsule view): public, no sign-in needed.
 * Missing and private capsules both read as not found, so a private slug reveals nothing.
 */
export function CapsulePage() {
  const { slug = '' } = useParams();
  const query = useCapsule(slug);

  if (query.isPending) {
    return (
      <div className="mx-auto flex max-w-5xl flex-col gap-6">
        <LoadingBlock rows={4} label="Loading the capsule" />
      </div>
    );
  }
  if (query.isError) {
    return isNotFound(query.error) ? <CapsuleNotFound /> : <CapsuleLoadError onRetry={() => void query.refetch()} />;
  }
  return <CapsuleView detail={query.data} />;
}

function CapsuleView({ detail }: { detail: CapsuleDetailReply }) {
  const { capsule, events, metrics, shareCount } = detail;
  const [sharing, setSharing] = useState(false);

  return (
    <div className="mx-auto flex max-w-5xl flex-col gap-6" data-testid="capsule-page">
      <header className="flex flex-col gap-3">
        <Link to="/discover" className="inline-flex items-center gap-1.5 self-start text-sm text-zinc-500 hover:text-zinc-900 dark:text-zinc-400 dark:hover:text-white">
          <ArrowLeft className="h-4 w-4" aria-hidden />
          Discover
        </Link>
        <div className="flex flex-wrap items-start justify-between gap-4">
          <div className="flex min-w-0 flex-1 flex-col gap-2">
            <p className="inline-flex items-center gap-1.5 text-xs font-semibold tracking-wide text-brand-strong uppercase">
              <Radio className="h-3.5 w-3.5" aria-hidden />
              PackCast capsule
            </p>
            <h1 className="text-3xl font-semibold tracking-tight break-words" data-testid="capsule-title">
              {capsule.title}
            </h1>
            {capsule.description ? (
              <p className="break-words whitespace-pre-wrap text-zinc-600 dark:text-zinc-400" data-testid="capsule-description">
                {capsule.description}
              </p>
            ) : null}
            <div className="flex flex-wrap items-center gap-x-4 gap-y-1 text-sm text-zinc-500 tabular-nums dark:text-zinc-400">
              <span className="inline-flex items-center gap-1.5">
                <Eye className="h-4 w-4" aria-hidden />
                <span data-testid="capsule-views">{formatCount(capsule.viewCount)}</span> {capsule.viewCount === 1 ? 'view' : 'views'}
              </span>
              <span className="inline-flex items-center gap-1.5">
                <Share2 className="h-4 w-4" aria-hidden />
                <span data-testid="capsule-shares">{formatCount(shareCount)}</span> {shareCount === 1 ? 'share' : 'shares'}
              </span>
              <span>{capsule.projectName}</span>
              <span>{formatDateTime(capsule.createdAt)}</span>
            </div>
          </div>
          <Button onClick={() => setSharing(true)} data-testid="capsule-share">
            <Share2 className="h-4 w-4" aria-hidden />
            Share
          </Button>
        </div>
        {!capsule.isPublic ? (
          <p className="flex items-center gap-2 rounded-lg border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:border-amber-500/30 dark:bg-amber-500/10 dark:text-amber-200" data-testid="capsule-private-note">
            <Lock className="h-4 w-4 shrink-0" aria-hidden />
            Only you can see this capsule. Publish it from{' '}
            <Link to="/my-capsules" className="font-medium underline">
              My Capsules
            </Link>{' '}
            so others can open it.
          </p>
        ) : null}
      </header>

      <section aria-label="Metrics">
        <CapsuleMetrics metrics={metrics ?? capsule.metrics ?? null} />
      </section>

      <section className="flex flex-col gap-3">
        <h2 className="text-lg font-semibold">Session timeline</h2>
        <CapsuleTimeline events={events} />
      </section>

      <div className="grid grid-cols-1 gap-4 lg:grid-cols-2">
        <CapsuleTextBlock title="Original prompt" icon={<MessageSquareText className="h-4 w-4" aria-hidden />} text={capsule.originalPrompt} empty="No prompt was recorded." testId="capsule-original-prompt" />
        <CapsuleTextBlock title="Enhanced prompt" icon={<Sparkles className="h-4 w-4" aria-hidden />} text={capsule.enhancedPrompt} empty="The prompt was used as written." testId="capsule-enhanced-prompt" />
      </div>

      <section className="flex flex-col gap-3" data-testid="capsule-final-code">
        <h2 className="text-lg font-semibold">Final code</h2>
        {capsule.finalCode ? (
          <CodeViewer path="Final code" content={capsule.finalCode} />
        ) : (
          <Card className="p-5 text-sm text-zinc-600 dark:text-zinc-400">No code was recorded for this session.</Card>
        )}
      </section>

      <CapsuleShareDialog capsule={capsule} open={sharing} onOpenChange={setSharing} />
    </div>
  );
}

/** Missing and private capsules look the same (companion §2, §6). */
function CapsuleNotFound() {
  return (
    <NoticeCard icon={SearchX} heading="h1" title="Capsule Not Found" testId="capsule-not-found" link={{ to: '/', label: 'Back to Home', icon: Home }}>
      This capsule doesn&apos;t exist or is private.
    </NoticeCard>
  );
}

function CapsuleLoadError({ onRetry }: { onRetry: () => void }) {
  return (
    <NoticeCard icon={TriangleAlert} tone="danger" heading="h1" title="This capsule could not be loaded" testId="capsule-error" actions={<Button onClick={onRetry}>Try again</Button>}>
      Something went wrong on the way. Check your connection and try again.
    </NoticeCard>
  );
}
