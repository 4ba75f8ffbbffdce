import { resolve } from 'node:path';
import { z } from 'zod';

const booleanFlag = z
  .enum(['1', '0', 'true', 'false', 'yes', 'no'])
  .transform((v) => v === '1' || v === 'true' || v === 'yes');

const minutes = z.coerce.number().int().positive();

const WORKERS_RANGE = 'WOLFPACK_WORKERS must be a whole number of server processes from 1 to 256';

/** Every environment variable the server reads, parsed once. Documented in README.md. */
const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  WOLFPACK_DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'DATABASE_URL must be a postgres:// or postgresql:// URL')
    .optional(),
  WOLFPACK_SESSION_KEYS: z.string().optional(),
  WOLFPACK_TRUST_PROXY: booleanFlag.default(false),
  WOLFPACK_SESSION_IDLE_MINUTES: minutes.default(60 * 24 * 7),
  WOLFPACK_SESSION_ABSOLUTE_MINUTES: minutes.default(60 * 24 * 30),
  WOLFPACK_PUBLIC_ORIGIN: z.url().optional(),
  WOLFPACK_PREVIEW_HOST: z
    .string()
    .trim()
    .toLowerCase()
    .regex(/^(?=.{1,190}(?::|$))([a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z0-9-]+(?::\d{1,5})?$/, 'WOLFPACK_PREVIEW_HOST must be a domain name with at least two labels, and a port when it is not the default one (e.g. preview.example.net or preview.example.net:8443): each preview is served at p-<project id>.<that name>')
    .optional(),
  WOLFPACK_SECRET_KEY: z.string().min(32, 'WOLFPACK_SECRET_KEY must be at least 32 characters').optional(),
  WOLFPACK_ADMIN_SECRET: z.string().trim().min(16, 'WOLFPACK_ADMIN_SECRET must be at least 16 characters').optional(),
  GITHUB_API_URL: z.url().default('https://api.github.com'),
  WOLFPACK_SSE_HEARTBEAT_MS: z.coerce.number().int().min(50).default(15_000),
  WOLFPACK_RUN_LEASE_SECONDS: z.coerce.number().positive().default(3),
  WOLFPACK_RUN_POLL_SECONDS: z.coerce.number().positive().default(5),
  WOLFPACK_DB_RETRY_SECONDS: z.coerce.number({ error: 'WOLFPACK_DB_RETRY_SECONDS must be a number of seconds' }).min(0, 'WOLFPACK_DB_RETRY_SECONDS must be 0 or more').default(120),
  WOLFPACK_WORKERS: z.coerce.number({ error: WORKERS_RANGE }).int(WORKERS_RANGE).min(1, WORKERS_RANGE).max(256, WORKERS_RANGE).optional(),
  WOLFPACK_SHOWCASE_FEE_PERCENT: z.coerce.number().int('WOLFPACK_SHOWCASE_FEE_PERCENT must be a whole percent').min(0).max(100).default(20),
  STRIPE_SECRET_KEY: z.string().trim().min(1).optional(),
  STRIPE_WEBHOOK_SECRET: z.string().trim().min(1).optional(),
  STRIPE_API_BASE: z.url({ error: 'STRIPE_API_BASE must be a URL such as http://127.0.0.1:12111' }).optional(),
});

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
  /** A running run whose server has not reported for this long counts as interrupted. */
  /** A run whose server has not renewed its lease for this long is taken over by a live server. */
  runLeaseMs: number;
  /** How long a run waits for a database it lost before it stops, resumable (WOLFPACK_DB_RETRY_SECONDS). */
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
  /** Server processes on the port (more than one on PostgreSQL only); undefined: one. */
  workers: number | undefined;
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

/** Reads the environment; options given in code win over it. Throws a readable error. */
export function loadConfig(
  overrides: Partial<ServerConfig> = {},
  env: NodeJS.ProcessEnv = process.env,
): ServerConfig {
  const parsed = envSchema.safeParse(env);
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
    workers: e.WOLFPACK_WORKERS,
    ...stripUndefined(overrides),
  };
  config.dataDir = resolve(config.dataDir);
  if (config.databaseUrl && !/^postgres(ql)?:\/\//.test(config.databaseUrl)) {
    throw new Error('Invalid configuration: DATABASE_URL must be a postgres:// or postgresql:// URL');
  }
  return config;
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
