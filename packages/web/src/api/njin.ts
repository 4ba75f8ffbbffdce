/**
 * Reads and writes of the njin iteration-engine page (companion §2 /njin, §7 njin calls): the
 * caller's licence, key validation and the snippet (no login needed), the user's API keys, and
 * the $29/month subscription. Every reply is parsed with its @wolfpack/core schema.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  checkoutReply,
  njinKeyCreatedReply,
  njinKeysReply,
  njinLicense,
  njinSnippetReply,
  njinValidateReply,
  type NjinKeySummary,
  type NjinSnippetReply,
  type NjinValidateReply,
} from '@wolfpack/core';
import { z } from 'zod';
import { njinLicenseUrl, njinSnippetUrl } from '../lib/njin-format';
import { apiRequest } from './client';

export const njinKeys = {
  /** Every njin read starts with it, so one invalidation refreshes licence and keys. */
  all: ['/api/njin'] as const,
  license: (userId: string) => ['/api/njin', 'license', userId] as const,
  keys: ['/api/njin', 'keys'] as const,
};

const licenseReply = z.object({ license: njinLicense.nullable() });
export type PageLicense = NonNullable<z.infer<typeof licenseReply>['license']>;

/**
 * GET /api/njin/license?userId=: the signed-in user's licence, or null without one. The spec's
 * client sends a fixed id; this one sends the user's own (the server answers the caller's anyway).
 */
export function useNjinLicense(userId: string | null, refetchInterval: number | false = false) {
  return useQuery<PageLicense | null>({
    queryKey: njinKeys.license(userId ?? ''),
    enabled: userId !== null,
    refetchInterval,
    queryFn: async () => {
      const res = await apiRequest('GET', njinLicenseUrl(userId ?? ''));
      return licenseReply.parse(await res.json()).license;
    },
  });
}

/** POST /api/njin/validate {apiKey}: whether the key belongs to an active licence. */
export function useValidateNjinKey() {
  return useMutation({
    mutationFn: async (apiKey: string): Promise<NjinValidateReply> => {
      const res = await apiRequest('POST', '/api/njin/validate', { apiKey });
      return njinValidateReply.parse(await res.json());
    },
  });
}

/** GET /api/njin/snippet?apiKey=: ready-to-paste code with the key filled in. */
export function useNjinSnippet() {
  return useMutation({
    mutationFn: async (apiKey: string): Promise<NjinSnippetReply> => {
      const res = await apiRequest('GET', njinSnippetUrl(apiKey));
      return njinSnippetReply.parse(await res.json());
    },
  });
}

/** GET /api/njin/keys: the user's keys by prefix, with their usage. */
export function useNjinApiKeys(enabled: boolean) {
  return useQuery<NjinKeySummary[]>({
    queryKey: njinKeys.keys,
    enabled,
    queryFn: async () => {
      const res = await apiRequest('GET', '/api/njin/keys');
      return njinKeysReply.parse(await res.json()).keys;
    },
  });
}

/** POST /api/njin/keys: a new key, whole, in this reply only. */
export function useCreateNjinKey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      const res = await apiRequest('POST', '/api/njin/keys');
      return njinKeyCreatedReply.parse(await res.json());
    },
    // The licence shows the newest key's masked prefix.
    onSuccess: () => client.invalidateQueries({ queryKey: njinKeys.all }),
  });
}

/** DELETE /api/njin/keys/{id}: the key stops working at once. */
export function useRevokeNjinKey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => {
      await apiRequest('DELETE', `/api/njin/keys/${encodeURIComponent(id)}`);
    },
    onSuccess: () => client.invalidateQueries({ queryKey: njinKeys.all }),
  });
}

/** POST /api/njin/subscribe: a Stripe Checkout page for the $29/month licence. */
export function useNjinSubscribe() {
  return useMutation({
    mutationFn: async () => {
      const res = await apiRequest('POST', '/api/njin/subscribe');
      return checkoutReply.parse(await res.json()).checkoutUrl;
    },
  });
}

/** POST /api/njin/cancel: the subscription ends at the period end; the licence stays until then. */
export function useCancelNjin() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      const res = await apiRequest('POST', '/api/njin/cancel');
      return licenseReply.parse(await res.json()).license;
    },
    onSuccess: () => client.invalidateQueries({ queryKey: njinKeys.all }),
  });
}
