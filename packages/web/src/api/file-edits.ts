/**
 * Edits of a project's files in the browser: PUT /api/projects/{id}/files/*path writes (or makes,
 * or moves) one file, DELETE removes one. Each makes a new version of the project, "Edited by
 * you"; `expectedVersion` is the version the edit was made on, so a change made meanwhile (another
 * tab, a run) is a 409 with a sentence instead of a silently lost write.
 */
import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { versionChangeReply, type FileEditRequestInput, type ProjectDetailReply, type VersionChangeReply } from '@wolfpack/core';
import { apiRequest, httpErrorParts } from './client';
import { queryKeys } from './queries';
import { recheckProject } from './verification';

/**
 * The URL of one file. The path is encoded as a whole (slashes too; the server decodes it once), so
 * the browser never resolves a `..` in what the user typed before the server can say what is wrong
 * with it.
 */
export function fileUrl(projectId: string, path: string): string {
  return `/api/projects/${encodeURIComponent(projectId)}/files/${encodeURIComponent(path)}`;
}

/** PUT: writes `content` at `path` (renameFrom: moves that file there) as a new version. */
export async function putFile(projectId: string, path: string, body: FileEditRequestInput): Promise<VersionChangeReply> {
  const res = await apiRequest('PUT', fileUrl(projectId, path), body);
  return versionChangeReply.parse(await res.json());
}

/** DELETE: removes `path` as a new version. */
export async function deleteFile(projectId: string, path: string, expectedVersion: number): Promise<VersionChangeReply> {
  const res = await apiRequest('DELETE', `${fileUrl(projectId, path)}?expectedVersion=${expectedVersion}`);
  return versionChangeReply.parse(await res.json());
}

/** The project moved on since the edit's version (409): the caller offers a reload. */
export function isStaleEdit(error: unknown): boolean {
  return httpErrorParts(error)?.status === 409;
}

/** One change of the Files tab. */
export type FileChange =
  | { kind: 'save'; path: string; content: string; expectedVersion: number }
  | { kind: 'create'; path: string; expectedVersion: number }
  | { kind: 'rename'; from: string; path: string; content: string; expectedVersion: number }
  | { kind: 'delete'; path: string; expectedVersion: number };

function sendChange(projectId: string, change: FileChange): Promise<VersionChangeReply> {
  switch (change.kind) {
    case 'save':
      return putFile(projectId, change.path, { content: change.content, expectedVersion: change.expectedVersion });
    case 'create':
      return putFile(projectId, change.path, { content: '', expectedVersion: change.expectedVersion });
    case 'rename':
      return putFile(projectId, change.path, { content: change.content, expectedVersion: change.expectedVersion, renameFrom: change.from });
    case 'delete':
      return deleteFile(projectId, change.path, change.expectedVersion);
  }
}

/**
 * After a new version: the project (files, version, and the preview's details under its key) is
 * read again, and Proven Code checks the new files unless the version came with a record (files
 * equal to a version already checked). The re-check calls no engine and costs nothing.
 */
async function afterNewVersion(client: QueryClient, projectId: string, reply: VersionChangeReply): Promise<void> {
  const key = queryKeys.project(projectId);
  await client.invalidateQueries({ queryKey: key });
  if (reply.verification !== null) return;
  const verification = await recheckProject(projectId);
  client.setQueryData<ProjectDetailReply>(key, (detail) =>
    // Another version may be current by now: a record of another version is not its to show.
    detail && verification && detail.version === verification.version ? { ...detail, verification } : detail,
  );
}

/** What the Files tab shows of the Proven Code check that follows a change. */
export interface RecheckState {
  version: number;
  status: 'checking' | 'failed';
}

/**
 * Sends one change. The reply comes back as soon as the version exists; reading the project again
 * and the Proven Code re-check follow in the background (`onRecheck` reports them), since a
 * re-check can take half a minute and the editor should not wait for it.
 */
export function useFileChange(projectId: string, onRecheck: (state: RecheckState | null) => void) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (change: FileChange) => sendChange(projectId, change),
    onSuccess: (reply) => {
      const version = reply.version.number;
      onRecheck(reply.verification === null ? { version, status: 'checking' } : null);
      afterNewVersion(client, projectId, reply).then(
        () => onRecheck(null),
        () => onRecheck({ version, status: 'failed' }),
      );
    },
  });
}
