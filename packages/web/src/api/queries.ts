/**
 * Query keys, reads and mutations of the shell. Every server reply is parsed with its core schema,
 * so a payload that drifts from the contract fails loudly here instead of deep inside a screen.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  authReply,
  meReply,
  type AuthReply,
  type Credentials,
  type PublicUser,
} from '@wolfpack/core';
import { apiRequest, getQueryFn } from './client';

/** Query keys double as URLs (the default query function joins them with '/'). */
export const queryKeys = {
  me: ['/api/auth/me'] as const,
};

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
