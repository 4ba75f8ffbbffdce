/**
 * The referral code a visitor arrived with, checked with the server before the sign-up form says
 * who it credits: GET /api/referrals/code/{code} (public), parsed with its core schema.
 */
import { useQuery } from '@tanstack/react-query';
import { referralCodeCheckReply } from '@wolfpack/core';
import { getQueryFn } from './client';

const readJson = getQueryFn<unknown>({ on401: 'throw' });

/** Query keys double as URLs (the default query function joins them with '/'). */
export const referralCodeKey = (code: string) => ['/api/referrals/code', encodeURIComponent(code)] as const;

/**
 * Whether `code` belongs to an account a sign-up would credit: true, false, or undefined while it
 * is asked or when it could not be (then the form says nothing about it).
 */
export function useReferralCodeKnown(code: string | null): boolean | undefined {
  const query = useQuery<boolean>({
    queryKey: referralCodeKey(code ?? ''),
    enabled: code !== null,
    queryFn: async (ctx) => referralCodeCheckReply.parse(await readJson(ctx)).valid,
  });
  return code === null ? undefined : query.data;
}
