/**
 * Proven Code's verification record. The record itself arrives with the project
 * (GET /api/projects/{id} carries `verification`), so the project page needs no second read; the
 * re-check is the one write.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { verificationReply, type ProjectDetailReply, type VerificationRecord } from '@wolfpack/core';
import { apiRequest } from './client';
import { queryKeys } from './queries';

/**
 * POST /api/projects/{id}/verification: runs every check again on the project's current files
 * (static and sandboxed; no engine call, nothing charged; it can take up to ~30 s) and resolves
 * with the new record.
 */
export async function recheckProject(projectId: string): Promise<VerificationRecord | null> {
  const res = await apiRequest('POST', `/api/projects/${encodeURIComponent(projectId)}/verification`, {});
  return verificationReply.parse(await res.json()).verification;
}

/**
 * The Re-check action. The new record is written into the cached project at once (so the tab
 * shows it without waiting for a second read), then the project is read again, since its version
 * and the record's may have moved on meanwhile.
 */
export function useRecheckProject(projectId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => recheckProject(projectId),
    onSuccess: async (verification) => {
      client.setQueryData<ProjectDetailReply>(queryKeys.project(projectId), (detail) => (detail ? { ...detail, verification } : detail));
      await client.invalidateQueries({ queryKey: queryKeys.project(projectId), exact: true });
    },
  });
}
