/**
 * Reads and writes of the project library: the paged project list (by folder, sort and search),
 * folders, deletion and moves, the run history, publishing to GitHub and the GitHub token in
 * Settings. Every reply is parsed with its @wolfpack/core schema. Query keys double as URLs (the
 * default query function joins them), except the project list's, whose URLs carry a query string.
 */
import { useInfiniteQuery, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import {
  conversationsReply,
  folderReply,
  foldersReply,
  githubSettingsReply,
  projectsPageReply,
  publishReply,
  type Conversation,
  type Folder,
  type GithubSettingsReply,
  type ProjectsPageReply,
  type PublishReply,
  type PublishRequest,
} from '@wolfpack/core';
import { folderCountMap, PROJECT_LIST_STALE_MS, projectsPageUrl, type ProjectListFilter, type ProjectPageRequest } from '../lib/project-list';
import { apiRequest, getQueryFn, throwIfResNotOk } from './client';
import { queryKeys } from './queries';

export const libraryKeys = {
  folders: ['/api/folders'] as const,
  githubSettings: ['/api/settings/github'] as const,
};

const readJson = getQueryFn<unknown>({ on401: 'throw' });

export interface ReadOptions {
  /** @default true */
  enabled?: boolean;
}

/** Keys of the paged project list: all under `queryKeys.projects`, so a library change refreshes them. */
export const projectListKeys = {
  pages: (filter: ProjectListFilter) =>
    [...queryKeys.projects, 'pages', { folderId: filter.folderId === undefined ? 'all' : (filter.folderId ?? 'root'), sort: filter.sort, q: filter.q?.trim() ?? '' }] as const,
  counts: [...queryKeys.projects, 'counts'] as const,
  recent: (limit: number) => [...queryKeys.projects, 'recent', limit] as const,
};

/** GET one page of /api/projects, parsed. */
export async function fetchProjectsPage(request: ProjectPageRequest, signal?: AbortSignal): Promise<ProjectsPageReply> {
  const res = await fetch(projectsPageUrl(request), { credentials: 'include', ...(signal ? { signal } : {}) });
  await throwIfResNotOk(res);
  return projectsPageReply.parse(await res.json());
}

/**
 * The projects of one folder (or every folder), page after page as the list asks for more
 * (`fetchNextPage`). A search's first page also carries its total, for the count line (without
 * a search, {@link useProjectCounts} has it).
 */
export function useProjectPages(filter: ProjectListFilter, enabled = true) {
  return useInfiniteQuery({
    queryKey: projectListKeys.pages(filter),
    enabled,
    staleTime: PROJECT_LIST_STALE_MS,
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }) => fetchProjectsPage({ ...filter, cursor: pageParam, counts: pageParam === undefined && Boolean(filter.q?.trim()) }, signal),
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    // A new sort or search of the same folder keeps the cards shown until its first page arrives;
    // another folder starts from the loading state, so its heading never sits over stale cards.
    placeholderData: (previous, previousQuery) => (previousQuery && sameFolder(previousQuery.queryKey, filter) ? previous : undefined),
  });
}

function sameFolder(key: readonly unknown[], filter: ProjectListFilter): boolean {
  const before = key[2] as { folderId?: unknown } | undefined;
  return before?.folderId === (projectListKeys.pages(filter)[2] as { folderId: string }).folderId;
}

/** How many projects each folder holds ('root': none), and in all: the sidebar's numbers. */
export function useProjectCounts(enabled = true) {
  return useQuery({
    queryKey: projectListKeys.counts,
    enabled,
    staleTime: PROJECT_LIST_STALE_MS,
    queryFn: async ({ signal }) => {
      const reply = await fetchProjectsPage({ sort: 'newest', limit: 1, counts: true }, signal);
      return { byFolder: folderCountMap(reply.folderCounts), total: reply.total ?? 0 };
    },
  });
}

/** The `limit` most recently updated projects of every folder, and how many there are in all. */
export function useRecentProjects(limit: number, { enabled = true }: ReadOptions = {}) {
  return useQuery({
    queryKey: projectListKeys.recent(limit),
    enabled,
    staleTime: PROJECT_LIST_STALE_MS,
    queryFn: async ({ signal }) => {
      const reply = await fetchProjectsPage({ sort: 'newest', limit, counts: true }, signal);
      return { projects: reply.projects, total: reply.total ?? reply.projects.length };
    },
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
