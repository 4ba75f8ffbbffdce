/**
 * The preview of a project: what it shows and its signed link (GET /api/projects/{id}/preview),
 * and revoking its links. The preview itself opens at /preview/{id}, which sends the signed-in
 * owner on to the project's own origin.
 */
import { previewLinkReply, type PreviewLinkReply } from '@wolfpack/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest, getQueryFn } from './client';
import { queryKeys } from './queries';

const readJson = getQueryFn<unknown>({ on401: 'throw' });

const previewKey = (id: string) => [...queryKeys.project(id), 'preview'] as const;

/** What the project's preview shows (its kind, a server's routes); its link is not used from here. */
export function useProjectPreview(id: string) {
  return useQuery<PreviewLinkReply>({
    queryKey: previewKey(id),
    queryFn: async (ctx) => previewLinkReply.parse(await readJson(ctx)),
  });
}

/** The page that sends the owner into the preview, at `path` on the preview's origin; of an earlier `version` when given. */
export function previewHref(id: string, path = '/', version?: number): string {
  const base = `/preview/${encodeURIComponent(id)}`;
  const query = new URLSearchParams();
  if (path !== '/') query.set('path', path);
  if (version !== undefined) query.set('version', String(version));
  return query.size === 0 ? base : `${base}?${query}`;
}

/** POST /api/projects/{id}/preview/revoke: every link and preview cookie of the project ends at once. */
export function useRevokePreviewLinks(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      await apiRequest('POST', `/api/projects/${encodeURIComponent(id)}/preview/revoke`, {});
    },
    onSuccess: () => client.invalidateQueries({ queryKey: previewKey(id) }),
  });
}
