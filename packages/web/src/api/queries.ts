/**
 * Query keys, reads and mutations of the shell. Every server reply is parsed with its core schema,
 * so a payload that drifts from the contract fails loudly here instead of deep inside a screen.
 */
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import {
  authReply,
  enginesReply,
  meReply,
  projectDetailReply,
  projectsReply,
  promptHistoryReply,
  replitCodeReply,
  statsReply,
  type AuthReply,
  type Credentials,
  type EnginesReply,
  type ProjectDetailReply,
  type ProjectSummary,
  type PromptHistoryReply,
  type PublicUser,
  type ReplitCodeReply,
  type StatsReply,
} from '@wolfpack/core';
import { apiRequest, getQueryFn } from './client';

/** Query keys double as URLs (the default query function joins them with '/'). */
export const queryKeys = {
  me: ['/api/auth/me'] as const,
  projects: ['/api/projects'] as const,
  conversations: ['/api/conversations'] as const,
  stats: ['/api/stats'] as const,
  engines: ['/api/engines'] as const,
  /** Under `projects`, so refreshing the project list refreshes an open project too. */
  project: (id: string) => ['/api/projects', encodeURIComponent(id)] as const,
  promptHistory: (id: string) => ['/api/projects', encodeURIComponent(id), 'prompt-history'] as const,
};

const readJson = getQueryFn<unknown>({ on401: 'throw' });

const readMe = getQueryFn<unknown>({ on401: 'returnNull' });

/**
 * The signed-in user, or null for a visitor. Any failure (not only 401) counts as logged out
 * (spec core §7), so the header never shows an error for this read.
 */
export function useMe() {
  const query = useQuery<PublicUser | null>({
    queryKey: queryKeys.me,
    queryFn: async (ctx) => {
      const data = await readMe(ctx);
      return data === null ? null : meReply.parse(data).user;
    },
  });
  return { ...query, user: query.data ?? null };
}

async function postCredentials(url: string, body: Credentials): Promise<AuthReply> {
  const res = await apiRequest('POST', url, { username: body.username, password: body.password });
  return authReply.parse(await res.json());
}

/** POST /api/auth/login. Resolves with `{ success, error }`; throws on a non-ok answer. */
export function useLogin() {
  return useMutation({ mutationFn: (body: Credentials) => postCredentials('/api/auth/login', body) });
}

/** POST /api/auth/register with only username and password (confirmPassword stays in the form). */
export function useRegister() {
  return useMutation({ mutationFn: (body: Credentials) => postCredentials('/api/auth/register', body) });
}

/** Refreshes the header's user after a sign-in or account creation. */
export function useInvalidateMe() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: queryKeys.me });
}

/**
 * POST /api/auth/logout, then a full reload so every cached read starts over as a visitor. A
 * failure is only logged (spec core §8): the user can simply try again.
 */
export async function logout(): Promise<void> {
  try {
    await apiRequest('POST', '/api/auth/logout');
    window.location.reload();
  } catch (error) {
    console.error('Logout failed:', error);
  }
}

const readOrNull = getQueryFn<unknown>({ on401: 'returnNull' });

/**
 * GET /api/stats: the statistics panel. Null for a visitor (the server answers 401), so the panel
 * can ask them to sign in instead of showing an error. Enable it only for a signed-in user: a
 * visitor's null would otherwise stay cached (data never goes stale) after they sign in.
 */
export function useStats(enabled = true) {
  return useQuery<StatsReply | null>({
    queryKey: queryKeys.stats,
    enabled,
    queryFn: async (ctx) => {
      const data = await readOrNull(ctx);
      return data === null ? null : statsReply.parse(data);
    },
  });
}

/**
 * GET /api/engines: the engines in stage order and whether demo engines stand in for real ones.
 * Null when the server cannot say (the run then uses the server's default order). Like
 * {@link useStats}, enable it only for a signed-in user.
 */
export function useEngines(enabled = true) {
  return useQuery<EnginesReply | null>({
    queryKey: queryKeys.engines,
    enabled,
    queryFn: async (ctx) => {
      const data = await readOrNull(ctx);
      return data === null ? null : enginesReply.parse(data);
    },
  });
}

/** GET /api/projects, parsed. */
export async function fetchProjects(): Promise<ProjectSummary[]> {
  const res = await apiRequest('GET', '/api/projects');
  return projectsReply.parse(await res.json()).projects;
}

/** The most recently updated of `projects`, if any (unparseable dates sort last). */
export function newestProject(projects: readonly ProjectSummary[]): ProjectSummary | undefined {
  const time = (p: ProjectSummary) => {
    const t = Date.parse(p.updatedAt);
    return Number.isNaN(t) ? Number.NEGATIVE_INFINITY : t;
  };
  let newest: ProjectSummary | undefined;
  for (const project of projects) if (!newest || time(project) > time(newest)) newest = project;
  return newest;
}

/** GET /api/projects/{id}/replit-code: every file consolidated for pasting into Replit. */
export async function fetchReplitCode(projectId: string): Promise<ReplitCodeReply> {
  const res = await apiRequest('GET', `/api/projects/${encodeURIComponent(projectId)}/replit-code`);
  return replitCodeReply.parse(await res.json());
}

/** Refreshes what a finished run changes: the project and run lists and the statistics. */
export function invalidateAfterRun(client: QueryClient): Promise<void> {
  return Promise.all([
    client.invalidateQueries({ queryKey: queryKeys.projects }),
    client.invalidateQueries({ queryKey: queryKeys.conversations }),
    client.invalidateQueries({ queryKey: queryKeys.stats }),
  ]).then(() => undefined);
}

/**
 * GET /api/projects/{id}: the project with its file map, and the sorted list of its paths. A
 * missing project (or another user's) fails with a 404 error, a visitor's read with a 401 one.
 */
export function useProject(id: string) {
  return useQuery<ProjectDetailReply>({
    queryKey: queryKeys.project(id),
    queryFn: async (ctx) => projectDetailReply.parse(await readJson(ctx)),
  });
}

/**
 * GET /api/projects/{id}/prompt-history: the multi-pass enhancement the project was built from,
 * with every step; `enhancement` is null for a project built without one.
 */
export function usePromptHistory(id: string, enabled = true) {
  return useQuery<PromptHistoryReply>({
    queryKey: queryKeys.promptHistory(id),
    enabled,
    queryFn: async (ctx) => promptHistoryReply.parse(await readJson(ctx)),
  });
}
