import { join } from 'node:path';
import type { RequestListener } from 'node:http';
import Koa from 'koa';
import session from 'koa-session';
import { AppError, Slots } from '@wolfpack/core';
import { boundedExecutor, ExecutionThread, executeProject, previewProjectOf } from '@wolfpack/core/proof';
import './koa-session-types.js';
import { paymentsConfigured, type ServerConfig } from './config/env.js';
import type { Database } from './db/orm.js';
import type { Logger } from './logger.js';
import { commitSession } from './middleware/commit-session.js';
import { compressReplies } from './middleware/compress.js';
import { authenticate, type AuthState } from './middleware/authenticate.js';
import { csrfProtection } from './middleware/csrf.js';
import { errorHandler } from './middleware/error-handler.js';
import { refuseUnstorableText } from './middleware/unstorable-text.js';
import { securityHeaders } from './middleware/security-headers.js';
import { openGraphLookup } from './middleware/open-graph.js';
import { serveWeb } from './middleware/serve-web.js';
import { sessionKeygrip } from './middleware/session-keygrip.js';
import { accountRoutes } from './routes/account-routes.js';
import { adminRoutes } from './routes/admin-routes.js';
import { experimentRoutes } from './routes/experiment-routes.js';
import { njinRoutes } from './routes/njin-routes.js';
import { authRoutes } from './routes/auth-routes.js';
import { billingRoutes } from './routes/billing-routes.js';
import { capsuleRoutes } from './routes/capsule-routes.js';
import { listingRoutes } from './routes/listing-routes.js';
import { paymentRoutes } from './routes/payment-routes.js';
import { enhancementRoutes } from './routes/enhancement-routes.js';
import { folderRoutes } from './routes/folder-routes.js';
import { previewRoutes } from './routes/preview-routes.js';
import { previewSite } from './routes/preview-site-routes.js';
import { publishRoutes } from './routes/publish-routes.js';
import { healthRoutes } from './routes/health-routes.js';
import { cliRoutes } from './routes/cli-routes.js';
import { tokenRoutes } from './routes/token-routes.js';
import { askDatabase, DatabaseProbe } from './services/operations/database-probe.js';
import { projectRoutes } from './routes/project-routes.js';
import { VerificationService } from './services/runs/verification-service.js';
import { referralRoutes } from './routes/referral-routes.js';
import { runRoutes } from './routes/run-routes.js';
import { AccountService } from './services/accounts/account-service.js';
import { AdminMetricsService } from './services/operations/admin-metrics-service.js';
import { ExperimentService } from './services/community/experiment-service.js';
import { NjinService } from './services/njin/njin-service.js';
import { AuthService } from './services/accounts/auth-service.js';
import { BillingService } from './services/billing/billing-service.js';
import { CapsuleService } from './services/community/capsule-service.js';
import { ListingService } from './services/community/listing-service.js';
import { LedgerService } from './services/billing/ledger-service.js';
import { creditTopUp, PaymentService } from './services/billing/payment-service.js';
import { StripeGateway } from './services/billing/stripe-gateway.js';
import type { EngineRegistry } from './services/runs/engine-registry.js';
import { EnhancementService } from './services/runs/enhancement-service.js';
import { FolderService } from './services/projects/folder-service.js';
import { GithubPublisher } from './services/projects/github-publisher.js';
import { PreviewBuilds } from './services/preview/preview-builds.js';
import { PreviewServers } from './services/preview/preview-servers.js';
import { PreviewService } from './services/preview/preview-service.js';
import { ProofCapabilityService } from './services/runs/proof-capability.js';
import { admittedRuns, RunAdmission } from './services/runs/run-admission.js';
import { SandboxShares } from './services/runs/sandbox-shares.js';
import { SecretBox } from './services/accounts/secret-box.js';
import { SubscriptionCloser } from './services/njin/subscription-closer.js';
import { SettingsService } from './services/accounts/settings-service.js';
import { randomSecret } from './services/accounts/hash-key.js';
import { ProjectService } from './services/projects/project-service.js';
import { ReferralService } from './services/accounts/referral-service.js';
import { RunHub } from './services/runs/run-hub.js';
import { PostgresRunNotifier } from './services/runs/run-notifier.js';
import { RunService } from './services/runs/run-service.js';
import { traceStep } from './services/runs/run-trace.js';
import { PasswordHasher, type ScryptCost } from './services/accounts/password.js';
import { DatabaseSessionStore } from './services/accounts/session-store.js';
import { StatsService } from './services/projects/stats-service.js';
import { VersionReader } from './services/projects/version-reader.js';
import { VersionStore } from './services/projects/version-store.js';
import { ProjectImportService } from './services/projects/project-import.js';
import { versionRoutes } from './routes/version-routes.js';
import { importRoutes } from './routes/import-routes.js';
import { TokenService } from './services/accounts/token-service.js';
import { CliTarball } from './services/operations/cli-tarball.js';

/** The session's cookie; its signature is the same name with `.sig`. */
const SESSION_COOKIE = 'wolfpack.sid';

export interface AppDeps {
  config: ServerConfig;
  db: Database;
  log: Logger;
  /** Cookie signing keys (newest first). */
  sessionKeys: string[];
  /** Encrypts stored user secrets (GitHub tokens). */
  secretKey: string;
  engines: EngineRegistry;
  /** The admin metrics secret (X-Admin-Secret); one is generated when none is configured. */
  adminSecret?: string;
  /** The time money rules see (monthly grant, referral decay) and preview links expire by; tests move it. @default () => new Date() */
  clock?: () => Date;
  /** scrypt's cost for passwords; tests lower it. @default PASSWORD_COST (OWASP's N=2^17, r=8, p=1) */
  passwordCost?: ScryptCost;
  /** What Proven Code can run here, as clients are told (startServer shares it with its start-up line). @default found from config.proofEnv */
  proof?: ProofCapabilityService;
}

/** One route of the routers, e.g. `{ method: 'GET', path: '/api/projects/:id' }`. */
export interface AppRoute {
  method: string;
  path: string;
}

export interface WolfpackApp {
  koa: Koa;
  /** The HTTP server's request listener: Koa, or a preview's own site for a preview's host. */
  handler: RequestListener;
  sessions: DatabaseSessionStore;
  runs: RunService;
  ledger: LedgerService;
  /** The running previews of HTTP server projects, stopped when the server closes. */
  previewServers: PreviewServers;
  /** Where Proven Code runs projects (none: on the requests' thread); ended when the server closes. */
  proofThread: ExecutionThread | undefined;
  /** Every route the routers serve (HEAD left out: Koa answers it with GET's route). */
  routes: AppRoute[];
}

/** Builds the Koa application from its dependencies; no globals, so tests build as many as they like. */
export function createApp({ config, db, log, sessionKeys, secretKey, engines, adminSecret = '', clock = () => new Date(), passwordCost, proof = new ProofCapabilityService({ env: config.proofEnv }) }: AppDeps): WolfpackApp {
  const { limits, proofEnv: env } = config;
  const koa = new Koa({ proxy: config.trustProxy });
  // One Keygrip for the app: given a plain list, Koa's cookies would build one for every request.
  koa.keys = sessionKeygrip(sessionKeys);
  const ledger = new LedgerService(db.orm, clock);
  const referrals = new ReferralService(db.orm, ledger, { log, clock, qualifyingSpendCents: limits.referralQualifyingSpendCents, dailyCapCents: limits.referralDailyCapCents });
  const billing = new BillingService(db.orm, ledger, engines, clock, paymentsConfigured(config.stripe), referrals);
  const auth = new AuthService(db.orm, undefined, undefined, new PasswordHasher(passwordCost));
  const tokens = new TokenService(db.orm, clock);
  const sessions = new DatabaseSessionStore(db.orm, { idleMs: config.sessionIdleMs, absoluteMs: config.sessionAbsoluteMs });
  const projects = new ProjectService(db.orm);
  // Proven Code's work in JavaScript (Playwright driving Chromium, the sandboxes' output) on a
  // thread of its own, not between this thread's requests and streams.
  const proofThread = limits.proofThreadIdleMs === undefined ? undefined : new ExecutionThread({ idleMs: limits.proofThreadIdleMs });
  // Every project Proven Code runs, for runs and for verifications, takes one of these slots.
  const proofSlots = new Slots(limits.proofConcurrency);
  // Turns go user by user; each user's and project's sandboxes are counted, re-checks refused over them.
  const executeProof = boundedExecutor(proofThread ? proofThread.execute.bind(proofThread) : executeProject, proofSlots);
  const sandboxShares = new SandboxShares(limits.sandboxesPerUser);
  const verifications = new VerificationService(db.orm, projects, { env }, executeProof, sandboxShares);
  const stats = new StatsService(db.orm, clock);
  const versionReader = new VersionReader(db.orm);
  const github = new GithubPublisher(projects, { baseUrl: config.githubApiUrl }, versionReader);
  const settings = new SettingsService(db.orm, new SecretBox(secretKey), github);
  const versionStore = new VersionStore(db.orm, clock);
  const enhancements = new EnhancementService(db.orm, engines, projects, log, ledger);
  const payments = new PaymentService(db.orm, ledger, StripeGateway.fromConfig(config.stripe), log, clock);
  // A paid purchase shows a referred account is a real user: its referrers are paid from then on.
  payments.registerFulfilment('top_up', creditTopUp, (checkout) => referrals.settle(checkout.userId));
  const listings = new ListingService(db.orm, ledger, payments, projects, { clock, platformSharePercent: config.showcasePlatformSharePercent });
  const capsules = new CapsuleService(db.orm, log, clock, limits.capsuleCountHours);
  const njin = new NjinService(db.orm, engines, payments, capsules, log, { clock, maxKeysPerUser: limits.njinKeysPerUser });
  // GET /api/health's question to the database, told also of writes refused for want of disk space.
  const databaseProbe = new DatabaseProbe(askDatabase(db, config.dataDir));
  const runs = new RunService(db.orm, engines, projects, new RunHub(), log, ledger, {
    databaseRetryMs: config.databaseRetryMs,
    onDiskFull: (error) => databaseProbe.noteDiskFull(error),
    verifications,
    proofEnv: env,
    executeProject: sandboxShares.counted(executeProof),
    leaseMs: config.runLeaseMs,
    // One process owns an embedded database: whatever it finds running at start-up was its own.
    orphansAtStart: db.kind === 'pglite',
    ...(db.kind === 'postgres' && config.databaseUrl
      ? { notifier: new PostgresRunNotifier(config.databaseUrl, (sql, params) => db.orm.em.fork().getConnection().execute(sql, params), log, config.runPollMs) }
      : {}),
    onProjectSaved: async (run) => {
      // Pays the referrers what a real user's build earns them (once); never throws into the run.
      await referrals.settle(run.userId);
      await enhancements.linkRun(run.userId, run.idea, run.conversationId, run.projectId);
      // After linkRun: the capsule reads the enhancement the run came from.
      await capsules.recordRun(run);
    },
  });

  const subscriptions = new SubscriptionCloser(db.orm, payments, log);
  // What a stopped server left of closed accounts' njin cancellations is tried again at start.
  void subscriptions.sweep();

  const previewServers = new PreviewServers({ env, idleMs: limits.previewIdleMs, max: limits.previewServers, perUser: limits.previewServersPerUser });
  const previews = new PreviewService(db.orm, secretKey, clock, new PreviewBuilds({ cacheDir: join(config.dataDir, 'preview-cache'), env, concurrency: limits.previewBuilds }), previewServers);

  koa.on('error', (error: NodeJS.ErrnoException) => {
    // A client that leaves mid-stream is normal life for SSE, not an error.
    if (error.code === 'ERR_STREAM_PREMATURE_CLOSE' || error.code === 'ECONNRESET' || error.code === 'EPIPE') return;
    log.error('unhandled application error', error);
  });

  // Outermost: replies are compressed once they are final, error replies included.
  koa.use(compressReplies());
  koa.use(errorHandler(log));
  koa.use(securityHeaders());
  koa.use(refuseUnstorableText());
  // Health answers before the session is read: a load balancer's check needs none, and under load
  // it costs a query and a signature check on every probe that carries a cookie.
  const health = healthRoutes(db, databaseProbe);
  koa.use(health.routes());
  koa.use(health.allowedMethods({ throw: true, methodNotAllowed: methodNotAllowed, notImplemented: methodNotAllowed }));
  // The CLI's npm tarball needs no session either.
  const cli = cliRoutes(new CliTarball({ log }));
  koa.use(cli.routes());
  koa.use(
    session(
      {
        key: SESSION_COOKIE,
        maxAge: config.sessionIdleMs,
        httpOnly: true,
        sameSite: 'lax',
        // secure left unset: koa-session marks the cookie Secure whenever the request came over
        // TLS (directly, or through a trusted proxy's X-Forwarded-Proto when app.proxy is on).
        signed: true,
        rolling: false,
        renew: false,
        // Committed by commitSession (below) or by a stream before its headers go out.
        autoCommit: false,
        genid: () => randomSecret('', 32),
        store: {
          // The session's user comes with it, for authenticate (one statement for both).
          get: async (key: string, _maxAge: number, { ctx }: { ctx?: Koa.Context }) => {
            const found = await sessions.getWithUser(key);
            traceStep('session-read');
            if (ctx && found.user !== undefined) (ctx.state as AuthState).sessionUser = found.user;
            return found.session;
          },
          set: (key: string, data: Record<string, unknown>) => sessions.set(key, data),
          destroy: (key: string) => sessions.destroy(key),
        },
      },
      koa,
    ),
  );
  koa.use(commitSession);
  // Authentication first: the cross-site check keys on what authenticated the request.
  koa.use(authenticate(auth, tokens));
  koa.use(csrfProtection(config.publicOrigin));

  // Unknown /api routes answer JSON 404, after the routers had their say (405 for a known path).
  koa.use(async (ctx, next) => {
    await next();
    if (ctx.status === 404 && ctx.body === undefined && (ctx.path === '/api' || ctx.path.startsWith('/api/'))) {
      throw new AppError('NOT_FOUND', `There is no API route ${ctx.method} ${ctx.path}.`);
    }
  });
  const routers = [authRoutes({ auth, tokens, signupsPerHour: limits.signupsPerHour }), tokenRoutes(tokens), runRoutes(admittedRuns(runs, new RunAdmission(db.orm, limits.concurrentRunsPerUser)), config.sseHeartbeatMs),
    enhancementRoutes(enhancements, config.sseHeartbeatMs), projectRoutes({ projects, stats, engines, verifications, proof }),
    folderRoutes(new FolderService(db.orm), projects),
    versionRoutes({ store: versionStore, reader: versionReader, projects, verifications, log }),
    importRoutes(new ProjectImportService({ store: versionStore, settings, githubApiUrl: config.githubApiUrl, log })),
    publishRoutes(github, settings),
    ...previewRoutes(previews, { publicOrigin: config.publicOrigin, previewHost: config.previewHost }),
    billingRoutes(billing),
    paymentRoutes(payments, config.publicOrigin),
    listingRoutes({ listings, publicOrigin: config.publicOrigin }),
    capsuleRoutes({ capsules }),
    njinRoutes({ njin, publicOrigin: config.publicOrigin }),
    experimentRoutes({ experiments: new ExperimentService(db.orm, runs, clock) }),
    adminRoutes({ metrics: new AdminMetricsService(db.orm, engines), njin, adminSecret, gate: { now: () => clock().getTime() } }),
    referralRoutes({ referrals, publicOrigin: config.publicOrigin }),
    accountRoutes({ accounts: new AccountService(db.orm, ledger, clock), stats, subscriptions, previews }),
  ];
  for (const router of routers) {
    koa.use(router.routes());
    koa.use(router.allowedMethods({ throw: true, methodNotAllowed: methodNotAllowed, notImplemented: methodNotAllowed }));
  }

  if (config.webDir) koa.use(serveWeb(config.webDir, { openGraph: openGraphLookup({ capsules, listings }), publicOrigin: config.publicOrigin }));

  const routes = [health, cli, ...routers].flatMap((router) =>
    router.stack.flatMap((layer) => layer.methods.filter((method) => method !== 'HEAD').map((method) => ({ method, path: String(layer.path) }))),
  );
  const wolfpack = koa.callback();
  // A preview's origin is the project's alone: its requests never reach Wolfpack's middleware or routes.
  const preview = previewSite({ previews, base: config.previewHost, trustProxy: config.trustProxy, log }).callback();
  const handler: RequestListener = (req, res) => (previewProjectOf(req.headers.host, config.previewHost) === undefined ? wolfpack(req, res) : preview(req, res));
  return { koa, handler, sessions, runs, ledger, previewServers, proofThread, routes };
}

function methodNotAllowed(): AppError {
  return new AppError('METHOD_NOT_ALLOWED', 'This method is not allowed on this route.');
}
