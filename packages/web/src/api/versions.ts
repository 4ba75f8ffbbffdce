/**
 * A project's versions: the list (GET /api/projects/{id}/versions), what changed between two of
 * them (…/versions/{n}/diff?against=m) and restoring one (POST …/versions/{n}/restore), which
 * makes a new version with that one's files.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { versionChangeReply, versionDiffReply, versionsReply, type VersionChangeReply, type VersionDiffReply, type VersionsReply } from '@wolfpack/core';
import { apiRequest, getQueryFn } from './client';
import { queryKeys } from './queries';

const readJson = getQueryFn<unknown>({ on401: 'throw' });

/** Under the project's key, so refreshing the project refreshes its versions too. */
export const versionKeys = {
  list: (projectId: string) => [...queryKeys.project(projectId), 'versions'] as const,
  /** `against` undefined: the version before `n`, as the server picks it. */
  diff: (projectId: string, n: number, against?: number) =>
    [...queryKeys.project(projectId), 'versions', against === undefined ? `${n}/diff` : `${n}/diff?against=${against}`] as const,
};

/** GET /api/projects/{id}/versions: every version, newest first, and which one is current. */
export function useVersions(projectId: string) {
  return useQuery<VersionsReply>({
    queryKey: versionKeys.list(projectId),
    queryFn: async (ctx) => versionsReply.parse(await readJson(ctx)),
  });
}

/**
 * GET /api/projects/{id}/versions/{n}/diff: what changed from `against` (its parent when
 * undefined) to version `n`, file by file with both texts. Disabled while `n` is null.
 */
export function useVersionDiff(projectId: string, n: number | null, against?: number) {
  return useQuery<VersionDiffReply>({
    queryKey: versionKeys.diff(projectId, n ?? 0, against),
    enabled: n !== null,
    queryFn: async (ctx) => versionDiffReply.parse(await readJson(ctx)),
  });
}

/** POST /api/projects/{id}/versions/{n}/restore: a 409 when the project is no longer at `expectedVersion`. */
export async function restoreVersion(projectId: string, n: number, expectedVersion: number | undefined): Promise<VersionChangeReply> {
  const res = await apiRequest(
    'POST',
    `/api/projects/${encodeURIComponent(projectId)}/versions/${n}/restore`,
    expectedVersion === undefined ? {} : { expectedVersion },
  );
  return versionChangeReply.parse(await res.json());
}

/**
 * The Restore action. After a success the project and its versions are read again, so the Files
 * tab shows the restored files and the list the new version.
 */
export function useRestoreVersion(projectId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ n, expectedVersion }: { n: number; expectedVersion: number | undefined }) => restoreVersion(projectId, n, expectedVersion),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.project(projectId) }),
  });
}
