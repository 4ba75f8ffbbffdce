import type { Capsule } from '@wolfpack/core';
import { Check, Link2, Share2 } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useShareCapsule, useShareReferralCode } from '../api/capsules';
import { useMe } from '../api/queries';
import { toast } from '../hooks/use-toast';
import { capsuleShareText, capsuleShareUrl, linkedInShareUrl, twitterShareUrl } from '../lib/capsule-format';
import { copyText } from '../lib/clipboard';
import { cn } from '../lib/cn';
import { Button } from './button';
import { COPIED_INDICATOR_MS } from './copy-button';
import { Modal } from './modal';

// Brand marks (Simple Icons, CC0): lucide no longer ships brand icons.
const X_PATH =
  'M18.244 2.25h3.308l-7.227 8.26 8.502 11.24H16.17l-5.214-6.817L4.99 21.75H1.68l7.73-8.835L1.254 2.25H8.08l4.713 6.231zm-1.161 17.52h1.833L7.084 4.126H5.117z';
const LINKEDIN_PATH =
  'M20.447 20.452h-3.554v-5.569c0-1.328-.027-3.037-1.852-3.037-1.853 0-2.136 1.445-2.136 2.939v5.667H9.351V9h3.414v1.561h.046c.477-.9 1.637-1.85 3.37-1.85 3.601 0 4.267 2.37 4.267 5.455v6.286zM5.337 7.433a2.062 2.062 0 1 1 0-4.125 2.062 2.062 0 0 1 0 4.125zm1.782 13.019H3.555V9h3.564v11.452zM22.225 0H1.771C.792 0 0 .774 0 1.729v20.542C0 23.227.792 24 1.771 24h20.451C23.2 24 24 23.227 24 22.271V1.729C24 .774 23.2 0 22.222 0h.003z';

function BrandGlyph({ path }: { path: string }) {
  return (
    <svg viewBox="0 0 24 24" className="h-4 w-4" fill="currentColor" aria-hidden>
      <path d={path} />
    </svg>
  );
}

type Shareable = Pick<Capsule, 'id' | 'slug' | 'title' | 'isPublic'>;

/**
 * Sharing a capsule: the link (with `?ref={code}` for a signed-in user, whose code comes from GET
 * /api/subscription/status), Twitter and LinkedIn share pages, copying the link, and a POST
 * /api/capsules/{id}/share for each share. `active` starts loading the code ahead of the click,
 * because the clipboard only accepts text while the click's user activation lasts.
 */
export function useCapsuleShare(active: boolean) {
  const { user, isPending: mePending } = useMe();
  const signedIn = user !== null;
  const code = useShareReferralCode(active && signedIn);
  const ready = !mePending && (!signedIn || !code.isPending);
  const share = useShareCapsule();

  function linkFor(capsule: Shareable): string {
    return capsuleShareUrl(window.location.origin, capsule.slug, code.referralCode);
  }

  function record(capsule: Shareable, shareMethod: 'twitter' | 'linkedin' | 'copy') {
    share.mutate(
      { id: capsule.id, slug: capsule.slug, shareMethod, ...(code.referralCode ? { referralCode: code.referralCode } : {}) },
      // Counting is bookkeeping: the person has shared already, so a failure is only logged.
      { onError: (error) => console.warn('The share could not be counted.', error) },
    );
  }

  /** Copies the link; true when it is on the clipboard. Toasts either way. */
  async function copyLink(capsule: Shareable): Promise<boolean> {
    try {
      await copyText(linkFor(capsule));
    } catch {
      toast({ title: 'Failed to copy link', description: 'The browser did not allow copying. Open the capsule and copy the address by hand.', variant: 'destructive' });
      return false;
    }
    record(capsule, 'copy');
    toast({
      title: 'Copied!',
      description: capsule.isPublic ? 'The capsule link is on your clipboard.' : 'The link is on your clipboard. This capsule is private: publish it so others can open the link.',
    });
    return true;
  }

  /** Opens Twitter's or LinkedIn's share page in a new tab (synchronously, so no popup blocker). */
  function openNetwork(capsule: Shareable, network: 'twitter' | 'linkedin') {
    const link = linkFor(capsule);
    const url = network === 'twitter' ? twitterShareUrl(capsuleShareText(capsule), link) : linkedInShareUrl(link);
    window.open(url, '_blank', 'noopener,noreferrer');
    record(capsule, network);
  }

  return { ready, linkFor, copyLink, openNetwork };
}

export interface CapsuleShareDialogProps {
  capsule: Shareable;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/** The Share dialog of a capsule page: Twitter, LinkedIn and Copy Link (companion §2). */
export function CapsuleShareDialog({ capsule, open, onOpenChange }: CapsuleShareDialogProps) {
  const { ready, linkFor, copyLink, openNetwork } = useCapsuleShare(open);
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  async function onCopy() {
    if (!(await copyLink(capsule))) return;
    setCopied(true);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setCopied(false), COPIED_INDICATOR_MS);
  }

  const link = linkFor(capsule);
  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title="Share this capsule"
      description="Share the recorded session. Friends who sign up through your link earn you credits."
      icon={<Share2 className="h-5 w-5" aria-hidden />}
      testId="capsule-share-dialog"
    >
      <div className="mt-5 flex flex-col gap-4">
        <label className="flex flex-col gap-1.5 text-sm font-medium">
          Link
          <input
            readOnly
            value={ready ? link : 'Preparing your link…'}
            onFocus={(event) => event.currentTarget.select()}
            className="h-10 rounded-lg border border-zinc-200 bg-zinc-50 px-3 font-mono text-xs text-zinc-700 dark:border-zinc-800 dark:bg-zinc-950 dark:text-zinc-300"
            data-testid="capsule-share-link"
          />
        </label>
        <div className="grid grid-cols-1 gap-2 sm:grid-cols-3">
          <Button variant="outline" disabled={!ready} onClick={() => openNetwork(capsule, 'twitter')} data-testid="share-twitter">
            <BrandGlyph path={X_PATH} />
            Twitter
          </Button>
          <Button variant="outline" disabled={!ready} onClick={() => openNetwork(capsule, 'linkedin')} data-testid="share-linkedin">
            <BrandGlyph path={LINKEDIN_PATH} />
            LinkedIn
          </Button>
          <Button
            disabled={!ready}
            onClick={() => void onCopy()}
            data-testid="share-copy"
            data-state={copied ? 'copied' : 'idle'}
            className={cn(copied && 'bg-emerald-600 hover:bg-emerald-600')}
          >
            {copied ? <Check className="h-4 w-4" aria-hidden /> : <Link2 className="h-4 w-4" aria-hidden />}
            <span aria-live="polite">{copied ? 'Copied!' : 'Copy Link'}</span>
          </Button>
        </div>
      </div>
    </Modal>
  );
}
