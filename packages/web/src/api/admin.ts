/**
 * The admin metrics call (companion §7): GET /api/admin/metrics with the X-Admin-Secret header.
 * The secret lives only in the page's memory; nothing here stores it.
 */
import { useQuery } from '@tanstack/react-query';
import { adminMetricsReply, type AdminMetricsReply } from '@wolfpack/core';
import { serverErrorText, throwIfResNotOk } from './client';

/** The spec's message for a wrong or missing secret (companion §4, §8). */
export const UNAUTHORIZED = 'Unauthorized';

/**
 * A secret with other than printable ASCII characters. A header value is bytes, so the browser
 * refuses to send such a secret at all, and no server secret could match it: it is simply wrong.
 */
export const NON_ASCII_SECRET = `${UNAUTHORIZED}: this secret is wrong. The admin secret contains only ASCII characters (no accented letters or emoji).`;

/** Thrown for a 401 (or a secret that cannot be right), so the page can lock again and say why. */
export class AdminUnauthorizedError extends Error {
  constructor(message: string = UNAUTHORIZED) {
    super(message);
    this.name = 'AdminUnauthorizedError';
  }
}

/**
 * Reads the metrics with `secret`; a 401, or a secret no server can hold (not sent at all), throws
 * {@link AdminUnauthorizedError}, other failures the client's Error.
 */
export async function fetchAdminMetrics(secret: string, signal?: AbortSignal): Promise<AdminMetricsReply> {
  if (!/^[\x20-\x7e]+$/.test(secret)) throw new AdminUnauthorizedError(NON_ASCII_SECRET);
  const res = await fetch('/api/admin/metrics', {
    headers: { 'X-Admin-Secret': secret },
    // The secret is the credential; the session cookie plays no part.
    credentials: 'omit',
    cache: 'no-store',
    ...(signal ? { signal } : {}),
  });
  if (res.status === 401) throw new AdminUnauthorizedError();
  await throwIfResNotOk(res);
  return adminMetricsReply.parse(await res.json());
}

/**
 * The metrics while a secret is entered. The key holds the attempt number, not the secret (the
 * query cache is visible in dev tools), so each Access press asks the server again.
 */
export function useAdminMetrics(secret: string | null, attempt: number) {
  return useQuery({
    queryKey: ['admin-metrics', attempt],
    queryFn: ({ signal }) => fetchAdminMetrics(secret!, signal),
    enabled: secret !== null,
    retry: false,
    gcTime: 0,
    staleTime: 30_000,
  });
}

/** The lock screen's sentence for a failure: a wrong secret, the 429 lock-out, a server error. */
export function adminErrorMessage(error: unknown): string {
  if (error instanceof AdminUnauthorizedError) return error.message;
  const text = serverErrorText(error);
  if (text) return text;
  return 'The metrics could not be loaded. Try again in a moment.';
}
