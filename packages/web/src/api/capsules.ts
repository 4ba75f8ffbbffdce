/**
 * Reads and writes of PackCast capsules (companion §7): the public capsule, the owner's list,
 * discovery, publish and share, and the referral code a share carries. Every reply is parsed with
 * its @wolfpack/core schema (isPublic arrives as "true"/"false", numbers may arrive as strings).
 */
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import {
  capsuleDetailReply,
  capsulesReply,
  countLike,
  subscriptionStatusReply,
  type Capsule,
  type CapsuleDetailReply,
  type PublishCapsuleRequest,
  type ShareCapsuleRequest,
} from '@wolfpack/core';
import { z } from 'zod';
import { apiRequest, getQueryFn, httpErrorParts } from './client';

/** Query keys double as URLs (the default query function joins them with '/'). */
export const capsuleKeys = {
  /** Every capsule key starts with it, so one invalidation refreshes lists and pages. */
  all: ['/api/capsules'] as const,
  detail: (slug: string) => ['/api/capsules', encodeURIComponent(slug)] as const,
  mine: ['/api/capsules', 'user', 'my-capsules'] as const,
  discover: (tab: DiscoverTab) => ['/api/capsules', 'discover', tab] as const,
  subscriptionStatus: ['/api/subscription/status'] as const,
};

export type DiscoverTab = 'trending' | 'latest';

const readJson = getQueryFn<unknown>({ on401: 'throw' });

/** True for the error of a missing or private capsule (the server answers 404). */
export function isNotFound(error: unknown): boolean {
  return httpErrorParts(error)?.status === 404;
}

/**
 * True when a request failed because nobody is signed in: a 401 answer, or any error whose
 * message says Unauthorized (companion §6).
 */
export function isUnauthorized(error: unknown): boolean {
  if (httpErrorParts(error)?.status === 401) return true;
  return error instanceof Error && /unauthori[sz]ed/i.test(error.message);
}

/**
 * GET /api/capsules/{slug}: a public capsule (or the owner's own private one). The server counts
 * a view for each fetch (once per viewer per day), and the data never goes stale, so opening the
 * page again in the same tab does not ask again.
 */
export function useCapsule(slug: string) {
  return useQuery<CapsuleDetailReply>({
    queryKey: capsuleKeys.detail(slug),
    queryFn: async (ctx) => capsuleDetailReply.parse(await readJson(ctx)),
  });
}

/** GET /api/capsules/user/my-capsules: the signed-in user's capsules, newest first. */
export function useMyCapsules(enabled = true) {
  return useQuery<Capsule[]>({
    queryKey: capsuleKeys.mine,
    enabled,
    queryFn: async (ctx) => capsulesReply.parse(await readJson(ctx)).capsules,
  });
}

/** GET /api/capsules/discover/trending or /latest: public capsules. */
export function useDiscoverCapsules(tab: DiscoverTab) {
  return useQuery<Capsule[]>({
    queryKey: capsuleKeys.discover(tab),
    queryFn: async (ctx) => capsulesReply.parse(await readJson(ctx)).capsules,
  });
}

/**
 * GET /api/subscription/status: the user's referral code for share links. Never fails: a failure
 * only logs a warning and the share goes on without a code (companion §8). Enable it only for a
 * signed-in user.
 */
export function useShareReferralCode(enabled: boolean) {
  const query = useQuery<string | null>({
    queryKey: capsuleKeys.subscriptionStatus,
    enabled,
    queryFn: async (ctx) => {
      try {
        return subscriptionStatusReply.parse(await readJson(ctx)).referralCode;
      } catch (error) {
        console.warn('Could not load your referral code; sharing without it.', error);
        return null;
      }
    },
  });
  return { ...query, referralCode: enabled ? (query.data ?? null) : null };
}

/** Refreshes every capsule read: the owner's list, discovery and open capsule pages. */
export function invalidateCapsules(client: QueryClient): Promise<void> {
  return client.invalidateQueries({ queryKey: capsuleKeys.all });
}

/** POST /api/capsules/{id}/publish {isPublic}: the owner makes a capsule public or private. */
export function usePublishCapsule() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, isPublic }: { id: string } & PublishCapsuleRequest) => {
      await apiRequest('POST', `/api/capsules/${encodeURIComponent(id)}/publish`, { isPublic });
    },
    onSuccess: () => invalidateCapsules(client),
  });
}

const shareReply = z.object({ shareCount: countLike });

/** What a share sends, plus the slug of the capsule page whose cached count it updates. */
export interface ShareInput extends ShareCapsuleRequest {
  id: string;
  slug: string;
}

/**
 * POST /api/capsules/{id}/share {shareMethod, referralCode?}: counts one share. The new count, when
 * the server sends it, goes straight into the cached capsule page; refetching that page would
 * count another view.
 */
export function useShareCapsule() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, shareMethod, referralCode }: ShareInput) => {
      const payload: ShareCapsuleRequest = referralCode ? { shareMethod, referralCode } : { shareMethod };
      const res = await apiRequest('POST', `/api/capsules/${encodeURIComponent(id)}/share`, payload);
      const parsed = shareReply.safeParse(await res.json().catch(() => null));
      return parsed.success ? parsed.data.shareCount : undefined;
    },
    onSuccess: (shareCount, { id, slug }) => {
      if (shareCount === undefined) return;
      client.setQueryData<CapsuleDetailReply>(capsuleKeys.detail(slug), (old) =>
        old ? { ...old, shareCount, capsule: { ...old.capsule, shareCount } } : old,
      );
      client.setQueryData<Capsule[]>(capsuleKeys.mine, (old) => old?.map((c) => (c.id === id ? { ...c, shareCount } : c)));
    },
  });
}
