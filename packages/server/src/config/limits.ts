import { availableParallelism } from 'node:os';
import { z } from 'zod';

const count = (name: string) => z.coerce.number().int(`${name} must be a whole number`).min(0, `${name} must be 0 or more`);
const positive = (name: string) => z.coerce.number().int(`${name} must be a whole number`).min(1, `${name} must be at least 1`);

/**
 * The operator's limits against abuse, each with a default that a real person never
 * meets, and the bounds on the previews' processes and builds. Read from the environment like the
 * rest of the configuration (documented in README.md); a value that does not parse stops the
 * server at start with the variable's name.
 */
const limitsSchema = z.object({
  /** Accounts one client address may create per hour. */
  WOLFPACK_SIGNUPS_PER_HOUR: positive('WOLFPACK_SIGNUPS_PER_HOUR').default(10),
  /**
   * Billed engine usage (cents) after which a referred account counts as a real user, besides a
   * paid credit purchase, which always does. Unset: only a purchase does (free credit pays builds).
   */
  WOLFPACK_REFERRAL_QUALIFYING_SPEND_CENTS: positive('WOLFPACK_REFERRAL_QUALIFYING_SPEND_CENTS').optional(),
  /** Referral rewards one referrer may receive in 24 hours, in cents; past it a reward is not paid. */
  WOLFPACK_REFERRAL_DAILY_CAP_CENTS: count('WOLFPACK_REFERRAL_DAILY_CAP_CENTS').default(10_000),
  /** Builds one user may have running at once. */
  WOLFPACK_CONCURRENT_RUNS_PER_USER: positive('WOLFPACK_CONCURRENT_RUNS_PER_USER').default(3),
  /** njin keys one user may hold (revoked keys do not count). */
  WOLFPACK_NJIN_KEYS_PER_USER: positive('WOLFPACK_NJIN_KEYS_PER_USER').default(10),
  /** A capsule view or share counts once per visitor per capsule in each period of this many hours (24: a UTC day). */
  WOLFPACK_CAPSULE_COUNT_HOURS: positive('WOLFPACK_CAPSULE_COUNT_HOURS').max(8760, 'WOLFPACK_CAPSULE_COUNT_HOURS must be at most 8760 (a year)').default(24),
  /** Minutes without a request after which a previewed HTTP server is stopped (fractions allowed). */
  WOLFPACK_PREVIEW_IDLE_MINUTES: z.coerce.number('WOLFPACK_PREVIEW_IDLE_MINUTES must be a number of minutes').positive('WOLFPACK_PREVIEW_IDLE_MINUTES must be more than 0').default(5),
  // Each sandbox as a whole (its control group) and a previewed server's CPU budget: core reads
  // them from the environment as every run does; checked here so a typo stops the server at start.
  WOLFPACK_PROOF_SANDBOX_MEMORY_BYTES: positive('WOLFPACK_PROOF_SANDBOX_MEMORY_BYTES').min(64 * 1024 * 1024, 'WOLFPACK_PROOF_SANDBOX_MEMORY_BYTES must be at least 67108864 (64 MiB)').optional(),
  WOLFPACK_PROOF_SANDBOX_PROCESSES: positive('WOLFPACK_PROOF_SANDBOX_PROCESSES').min(16, 'WOLFPACK_PROOF_SANDBOX_PROCESSES must be at least 16').optional(),
  WOLFPACK_PROOF_SANDBOX_CPU_PERCENT: positive('WOLFPACK_PROOF_SANDBOX_CPU_PERCENT').optional(),
  WOLFPACK_PROOF_CGROUP: z.enum(['auto', 'off'], 'WOLFPACK_PROOF_CGROUP must be auto or off').optional(),
  WOLFPACK_PREVIEW_CPU_PERCENT: positive('WOLFPACK_PREVIEW_CPU_PERCENT').optional(),
  WOLFPACK_PREVIEW_CPU_WINDOW_SECONDS: positive('WOLFPACK_PREVIEW_CPU_WINDOW_SECONDS').optional(),
  /** Previewed HTTP servers running at once in this process (see WOLFPACK_PREVIEW_SERVERS_PER_USER for who makes room). */
  WOLFPACK_PREVIEW_SERVERS: positive('WOLFPACK_PREVIEW_SERVERS').default(3),
  /** Previewed HTTP servers one user may have running at once; one more stops their own least recently used. */
  WOLFPACK_PREVIEW_SERVERS_PER_USER: positive('WOLFPACK_PREVIEW_SERVERS_PER_USER').default(2),
  /**
   * Projects one user may have running or waiting in Proven Code's sandboxes at once, builds' checks
   * and re-checks alike (a project: one at a time); a re-check beyond it is refused (429).
   */
  WOLFPACK_SANDBOXES_PER_USER: positive('WOLFPACK_SANDBOXES_PER_USER').default(2),
  /**
   * Projects Proven Code runs at once in this process (each a sandbox: an install, tests, a
   * server, a Chromium); the others wait their turn. Default: half the CPUs, at least 1.
   */
  WOLFPACK_PROOF_CONCURRENCY: positive('WOLFPACK_PROOF_CONCURRENCY').optional(),
  /** Preview builds of bundled apps at once in this process; the others wait their turn. */
  WOLFPACK_PREVIEW_BUILDS: positive('WOLFPACK_PREVIEW_BUILDS').default(2),
  /**
   * Proven Code runs projects from a thread of its own, which ends after this many seconds without
   * work to give its memory back (0: no thread; the checks' work shares the requests' thread).
   */
  WOLFPACK_PROOF_THREAD_IDLE_SECONDS: z.coerce
    .number('WOLFPACK_PROOF_THREAD_IDLE_SECONDS must be a number of seconds')
    .min(0, 'WOLFPACK_PROOF_THREAD_IDLE_SECONDS must be 0 or more')
    .default(60),
});

export interface AbuseLimits {
  signupsPerHour: number;
  referralQualifyingSpendCents: number | undefined;
  referralDailyCapCents: number;
  concurrentRunsPerUser: number;
  njinKeysPerUser: number;
  capsuleCountHours: number;
  previewIdleMs: number;
  previewServers: number;
  previewServersPerUser: number;
  /** Sandboxes one user may have running or waiting (re-checks beyond it are refused). */
  sandboxesPerUser: number;
  previewBuilds: number;
  /** Projects Proven Code runs at once in this process. */
  proofConcurrency: number;
  /** How long Proven Code's thread stays idle before it ends; undefined: no thread. */
  proofThreadIdleMs: number | undefined;
}

/** Reads the limits from the environment; throws a readable error naming the variable. */
export function loadLimits(env: NodeJS.ProcessEnv = process.env): AbuseLimits {
  const parsed = limitsSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration: ${lines.join('; ')}`);
  }
  const e = parsed.data;
  return {
    signupsPerHour: e.WOLFPACK_SIGNUPS_PER_HOUR,
    referralQualifyingSpendCents: e.WOLFPACK_REFERRAL_QUALIFYING_SPEND_CENTS,
    referralDailyCapCents: e.WOLFPACK_REFERRAL_DAILY_CAP_CENTS,
    concurrentRunsPerUser: e.WOLFPACK_CONCURRENT_RUNS_PER_USER,
    njinKeysPerUser: e.WOLFPACK_NJIN_KEYS_PER_USER,
    capsuleCountHours: e.WOLFPACK_CAPSULE_COUNT_HOURS,
    previewIdleMs: Math.round(e.WOLFPACK_PREVIEW_IDLE_MINUTES * 60_000),
    previewServers: e.WOLFPACK_PREVIEW_SERVERS,
    previewServersPerUser: e.WOLFPACK_PREVIEW_SERVERS_PER_USER,
    sandboxesPerUser: e.WOLFPACK_SANDBOXES_PER_USER,
    previewBuilds: e.WOLFPACK_PREVIEW_BUILDS,
    proofConcurrency: e.WOLFPACK_PROOF_CONCURRENCY ?? Math.max(1, Math.floor(availableParallelism() / 2)),
    proofThreadIdleMs: e.WOLFPACK_PROOF_THREAD_IDLE_SECONDS > 0 ? Math.round(e.WOLFPACK_PROOF_THREAD_IDLE_SECONDS * 1000) : undefined,
  };
}
