import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import type { ExecutionThread } from '@wolfpack/core/proof';
import { createApp, type AppRoute } from './app.js';
import { loadConfig, type ServerConfig } from './config/env.js';
import { openDatabase, type Database } from './db/orm.js';
import { consoleLogger, silentLogger, type Logger } from './logger.js';
import { isLoopbackHost } from '@wolfpack/core/proof';
import { EngineRegistry } from './services/runs/engine-registry.js';
import { ProofCapabilityService } from './services/runs/proof-capability.js';
import type { ScryptCost } from './services/accounts/password.js';
import type { RunService } from './services/runs/run-service.js';
import { loadOrCreateSecrets, secretsPath } from './services/accounts/secrets.js';
import { endEventStreams } from './sse/sse-writer.js';

export { createApp } from './app.js';
export { loadConfig, type ServerConfig } from './config/env.js';
export { openDatabase, pgliteDir, type Database } from './db/orm.js';
export { PASSWORD_COST, type ScryptCost } from './services/accounts/password.js';

export interface StartServerOptions {
  port?: number;
  host?: string;
  dataDir?: string;
  /** PostgreSQL URL; defaults to DATABASE_URL, else the embedded PGlite database. */
  databaseUrl?: string;
  /** Built web app to serve. Defaults to packages/web/dist when it exists; `false` for API only. */
  webDir?: string | false;
  /** Log requests and start-up; default true. */
  quiet?: boolean;
  logger?: Logger;
  /** The variables to read the configuration from (config/env.ts). @default process.env */
  env?: NodeJS.ProcessEnv;
  /** The configuration, when the caller has read it already: the variables are read once. */
  config?: ServerConfig;
  /** The time money rules see (monthly grant, referral decay) and preview links expire by: tests move it. */
  clock?: () => Date;
  /**
   * scrypt's cost for new password hashes. Only tests lower it (each sign-up otherwise spends
   * ~0.3 s of CPU and 128 MiB); servers people use keep OWASP's. @default PASSWORD_COST
   */
  passwordCost?: ScryptCost;
  /**
   * An open, migrated database to serve from instead of opening one (`databaseUrl` and the data
   * dir's PGlite are then not opened). It stays open when the server closes: its owner closes it.
   * Test suites hand one database to server after server, emptied in between.
   */
  database?: Database;
  /**
   * Aborted when the server is asked to close while it is still starting (a SIGTERM during
   * start-up): it then takes no run over, since a process that may be killed before it can give a
   * run back must not take one.
   */
  closing?: AbortSignal;
}

export interface RunningServer {
  url: string;
  port: number;
  database: 'pglite' | 'postgres';
  config: ServerConfig;
  /** The open database, for tools and tests that inspect what the server stored. */
  db: Database;
  /** Every API route (the authorization matrix test walks them all). */
  routes: AppRoute[];
  /** This process's id in the runs it owns (their lease). */
  instanceId: string;
  /** Where Proven Code runs projects; undefined when it runs on the requests' thread (WOLFPACK_PROOF_THREAD_IDLE_SECONDS=0). */
  proofThread: ExecutionThread | undefined;
  close(): Promise<void>;
}

/** The web app built next to this package in the monorepo (packages/web/dist). */
export function defaultWebDir(): string | undefined {
  const dir = fileURLToPath(new URL('../../web/dist', import.meta.url));
  return existsSync(`${dir}/index.html`) ? dir : undefined;
}

/**
 * Opens the database (applying migrations), builds the app and listens. Resolves once requests
 * are accepted. `close()` stops accepting, ends open connections (SSE streams) and closes the DB.
 */
export async function startServer(options: StartServerOptions = {}): Promise<RunningServer> {
  const log = options.logger ?? (options.quiet ? silentLogger : consoleLogger());
  const config = options.config ?? readConfig(options);
  // Probed while the database opens (it starts a sandbox once); the runs' own findSandbox reuses it.
  const proof = new ProofCapabilityService({ env: config.proofEnv });
  const proofLine = proof.startupLine();
  const db = options.database ?? (await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir }));
  const closeDatabase = () => (options.database ? Promise.resolve() : db.close());
  let engines: EngineRegistry | undefined;
  let runs: RunService | undefined;
  try {
    const stored = config.sessionKeys && config.secretKey && config.adminSecret ? undefined : await loadOrCreateSecrets(config.dataDir);
    const sessionKeys = config.sessionKeys ?? stored!.sessionKeys;
    const secretKey = config.secretKey ?? stored!.secretKey;
    const adminSecret = config.adminSecret ?? stored!.adminSecret;
    const registry = await EngineRegistry.create(config.engines);
    engines = registry;
    const app = createApp({ config, db, log, sessionKeys, secretKey, adminSecret, engines: registry, proof, ...(options.clock ? { clock: options.clock } : {}), ...(options.passwordCost ? { passwordCost: options.passwordCost } : {}) });
    const { koa, sessions } = app;
    runs = app.runs;
    // Where the admin secret is, never the secret: start-up logs are often shipped to other systems
    // (journald, a log service), and whoever may read the secret can read the file on this machine.
    log.info(
      config.adminSecret
        ? 'Admin metrics (/admin/metrics): the admin secret is WOLFPACK_ADMIN_SECRET.'
        : `Admin metrics (/admin/metrics): the admin secret is the "adminSecret" field of ${secretsPath(config.dataDir)} (or set WOLFPACK_ADMIN_SECRET).`,
    );
    if (registry.demo) log.info('No AI engine configured: demo engines are active (set OPENAI_API_KEY, ANTHROPIC_API_KEY or WOLFPACK_ENGINES).');
    // One line, the same sentence clients show: a newcomer's verdicts would otherwise be "not proven" without a word why.
    const proofWarning = await proofLine;
    if (proofWarning) log.warn(proofWarning);
    const limits = await proof.limitsLine();
    if (limits) log[limits.level](limits.line);
    // Runs whose server stopped are taken over last before listening, after the slow part of the
    // start (the sandbox's probe): what was taken is given back by a close that comes soon after.
    await runs.startBackgroundWork(options.closing);
    const server = createServer(app.handler);
    // Node closes an idle keep-alive connection after 5 s; a client (or a proxy such as a load
    // balancer, often idle for 60 s) that sends its next request just as that happens gets a
    // reset instead of an answer. Idle connections stay open longer than any such peer keeps them.
    server.keepAliveTimeout = KEEP_ALIVE_MS;
    server.headersTimeout = KEEP_ALIVE_MS + 1000;
    const port = await listen(server, config.port, config.host);
    if (config.previewHost === undefined && !isLoopbackHost(config.host)) {
      log.warn(
        `Previews open at http://p-<project id>.localhost:${port}, which only a browser on this machine reaches. For browsers on other machines, set WOLFPACK_PREVIEW_HOST to a wildcard DNS name that points here (e.g. WOLFPACK_PREVIEW_HOST=preview.example.net with *.preview.example.net pointing at this server; see the README, "Preview origins").`,
      );
    }
    const shownHost = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
    const url = `http://${shownHost.includes(':') ? `[${shownHost}]` : shownHost}:${port}`;
    const sweeper = setInterval(() => void sessions.sweep().catch((e) => log.warn('session sweep failed', e)), 3600_000);
    sweeper.unref();
    void sessions.sweep().catch(() => {});
    let closing: Promise<void> | undefined;
    return {
      url,
      port,
      database: db.kind,
      config,
      db,
      routes: app.routes,
      instanceId: app.runs.instanceId,
      proofThread: app.proofThread,
      close: () => {
        closing ??= (async () => {
          clearInterval(sweeper);
          await app.runs.stop();
          await app.proofThread?.close();
          await app.previewServers.close();
          await registry.close();
          // No new connections; open event streams end as finished responses (clients follow
          // them again elsewhere by Last-Event-ID), then whatever is left is dropped.
          const closed = new Promise((resolve) => server.close(resolve));
          void endEventStreams(koa).then(() => server.closeAllConnections());
          await closed;
          await closeDatabase();
        })();
        return closing;
      },
    };
  } catch (error) {
    // Nothing may stay open when start-up fails, or the process would never exit.
    await runs?.stop();
    await engines?.close();
    await closeDatabase();
    throw error;
  }
}

/** The configuration from `options.env` (else the process's environment), with the options' own values first. */
function readConfig(options: StartServerOptions): ServerConfig {
  const webDir = options.webDir === false ? undefined : (options.webDir ?? defaultWebDir());
  return loadConfig({ port: options.port, host: options.host, dataDir: options.dataDir, databaseUrl: options.databaseUrl, webDir }, options.env);
}

const KEEP_ALIVE_MS = 65_000;

/** Listens on `port` (0: any free one) and resolves to the port; a port in use is a sentence. */
function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      reject(error.code === 'EADDRINUSE' ? new Error(`Port ${port} on ${host} is already in use. Stop the other process or pass --port with a free port.`) : error);
    });
    server.listen(port, host, () => resolve((server.address() as { port: number }).port));
  });
}

