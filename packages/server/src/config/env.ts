import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { EngineConfigError, loadEngineConfigs, loadEngineOptions, type EngineConfig, type ResilienceOptions } from '@wolfpack/core/engines';
import { NETWORK_ENV, type ProofEnv } from '@wolfpack/core/proof';
import { z } from 'zod';

// Each message names the variable and says what it takes: it is what the operator reads when the
// server refuses to start. Values are never repeated, since some of them are secrets.
const whole = (name: string, min: number, max?: number, unit = '') => {
  const what = `${name} must be a whole number${unit}${max === undefined ? ` of at least ${min}` : ` from ${min} to ${max}`}`;
  const n = z.coerce.number({ error: what }).int(what).min(min, what);
  return max === undefined ? n : n.max(max, what);
};
/** A number that may have a fraction, at least `min` (more than it when `above`). */
const amount = (name: string, unit: string, min: number, above = false) => {
  const what = `${name} must be a number of ${unit}${above ? ` above ${min}` : ` of at least ${min}`}`;
  const n = z.coerce.number({ error: what });
  return above ? n.gt(min, what) : n.min(min, what);
};
const flag = (name: string) =>
  z.enum(['1', '0', 'true', 'false', 'yes', 'no'], `${name} must be 1, true or yes (on), or 0, false or no (off)`).transform((v) => v === '1' || v === 'true' || v === 'yes');
const url = (name: string, example: string) => z.url({ error: `${name} must be a URL such as ${example}` });
const text = () => z.string().trim().min(1);

/**
 * Every environment variable the server reads, parsed once at start (loadConfig) and handed down
 * as ServerConfig. docs/CONFIGURATION.md lists each one; a test keeps the two the same.
 */
export const envSchema = z.object({
  // Essentials
  PORT: whole('PORT', 0, 65535).default(3000),
  HOST: text().default('127.0.0.1'),
  WOLFPACK_DATA_DIR: text().default('./data'),
  DATABASE_URL: z.string().regex(/^postgres(ql)?:\/\//, 'DATABASE_URL must be a postgres:// or postgresql:// URL').optional(),
  WOLFPACK_PUBLIC_ORIGIN: url('WOLFPACK_PUBLIC_ORIGIN', 'https://wolfpack.example.net').optional(),
  WOLFPACK_PREVIEW_HOST: z
    .string()
    .trim()
    .toLowerCase()
    .regex(/^(?=.{1,190}(?::|$))([a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z0-9-]+(?::\d{1,5})?$/, 'WOLFPACK_PREVIEW_HOST must be a domain name with at least two labels, and a port when it is not the default one (e.g. preview.example.net or preview.example.net:8443): each preview is served at p-<project id>.<that name>')
    .optional(),
  WOLFPACK_TRUST_PROXY: flag('WOLFPACK_TRUST_PROXY').default(false),
  WOLFPACK_ENGINES: text().optional(),
  OPENAI_API_KEY: text().optional(),
  OPENAI_BASE_URL: url('OPENAI_BASE_URL', 'http://127.0.0.1:11434/v1').optional(),
  OPENAI_MODEL: text().optional(),
  ANTHROPIC_API_KEY: text().optional(),
  ANTHROPIC_MODEL: text().optional(),
  STRIPE_SECRET_KEY: text().optional(),
  STRIPE_WEBHOOK_SECRET: text().optional(),
  STRIPE_API_BASE: url('STRIPE_API_BASE', 'http://127.0.0.1:12111').optional(),
  WOLFPACK_SANDBOX: z.enum(['on', 'off'], 'WOLFPACK_SANDBOX must be on, or off to run no generated code').optional(),
  WOLFPACK_SESSION_KEYS: z.string().optional(),
  WOLFPACK_SECRET_KEY: z.string().min(32, 'WOLFPACK_SECRET_KEY must be at least 32 characters').optional(),
  WOLFPACK_ADMIN_SECRET: z.string().trim().min(16, 'WOLFPACK_ADMIN_SECRET must be at least 16 characters').optional(),
  GITHUB_API_URL: url('GITHUB_API_URL', 'https://github.example.net/api/v3').default('https://api.github.com'),

  // Limits
  WOLFPACK_SIGNUPS_PER_HOUR: whole('WOLFPACK_SIGNUPS_PER_HOUR', 1).default(10),
  WOLFPACK_CONCURRENT_RUNS_PER_USER: whole('WOLFPACK_CONCURRENT_RUNS_PER_USER', 1).default(3),
  WOLFPACK_SANDBOXES_PER_USER: whole('WOLFPACK_SANDBOXES_PER_USER', 1).default(2),
  WOLFPACK_PREVIEW_SERVERS: whole('WOLFPACK_PREVIEW_SERVERS', 1).default(3),
  WOLFPACK_PREVIEW_SERVERS_PER_USER: whole('WOLFPACK_PREVIEW_SERVERS_PER_USER', 1).default(2),
  WOLFPACK_PREVIEW_BUILDS: whole('WOLFPACK_PREVIEW_BUILDS', 1).default(2),
  WOLFPACK_PREVIEW_IDLE_MINUTES: amount('WOLFPACK_PREVIEW_IDLE_MINUTES', 'minutes', 0, true).default(5),
  WOLFPACK_NJIN_KEYS_PER_USER: whole('WOLFPACK_NJIN_KEYS_PER_USER', 1).default(10),
  WOLFPACK_CAPSULE_COUNT_HOURS: whole('WOLFPACK_CAPSULE_COUNT_HOURS', 1, 8760, ' of hours').default(24),
  WOLFPACK_REFERRAL_QUALIFYING_SPEND_CENTS: whole('WOLFPACK_REFERRAL_QUALIFYING_SPEND_CENTS', 1).optional(),
  WOLFPACK_REFERRAL_DAILY_CAP_CENTS: whole('WOLFPACK_REFERRAL_DAILY_CAP_CENTS', 0).default(10_000),
  WOLFPACK_SHOWCASE_FEE_PERCENT: whole('WOLFPACK_SHOWCASE_FEE_PERCENT', 0, 100, ' (percent)').default(20),
  WOLFPACK_SESSION_IDLE_MINUTES: whole('WOLFPACK_SESSION_IDLE_MINUTES', 1).default(60 * 24 * 7),
  WOLFPACK_SESSION_ABSOLUTE_MINUTES: whole('WOLFPACK_SESSION_ABSOLUTE_MINUTES', 1).default(60 * 24 * 30),
  // Proven Code's sandbox: core applies them (sandbox-limits.ts, execute-project.ts, preview-*.ts).
  WOLFPACK_PROOF_TIME_LIMIT_MS: whole('WOLFPACK_PROOF_TIME_LIMIT_MS', 1).optional(),
  WOLFPACK_PROOF_START_MS: whole('WOLFPACK_PROOF_START_MS', 1).optional(),
  WOLFPACK_PROOF_COMMAND_TIME_LIMIT_MS: whole('WOLFPACK_PROOF_COMMAND_TIME_LIMIT_MS', 1).optional(),
  WOLFPACK_PROOF_CPU_SECONDS: whole('WOLFPACK_PROOF_CPU_SECONDS', 1).optional(),
  WOLFPACK_PROOF_MEMORY_BYTES: whole('WOLFPACK_PROOF_MEMORY_BYTES', 1).optional(),
  WOLFPACK_PROOF_RUNTIME_RESERVE_BYTES: whole('WOLFPACK_PROOF_RUNTIME_RESERVE_BYTES', 1).optional(),
  WOLFPACK_PROOF_PROCESSES: whole('WOLFPACK_PROOF_PROCESSES', 1).optional(),
  WOLFPACK_PROOF_OUTPUT_BYTES: whole('WOLFPACK_PROOF_OUTPUT_BYTES', 1).optional(),
  WOLFPACK_PROOF_FILE_BYTES: whole('WOLFPACK_PROOF_FILE_BYTES', 1).optional(),
  WOLFPACK_PROOF_DISK_BYTES: whole('WOLFPACK_PROOF_DISK_BYTES', 1).optional(),
  WOLFPACK_PROOF_TMP_BYTES: whole('WOLFPACK_PROOF_TMP_BYTES', 1).optional(),
  WOLFPACK_PROOF_OPEN_FILES: whole('WOLFPACK_PROOF_OPEN_FILES', 1).optional(),
  WOLFPACK_PROOF_SANDBOX_MEMORY_BYTES: whole('WOLFPACK_PROOF_SANDBOX_MEMORY_BYTES', 64 * 1024 * 1024, undefined, ' of bytes').optional(),
  WOLFPACK_PROOF_SANDBOX_PROCESSES: whole('WOLFPACK_PROOF_SANDBOX_PROCESSES', 16).optional(),
  WOLFPACK_PROOF_SANDBOX_CPU_PERCENT: whole('WOLFPACK_PROOF_SANDBOX_CPU_PERCENT', 1).optional(),
  WOLFPACK_PROOF_INSTALL_TIME_LIMIT_MS: whole('WOLFPACK_PROOF_INSTALL_TIME_LIMIT_MS', 1).optional(),
  WOLFPACK_PROOF_INSTALL_MAX_BYTES: whole('WOLFPACK_PROOF_INSTALL_MAX_BYTES', 1).optional(),
  WOLFPACK_PREVIEW_BUILD_TIME_LIMIT_MS: whole('WOLFPACK_PREVIEW_BUILD_TIME_LIMIT_MS', 1).optional(),
  WOLFPACK_PREVIEW_START_MS: whole('WOLFPACK_PREVIEW_START_MS', 1).optional(),
  WOLFPACK_PREVIEW_CPU_PERCENT: whole('WOLFPACK_PREVIEW_CPU_PERCENT', 1).optional(),
  WOLFPACK_PREVIEW_CPU_WINDOW_SECONDS: whole('WOLFPACK_PREVIEW_CPU_WINDOW_SECONDS', 1).optional(),

  // Tuning
  WOLFPACK_PROOF_CONCURRENCY: whole('WOLFPACK_PROOF_CONCURRENCY', 1).optional(),
  WOLFPACK_PROOF_THREAD_IDLE_SECONDS: amount('WOLFPACK_PROOF_THREAD_IDLE_SECONDS', 'seconds', 0).default(60),
  WOLFPACK_SSE_HEARTBEAT_MS: whole('WOLFPACK_SSE_HEARTBEAT_MS', 50).default(15_000),
  WOLFPACK_RUN_LEASE_SECONDS: amount('WOLFPACK_RUN_LEASE_SECONDS', 'seconds', 0, true).default(3),
  WOLFPACK_RUN_POLL_SECONDS: amount('WOLFPACK_RUN_POLL_SECONDS', 'seconds', 0, true).default(5),
  WOLFPACK_DB_RETRY_SECONDS: amount('WOLFPACK_DB_RETRY_SECONDS', 'seconds', 0).default(120),
  // Checked again, with the other engine settings, by core's loadEngineOptions (loadConfig below).
  WOLFPACK_ENGINE_MAX_RETRIES: whole('WOLFPACK_ENGINE_MAX_RETRIES', 0).optional(),
  WOLFPACK_ENGINE_RETRY_BASE_DELAY_MS: whole('WOLFPACK_ENGINE_RETRY_BASE_DELAY_MS', 0).optional(),
  WOLFPACK_ENGINE_FIRST_CHUNK_TIMEOUT_MS: whole('WOLFPACK_ENGINE_FIRST_CHUNK_TIMEOUT_MS', 100).optional(),
  WOLFPACK_ENGINE_STALL_TIMEOUT_MS: whole('WOLFPACK_ENGINE_STALL_TIMEOUT_MS', 100).optional(),
  WOLFPACK_ENGINE_CALL_TIMEOUT_MS: whole('WOLFPACK_ENGINE_CALL_TIMEOUT_MS', 100).optional(),
  WOLFPACK_DEMO_DELAY_MS: whole('WOLFPACK_DEMO_DELAY_MS', 0).default(0),
  WOLFPACK_PROOF_CACHE_DIR: text().optional(),
  WOLFPACK_PROOF_CGROUP: z.enum(['auto', 'off'], 'WOLFPACK_PROOF_CGROUP must be auto or off').optional(),
  WOLFPACK_PROOF_CGROUP_PARENT: text().optional(),
  PATH: z.string().optional(),

});

type ParsedEnv = z.infer<typeof envSchema>;

// The server's own among the WOLFPACK_PROOF_ names: how many projects at once, and its thread.
const SERVER_PROOF_SETTINGS = new Set(['WOLFPACK_PROOF_CONCURRENCY', 'WOLFPACK_PROOF_THREAD_IDLE_SECONDS']);

/**
 * The settings core applies itself (the sandbox, its limits, installs, previews' starts and CPU),
 * handed down as given once the schema has checked them.
 */
const PROOF_VARIABLES = new Set(
  Object.keys(envSchema.shape).filter((name) => /^WOLFPACK_(SANDBOX$|PROOF_|PREVIEW_(BUILD_TIME_LIMIT_MS|START_MS|CPU_))/.test(name) && !SERVER_PROOF_SETTINGS.has(name)),
);

/** The operator's limits against abuse, each with a default a real person never meets, and the previews' and Proven Code's bounds. */
export interface AbuseLimits {
  signupsPerHour: number;
  /** Billed engine usage (cents) after which a referred account counts as a real user; undefined: only a purchase does. */
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

export interface EngineSettings {
  /** Configured engines; empty: the offline demo engines. */
  configs: EngineConfig[];
  /** Retries and timeouts of every engine (WOLFPACK_ENGINE_*). */
  options: ResilienceOptions;
  /** Pause between the demo engines' chunks, so a demo can be watched. */
  demoDelayMs: number;
}

export interface ServerConfig {
  port: number;
  host: string;
  /** Absolute path; holds the PGlite database and generated secrets. */
  dataDir: string;
  /** When set, PostgreSQL at this URL instead of the embedded PGlite. */
  databaseUrl: string | undefined;
  /** Signing keys for the session cookie; generated into the data dir when not configured. */
  sessionKeys: string[] | undefined;
  /** Trust X-Forwarded-* headers (Koa's app.proxy): set when behind a TLS-terminating proxy. */
  trustProxy: boolean;
  sessionIdleMs: number;
  sessionAbsoluteMs: number;
  /** The origin browsers use to reach Wolfpack, when it differs from the Host header. */
  publicOrigin: string | undefined;
  /**
   * The wildcard domain previews are served under (`p-<project id>.<previewHost>`), with a port
   * when not the scheme's; undefined: `p-<project id>.localhost:<port>`, for this machine's browser.
   */
  previewHost: string | undefined;
  /** Built web app to serve; undefined serves the API only. */
  webDir: string | undefined;
  /** Encrypts stored user secrets; generated into the data dir when unset. */
  secretKey: string | undefined;
  /** X-Admin-Secret of /api/admin; generated into the data dir's secrets.json when unset. Never logged. */
  adminSecret: string | undefined;
  /** GitHub REST API base URL (GitHub Enterprise, tests). */
  githubApiUrl: string;
  /** Comment line sent on idle event streams so proxies keep them open. */
  sseHeartbeatMs: number;
  /** A run whose server has not renewed its lease for this long is taken over by a live server. */
  runLeaseMs: number;
  /** How long a run waits for a database it lost before it stops, resumable. */
  databaseRetryMs: number;
  /**
   * PostgreSQL: how often a server following another server's run looks at the database anyway,
   * in case a NOTIFY was lost (notices bring events at once).
   */
  runPollMs: number;
  /** Stripe keys (payments are off without both) and another API host for tests. Never logged. */
  stripe: StripeConfig;
  /** The platform's share of a commercial Showcase sale, in percent; the seller gets the rest. */
  showcasePlatformSharePercent: number;
  limits: AbuseLimits;
  engines: EngineSettings;
  /** Proven Code's settings, the tools' PATH and npm's network variables, for core's proof functions. */
  proofEnv: ProofEnv;
}

export interface StripeConfig {
  secretKey: string | undefined;
  webhookSecret: string | undefined;
  /** e.g. http://127.0.0.1:12111: the stripe SDK talks to this host instead of api.stripe.com. */
  apiBase: string | undefined;
}

/** Payments need both keys: one to create Checkout Sessions, one to trust webhooks. */
export function paymentsConfigured(stripe: StripeConfig): boolean {
  return Boolean(stripe.secretKey && stripe.webhookSecret);
}

/**
 * Reads the environment, the only place the server does; options given in code win over it.
 * An empty variable counts as unset. Throws one error naming every variable that is wrong.
 */
export function loadConfig(overrides: Partial<ServerConfig> = {}, env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const given = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const parsed = envSchema.safeParse(given);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration: ${lines.join('; ')}`);
  }
  const e = parsed.data;
  const keys = e.WOLFPACK_SESSION_KEYS?.split(',').map((k) => k.trim()).filter(Boolean);
  const config: ServerConfig = {
    port: e.PORT,
    host: e.HOST,
    dataDir: e.WOLFPACK_DATA_DIR,
    databaseUrl: e.DATABASE_URL,
    sessionKeys: keys && keys.length > 0 ? keys : undefined,
    trustProxy: e.WOLFPACK_TRUST_PROXY,
    sessionIdleMs: e.WOLFPACK_SESSION_IDLE_MINUTES * 60_000,
    sessionAbsoluteMs: e.WOLFPACK_SESSION_ABSOLUTE_MINUTES * 60_000,
    publicOrigin: e.WOLFPACK_PUBLIC_ORIGIN,
    previewHost: e.WOLFPACK_PREVIEW_HOST,
    webDir: undefined,
    secretKey: e.WOLFPACK_SECRET_KEY,
    adminSecret: e.WOLFPACK_ADMIN_SECRET,
    githubApiUrl: e.GITHUB_API_URL.replace(/\/+$/, ''),
    sseHeartbeatMs: e.WOLFPACK_SSE_HEARTBEAT_MS,
    runLeaseMs: e.WOLFPACK_RUN_LEASE_SECONDS * 1000,
    databaseRetryMs: e.WOLFPACK_DB_RETRY_SECONDS * 1000,
    runPollMs: e.WOLFPACK_RUN_POLL_SECONDS * 1000,
    stripe: { secretKey: e.STRIPE_SECRET_KEY, webhookSecret: e.STRIPE_WEBHOOK_SECRET, apiBase: e.STRIPE_API_BASE },
    showcasePlatformSharePercent: e.WOLFPACK_SHOWCASE_FEE_PERCENT,
    limits: limitsOf(e),
    engines: engineSettings(given, e),
    proofEnv: proofEnvOf(given),
    ...stripUndefined(overrides),
  };
  config.dataDir = resolve(config.dataDir);
  if (config.databaseUrl && !/^postgres(ql)?:\/\//.test(config.databaseUrl)) {
    throw new Error('Invalid configuration: DATABASE_URL must be a postgres:// or postgresql:// URL');
  }
  return config;
}

function limitsOf(e: ParsedEnv): AbuseLimits {
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

/** The engines, checked now so that a wrong WOLFPACK_ENGINES stops the start like any other setting. */
function engineSettings(given: Record<string, string | undefined>, e: ParsedEnv): EngineSettings {
  try {
    // `given`, not the parsed values: an engine's apiKeyEnv names a variable of the operator's choosing.
    return { configs: loadEngineConfigs(given), options: loadEngineOptions(given), demoDelayMs: e.WOLFPACK_DEMO_DELAY_MS };
  } catch (error) {
    if (error instanceof EngineConfigError) throw new Error(`Invalid configuration: ${error.message}`);
    throw error;
  }
}

/**
 * Proven Code's settings, the PATH its tools are found on, and what npm needs to reach the
 * registry (proxies, CAs, npm_config_*); the rest of the environment, secrets included, stays here.
 */
function proofEnvOf(given: Record<string, string | undefined>): ProofEnv {
  const picked = Object.entries(given).filter(([name]) => PROOF_VARIABLES.has(name) || name === 'PATH' || NETWORK_ENV.test(name));
  return Object.freeze(Object.fromEntries(picked.map(([name, value]) => [name, value?.trim()])));
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
