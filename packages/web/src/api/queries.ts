/**
 * Query keys, reads and mutations of the shell. Every server reply is parsed with its core schema,
 * so a payload that drifts from the contract fails loudly here instead of deep inside a screen.
 */
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import {
  accountReply,
  authReply,
  balanceReply,
  billingHistoryReply,
  checkoutReply,
  CREDIT_PACKS,
  DEFAULT_PRICE_PER_1K_TOKENS_CENTS,
  enginesReply,
  ledgerReply,
  packsReply,
  referralStatsReply,
  savingsReply,
  meReply,
  projectDetailReply,
  projectsPageReply,
  promptHistoryReply,
  replitCodeReply,
  statsReply,
  type AccountReply,
  type AuthReply,
  type BalanceReply,
  type BillingHistoryReply,
  type CreditPackDollars,
  type Credentials,
  type LedgerEntryItem,
  type PacksReply,
  type ReferralStatsReply,
  type SavingsReply,
  type EnginesReply,
  type ProjectDetailReply,
  type ProjectSummary,
  type PromptHistoryReply,
  type PublicUser,
  type ReplitCodeReply,
  type StatsReply,
} from '@wolfpack/core';
import { malformedReferralStore, referrerCodeStore } from '../lib/referral-code';
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
  balance: ['/api/billing/balance'] as const,
  billingHistory: (limit: number) => [`/api/billing/history?limit=${limit}`] as const,
  packs: ['/api/billing/packs'] as const,
  account: ['/api/account'] as const,
  savings: ['/api/savings'] as const,
  referrals: ['/api/referrals'] as const,
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

/**
 * POST /api/auth/register with username and password (confirmPassword stays in the form), plus the
 * referral code the visitor arrived with, when there is one.
 */
export function useRegister(referralCode?: string | null) {
  return useMutation({
    mutationFn: async (body: Credentials) => {
      const res = await apiRequest('POST', '/api/auth/register', {
        username: body.username,
        password: body.password,
        ...(referralCode ? { referralCode } : {}),
      });
      return authReply.parse(await res.json());
    },
    // The code has done its work once an account exists.
    onSuccess: (reply) => {
      if (reply.success && referralCode) referrerCodeStore.remove();
      if (reply.success) malformedReferralStore.remove();
    },
  });
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

/**
 * The most recently updated project, if any: GET /api/projects?limit=1 (the list is newest
 * first), so Load Latest costs one row however many projects there are.
 */
export async function fetchLatestProject(): Promise<ProjectSummary | undefined> {
  const res = await apiRequest('GET', '/api/projects?limit=1');
  return projectsPageReply.parse(await res.json()).projects[0];
}

/** GET /api/projects/{id}/replit-code: every file consolidated for pasting into Replit. */
export async function fetchReplitCode(projectId: string): Promise<ReplitCodeReply> {
  const res = await apiRequest('GET', `/api/projects/${encodeURIComponent(projectId)}/replit-code`);
  return replitCodeReply.parse(await res.json());
}

/**
 * Refreshes what a finished run changes: the project and run lists, the statistics, and what the
 * run cost (balance, usage, savings).
 */
export function invalidateAfterRun(client: QueryClient): Promise<void> {
  return Promise.all([
    client.invalidateQueries({ queryKey: queryKeys.projects }),
    client.invalidateQueries({ queryKey: queryKeys.conversations }),
    client.invalidateQueries({ queryKey: queryKeys.stats }),
    invalidateMoney(client),
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

/**
 * A read that a visitor cannot make: null on 401, the parsed reply otherwise. Enable it only for a
 * signed-in user (see {@link useStats}).
 */
function useSignedInRead<T>(queryKey: readonly string[], parse: (data: unknown) => T, enabled: boolean) {
  return useQuery<T | null>({
    queryKey,
    enabled,
    queryFn: async (ctx) => {
      const data = await readOrNull(ctx);
      return data === null ? null : parse(data);
    },
  });
}

/** GET /api/billing/balance: balance, monthly grant, reset date, referral figures. */
export function useBalance(enabled = true) {
  return useSignedInRead<BalanceReply>(queryKeys.balance, (data) => balanceReply.parse(data), enabled);
}

/** GET /api/billing/history?limit=N: the latest usage items, newest first. */
export function useBillingHistory(limit: number, enabled = true) {
  return useSignedInRead<BillingHistoryReply>(queryKeys.billingHistory(limit), (data) => billingHistoryReply.parse(data), enabled);
}

/**
 * GET /api/billing/packs: the credit packs, the token price and whether payments work here. Should
 * the server keep it from a visitor (401), the packs and price of core stand in: a visitor cannot
 * buy anyway, but can read what there is.
 */
export function usePacks() {
  return useQuery<PacksReply>({
    queryKey: queryKeys.packs,
    queryFn: async (ctx) => {
      const data = await readOrNull(ctx);
      if (data !== null) return packsReply.parse(data);
      return { packs: [...CREDIT_PACKS], pricePer1kTokensCents: DEFAULT_PRICE_PER_1K_TOKENS_CENTS, paymentsConfigured: true };
    },
  });
}

/**
 * Whether this server can take payments (it has Stripe keys), from GET /api/billing/packs: the one
 * answer every buy button follows. Undefined until the server has said.
 */
export function usePaymentsConfigured(): boolean | undefined {
  return usePacks().data?.paymentsConfigured;
}

/** GET /api/account: status, dates, the card of the last payment and recent activity. */
export function useAccount(enabled = true) {
  return useSignedInRead<AccountReply>(queryKeys.account, (data) => accountReply.parse(data), enabled);
}

/** GET /api/savings: the Savings dashboard's figures from the server. */
export function useSavings(enabled = true) {
  return useSignedInRead<SavingsReply>(queryKeys.savings, (data) => savingsReply.parse(data), enabled);
}

/** GET /api/referrals: the referral code, link, counts and credits. */
export function useReferralStats(enabled = true) {
  return useSignedInRead<ReferralStatsReply>(queryKeys.referrals, (data) => referralStatsReply.parse(data), enabled);
}

/** GET /api/billing/balance, parsed (the checkout poll reads it outside React Query). */
export async function fetchBalance(): Promise<BalanceReply> {
  const res = await apiRequest('GET', '/api/billing/balance');
  return balanceReply.parse(await res.json());
}

/** GET /api/billing/ledger?limit=N: the newest ledger entries. */
export async function fetchLedger(limit: number): Promise<LedgerEntryItem[]> {
  const res = await apiRequest('GET', `/api/billing/ledger?limit=${limit}`);
  return ledgerReply.parse(await res.json()).entries;
}

/** POST /api/billing/top-up: the Stripe Checkout URL for a pack. */
export function useTopUp() {
  return useMutation({
    mutationFn: async (amountDollars: CreditPackDollars) => {
      const res = await apiRequest('POST', '/api/billing/top-up', { amountDollars });
      return checkoutReply.parse(await res.json()).checkoutUrl;
    },
  });
}

/** DELETE /api/account: closes the account and ends the session. */
export function useCancelAccount() {
  return useMutation({ mutationFn: () => apiRequest('DELETE', '/api/account').then(() => undefined) });
}

/** Refreshes everything that shows money: balance, usage, the account, savings and referrals. */
export function invalidateMoney(client: QueryClient): Promise<void> {
  return Promise.all(
    [queryKeys.balance, queryKeys.account, queryKeys.savings, queryKeys.referrals].map((queryKey) =>
      client.invalidateQueries({ queryKey }),
    ).concat(client.invalidateQueries({ predicate: (query) => String(query.queryKey[0]).startsWith('/api/billing/history') })),
  ).then(() => undefined);
}
