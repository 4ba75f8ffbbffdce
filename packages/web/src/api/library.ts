/**
 * Reads and writes of the project library: projects by folder, folders, deletion and moves, the
 * run history, publishing to GitHub and the GitHub token in Settings. Every reply is parsed with
 * its @wolfpack/core schema. Query keys double as URLs (the default query function joins them).
 */
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import {
  conversationsReply,
  folderReply,
  foldersReply,
  githubSettingsReply,
  projectsReply,
  publishReply,
  type Conversation,
  type Folder,
  type GithubSettingsReply,
  type ProjectSummary,
  type PublishReply,
  type PublishRequest,
} from '@wolfpack/core';
import { apiRequest, getQueryFn } from './client';
import { queryKeys } from './queries';

/** The root of the folder tree in URLs (GET /api/folders/root/projects). */
export const ROOT_FOLDER = 'root';

export const libraryKeys = {
  /** Every key below starts with it, so one invalidation refreshes folders and their lists. */
  folders: ['/api/folders'] as const,
  folderProjects: (folderId: string | null) =>
    ['/api/folders', folderId === null ? ROOT_FOLDER : encodeURIComponent(folderId), 'projects'] as const,
  githubSettings: ['/api/settings/github'] as const,
};

const readJson = getQueryFn<unknown>({ on401: 'throw' });

export interface ReadOptions {
  /** @default true */
  enabled?: boolean;
}

/** GET /api/projects: every project of the user (the sidebar's counts). */
export function useAllProjects({ enabled = true }: ReadOptions = {}) {
  return useQuery<ProjectSummary[]>({
    queryKey: queryKeys.projects,
    enabled,
    queryFn: async (ctx) => projectsReply.parse(await readJson(ctx)).projects,
  });
}

/** GET /api/folders/{id|root}/projects: the projects directly in one folder (null: the root). */
export function useFolderProjects(folderId: string | null, enabled = true) {
  return useQuery<ProjectSummary[]>({
    queryKey: libraryKeys.folderProjects(folderId),
    enabled,
    queryFn: async (ctx) => projectsReply.parse(await readJson(ctx)).projects,
  });
}

/** GET /api/folders: the flat folder list. */
export function useFolders(enabled = true) {
  return useQuery<Folder[]>({
    queryKey: libraryKeys.folders,
    enabled,
    queryFn: async (ctx) => foldersReply.parse(await readJson(ctx)).folders,
  });
}

/** GET /api/conversations: the runs, newest first. */
export function useConversations({ enabled = true }: ReadOptions = {}) {
  return useQuery<Conversation[]>({
    queryKey: queryKeys.conversations,
    enabled,
    queryFn: async (ctx) => conversationsReply.parse(await readJson(ctx)).conversations,
  });
}

/** Refreshes every list a library change touches (spec core §7: projects, conversations, root). */
export function invalidateLibrary(client: QueryClient): Promise<void> {
  return Promise.all([
    client.invalidateQueries({ queryKey: queryKeys.projects }),
    client.invalidateQueries({ queryKey: libraryKeys.folders }),
    client.invalidateQueries({ queryKey: queryKeys.conversations }),
  ]).then(() => undefined);
}

function useLibraryMutation<V, R>(mutationFn: (variables: V) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({ mutationFn, onSuccess: () => invalidateLibrary(client) });
}

const folderUrl = (id: string) => `/api/folders/${encodeURIComponent(id)}`;
const projectUrl = (id: string) => `/api/projects/${encodeURIComponent(id)}`;

/** POST /api/folders {name, parentFolderId}. */
export function useCreateFolder() {
  return useLibraryMutation(async (body: { name: string; parentFolderId: string | null }) => {
    const res = await apiRequest('POST', '/api/folders', body);
    return folderReply.parse(await res.json()).folder;
  });
}

/** PUT /api/folders/{id} {name}. */
export function useRenameFolder() {
  return useLibraryMutation(async ({ id, name }: { id: string; name: string }) => {
    const res = await apiRequest('PUT', folderUrl(id), { name });
    return folderReply.parse(await res.json()).folder;
  });
}

/** DELETE /api/folders/{id}: its projects and subfolders move to the root. */
export function useDeleteFolder() {
  return useLibraryMutation(async (id: string) => {
    await apiRequest('DELETE', folderUrl(id));
  });
}

/** DELETE /api/projects/{id}. */
export function useDeleteProject() {
  return useLibraryMutation(async (id: string) => {
    await apiRequest('DELETE', projectUrl(id));
  });
}

/** PUT /api/projects/{id}/folder {folderId}: null moves it to the root. */
export function useMoveProject() {
  return useLibraryMutation(async ({ id, folderId }: { id: string; folderId: string | null }) => {
    await apiRequest('PUT', `${projectUrl(id)}/folder`, { folderId });
  });
}

/** POST /api/projects/{id}/publish-to-github with the token saved in Settings. */
export function usePublishProject() {
  return useMutation({
    mutationFn: async ({ projectId, request }: { projectId: string; request: PublishRequest }): Promise<PublishReply> => {
      const res = await apiRequest('POST', `${projectUrl(projectId)}/publish-to-github`, request);
      return publishReply.parse(await res.json());
    },
  });
}

/** GET /api/settings/github: whether a token is saved, and its account. */
export function useGithubSettings(enabled = true) {
  return useQuery<GithubSettingsReply>({
    queryKey: libraryKeys.githubSettings,
    enabled,
    queryFn: async (ctx) => githubSettingsReply.parse(await readJson(ctx)),
  });
}

function useGithubMutation<V>(mutationFn: (variables: V) => Promise<GithubSettingsReply>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: (reply) => client.setQueryData(libraryKeys.githubSettings, reply),
  });
}

/** PUT /api/settings/github {token}: the server checks it with GitHub before saving it. */
export function useSaveGithubToken() {
  return useGithubMutation(async (token: string) => {
    const res = await apiRequest('PUT', '/api/settings/github', { token });
    return githubSettingsReply.parse(await res.json());
  });
}

/** DELETE /api/settings/github. */
export function useDisconnectGithub() {
  return useGithubMutation(async () => {
    await apiRequest('DELETE', '/api/settings/github');
    return { connected: false, login: null };
  });
}
