/**
 * Edits of a project's files in the browser: PUT /api/projects/{id}/files/*path writes (or makes,
 * or moves) one file, DELETE removes one. Each makes a new version of the project, "Edited by
 * you"; `expectedVersion` is the version the edit was made on, so a change made meanwhile (another
 * tab, a run) is a 409 with a sentence instead of a silently lost write.
 */
import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useRef } from 'react';
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

/** Proven Code's record of the project's current files, put into the cached project if it is still current. */
async function recheckCurrent(client: QueryClient, projectId: string): Promise<void> {
  const verification = await recheckProject(projectId);
  client.setQueryData<ProjectDetailReply>(queryKeys.project(projectId), (detail) =>
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
 * Sends one change. The reply comes back as soon as the version exists; the project is then read
 * again (files, version, and the preview's details under its key) and Proven Code checks the new
 * files, unless the version came with a record (files equal to a version already checked). The
 * check calls no engine and costs nothing, but takes up to half a minute and the server runs one
 * per project at a time: saves made meanwhile are checked together once it ends, as the version
 * current then. `onRecheck` reports it.
 */
export function useFileChange(projectId: string, onRecheck: (state: RecheckState | null) => void) {
  const client = useQueryClient();
  const checks = useRef({ running: false, wanted: 0 });
  const report = useRef(onRecheck);
  report.current = onRecheck;

  async function checkUntilCurrent() {
    const state = checks.current;
    if (state.running) return;
    state.running = true;
    try {
      let checked = 0;
      while (checked < state.wanted) {
        const version = state.wanted;
        report.current({ version, status: 'checking' });
        try {
          await recheckCurrent(client, projectId);
        } catch {
          if (state.wanted === version) {
            report.current({ version, status: 'failed' });
            return;
          }
        }
        checked = version;
      }
      report.current(null);
    } finally {
      state.running = false;
    }
  }

  return useMutation({
    mutationFn: (change: FileChange) => sendChange(projectId, change),
    onSuccess: (reply) => {
      void client.invalidateQueries({ queryKey: queryKeys.project(projectId) });
      if (reply.verification !== null) return;
      checks.current.wanted = Math.max(checks.current.wanted, reply.version.number);
      report.current({ version: checks.current.wanted, status: 'checking' });
      void checkUntilCurrent();
    },
  });
}
