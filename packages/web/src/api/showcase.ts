/**
 * Reads and writes of the Showcase (companion §7 listing calls): the marketplace pages, one
 * listing, the draft of a new one, listing / editing / removing, and purchases. Every reply is
 * parsed with its @wolfpack/core schema.
 */
import { keepPreviousData, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import {
  listingDraftReply,
  listingReply,
  listingsReply,
  purchaseReply,
  type Listing,
  type ListingDraftReply,
  type PurchaseReply,
} from '@wolfpack/core';
import { listingsSearchParams, type ListingsParams } from '../lib/showcase-query';
import type { ListingBody } from '../lib/showcase-listing-form';
import { apiRequest, throwIfResNotOk } from './client';
import { libraryKeys } from './library';
import { queryKeys } from './queries';

export const listingKeys = {
  /** Every listing read starts with it, so one invalidation refreshes pages and details. */
  all: ['/api/listings'] as const,
  page: (params: ListingsParams) => ['/api/listings', 'page', listingsSearchParams(params).toString()] as const,
  /** The reply depends on who asks (isOwner, purchasedProjectId), so the viewer is in the key. */
  detail: (id: string, viewerId: string | null) => ['/api/listings', 'detail', id, viewerId ?? 'visitor'] as const,
  draft: (projectId: string) => ['/api/listings/draft', projectId] as const,
};

const listingUrl = (id: string) => `/api/listings/${encodeURIComponent(id)}`;

/**
 * GET /api/listings: one page of the marketplace. The previous page stays on screen while the
 * next one loads (typing in the search box would otherwise flash the skeleton on every key).
 */
export function useListings(params: ListingsParams) {
  return useQuery<Listing[]>({
    queryKey: listingKeys.page(params),
    placeholderData: keepPreviousData,
    queryFn: async ({ signal }) => {
      const res = await fetch(`/api/listings?${listingsSearchParams(params).toString()}`, { credentials: 'include', signal });
      await throwIfResNotOk(res);
      return listingsReply.parse(await res.json()).listings;
    },
  });
}

/** GET /api/listings/{id} as one viewer sees it; 404 when missing or removed. */
export async function fetchListing(id: string): Promise<Listing> {
  const res = await apiRequest('GET', listingUrl(id));
  return listingReply.parse(await res.json()).listing;
}

export interface ListingReadOptions {
  /** Wait until the viewer is known. @default true */
  enabled?: boolean;
  /** Re-read every this many ms (after Checkout, until the copy shows), or false. */
  refetchInterval?: number | false;
}

/** One listing for the detail page. */
export function useListing(id: string, viewerId: string | null, { enabled = true, refetchInterval = false }: ListingReadOptions = {}) {
  return useQuery<Listing>({
    queryKey: listingKeys.detail(id, viewerId),
    enabled,
    refetchInterval,
    queryFn: () => fetchListing(id),
  });
}

/** GET /api/listings/draft?projectId=: title, summary and tech stack the form starts from. */
export function useListingDraft(projectId: string, enabled: boolean) {
  return useQuery<ListingDraftReply['draft']>({
    queryKey: listingKeys.draft(projectId),
    enabled,
    // A draft reflects the project's files right now; reopening the dialog should read it again.
    staleTime: 0,
    gcTime: 0,
    queryFn: async () => {
      const res = await apiRequest('GET', `/api/listings/draft?projectId=${encodeURIComponent(projectId)}`);
      return listingDraftReply.parse(await res.json()).draft;
    },
  });
}

function invalidateListings(client: QueryClient): Promise<void> {
  return client.invalidateQueries({ queryKey: listingKeys.all });
}

/** POST /api/listings: lists a project (its files are snapshotted now). */
export function useCreateListing() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ projectId, body }: { projectId: string; body: ListingBody }) => {
      const res = await apiRequest('POST', '/api/listings', { projectId, ...body });
      return listingReply.parse(await res.json()).listing;
    },
    onSuccess: () => invalidateListings(client),
  });
}

/** PUT /api/listings/{id} (owner). */
export function useUpdateListing() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, body }: { id: string; body: Partial<ListingBody> }) => {
      const res = await apiRequest('PUT', listingUrl(id), body);
      return listingReply.parse(await res.json()).listing;
    },
    onSuccess: () => invalidateListings(client),
  });
}

/** DELETE /api/listings/{id} (owner). */
export function useDeleteListing() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiRequest('DELETE', listingUrl(id)).then(() => undefined),
    onSuccess: () => invalidateListings(client),
  });
}

/**
 * POST /api/listings/{id}/purchase: {projectId} of the buyer's copy (free), {checkoutUrl}
 * (commercial), or {error}. A new copy refreshes the project lists and the listing.
 */
export function usePurchaseListing() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (id: string): Promise<PurchaseReply> => {
      const res = await apiRequest('POST', `${listingUrl(id)}/purchase`);
      return purchaseReply.parse(await res.json());
    },
    onSuccess: (reply) => {
      if (!('projectId' in reply)) return;
      void invalidateListings(client);
      void client.invalidateQueries({ queryKey: queryKeys.projects });
      void client.invalidateQueries({ queryKey: libraryKeys.folders });
    },
  });
}
