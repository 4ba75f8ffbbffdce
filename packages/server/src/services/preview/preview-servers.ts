/**
 * The running HTTP servers behind previews of server projects, one per project version: started in the sandbox on the first request to a link, stopped after
 * WOLFPACK_PREVIEW_IDLE_MINUTES (10) without requests, at most WOLFPACK_PREVIEW_SERVERS (3) at
 * once and WOLFPACK_PREVIEW_SERVERS_PER_USER (2) per user, and all stopped when the Wolfpack
 * server closes. A new server never stops another user's: it takes the place of its owner's own
 * least recently used one when the owner has their share, or when the process is full and they
 * have one; a user with none while others fill the process is told so, and the page tries again
 * (another user's preview holds what its users typed into it). A server that crashes, or never listens, stays "failed" with its output
 * until its owner opens the preview again from Wolfpack (or a new version replaces it).
 *
 * A server is the project's own, never shared with another project whose files are the same (a
 * copy bought in the Showcase, say): it holds what its users typed into it.
 */
import { Agent } from 'node:http';
import type { ExecProblem, PreviewServer, PreviewServerStep, ProofEnv, ServerPlan } from '@wolfpack/core/proof';
import { startPreviewServer } from '@wolfpack/core/proof';
import { forwardRequest, isBodyless, PROXY_LIMITS, type ProxyLimits, type ProxyReply, type ProxyRequest } from './preview-proxy.js';

export type PreviewServerState =
  | { status: 'starting'; step: PreviewServerStep }
  | { status: 'running'; command: string }
  /** `crashed`: it ran, then stopped by itself; otherwise it never listened. */
  | { status: 'failed'; command: string; problem: ExecProblem; crashed: boolean }
  | { status: 'unavailable'; reason: string }
  /** Every server of the process is another user's, each within their share: nothing was started. */
  | { status: 'no-room'; reason: string };

export interface PreviewServersOptions {
  /** The sandbox's settings and WOLFPACK_PREVIEW_*; never passed to the servers themselves. */
  env: ProofEnv;
  /** Without a request for this long a server is stopped (WOLFPACK_PREVIEW_IDLE_MINUTES, checked in config/env.ts). */
  idleMs: number;
  /** Servers running at once (WOLFPACK_PREVIEW_SERVERS). */
  max: number;
  /** Servers one user may have running at once; one more stops their own least recently used (WOLFPACK_PREVIEW_SERVERS_PER_USER). @default max */
  perUser?: number;
  limits?: ProxyLimits;
}

interface Entry {
  /** `{projectId}/{hash of the version's files}` */
  key: string;
  projectId: string;
  /** The project's owner, whose signing out everywhere stops it. */
  ownerId: string;
  /** Started for a link that names its version: a newer current version does not replace it. */
  pinned: boolean;
  state: PreviewServerState;
  /** Stops the start, or the server once started. */
  abort: AbortController;
  server?: PreviewServer;
  agent?: Agent;
  /** Exchanges under way: a server is never idle while it answers. */
  active: number;
  idle?: NodeJS.Timeout;
  /** The start under way (install and sandbox), settled once it has a result. */
  startup?: Promise<void>;
}

/** Failures remembered (their pages), beyond the running servers. */
const FAILURES_KEPT = 32;

export class PreviewServers {
  /** In order of use: the first is the least recently used. */
  private readonly entries = new Map<string, Entry>();
  private readonly idleMs: number;
  private readonly max: number;
  private readonly perUser: number;
  private closing = false;

  constructor(private readonly options: PreviewServersOptions) {
    ({ idleMs: this.idleMs, max: this.max } = options);
    this.perUser = Math.min(options.perUser ?? options.max, options.max);
  }

  /**
   * The state of the server of a project version (`hash` names its files) and the key to send it
   * requests by, starting it when none is known. The server of the project's current version
   * stops the one of the version that was current before (its links have moved on); a server of a
   * link that names its version (`pinned`) stops none, and none stops it: it runs beside the
   * current one until idle, revoked, or its owner's share needs the room.
   */
  open(projectId: string, ownerId: string, hash: string, plan: ServerPlan, files: () => Promise<Record<string, string>>, options: { pinned?: boolean } = {}): { key: string; state: PreviewServerState } {
    const pinned = options.pinned ?? false;
    const key = `${projectId}/${hash}`;
    const known = this.entries.get(key);
    if (known) {
      // A link of this version's own now uses it too: it stays when the project moves on.
      if (pinned) known.pinned = true;
      this.touch(known);
      return { key, state: known.state };
    }
    if (this.closing) return { key, state: { status: 'unavailable', reason: 'the Wolfpack server is shutting down' } };
    if (!pinned) for (const older of [...this.entries.values()].filter((e) => e.projectId === projectId && !e.pinned)) void this.stop(older);
    if (!this.makeRoom(ownerId)) return { key, state: { status: 'no-room', reason: this.noRoomReason() } };
    const entry: Entry = { key, projectId, ownerId, pinned, state: { status: 'starting', step: 'installing' }, abort: new AbortController(), active: 0 };
    this.entries.set(key, entry);
    entry.startup = this.start(entry, plan, files);
    return { key, state: entry.state };
  }

  /** Forgets a failure, so that the next request starts the server anew (its owner opened the preview again). */
  retry(projectId: string, hash: string): void {
    const key = `${projectId}/${hash}`;
    const entry = this.entries.get(key);
    if (entry && (entry.state.status === 'failed' || entry.state.status === 'unavailable')) this.entries.delete(key);
  }

  /**
   * Sends one request to the running server of `key`. When the exchange fails because the server
   * crashed meanwhile, the reply says so and the state of `key` is then its failure.
   */
  async forward(key: string, request: ProxyRequest): Promise<ProxyReply | { kind: 'gone'; state: PreviewServerState | undefined }> {
    const entry = this.entries.get(key);
    if (!entry?.server || !entry.agent || entry.state.status !== 'running') return { kind: 'gone', state: entry?.state };
    const server = entry.server;
    const send = (agent: Agent) => {
      entry.active += 1;
      this.touch(entry);
      return forwardRequest(server.socketPath, agent, request, this.options.limits ?? PROXY_LIMITS, () => {
        entry.active -= 1;
        this.touch(entry);
      });
    };
    // A connection that failed is, most often, a server that just died: wait for its end to say which.
    const exitedWithin = (ms: number) => Promise.race([server.exited.then(() => true), new Promise<false>((resolve) => setTimeout(() => resolve(false), ms).unref())]);
    const gone = () => ({ kind: 'gone' as const, state: this.entries.get(key)?.state });
    let reply = await send(entry.agent);
    if (reply.kind === 'failed' && reply.why === 'connection') {
      if (await exitedWithin(1000)) return gone();
      // Else most often a kept-alive connection the app had closed (Python's http.server closes
      // after each answer: write EPIPE). A request without a body goes once more on a connection of
      // its own; one with a body was read in sending it and cannot be.
      if (isBodyless(request)) {
        const fresh = new Agent({ keepAlive: false });
        reply = await send(fresh);
        if (reply.kind !== 'response') fresh.destroy();
      }
      // Refused again: nothing listens any more, so the server is on its way out, however slowly a
      // busy machine reaps its sandbox. Its end says what the page shows.
      if (reply.kind === 'failed' && reply.why === 'connection' && (await exitedWithin(10_000))) return gone();
    }
    return reply;
  }

  /** Stops what runs of a project's preview: its links were revoked. */
  async stopProject(projectId: string): Promise<void> {
    await Promise.all([...this.entries.values()].filter((e) => e.projectId === projectId).map((entry) => this.stop(entry)));
  }

  /** Stops every preview server of a user's projects: they signed out everywhere, or closed the account. */
  async stopOwner(ownerId: string): Promise<void> {
    await Promise.all([...this.entries.values()].filter((e) => e.ownerId === ownerId).map((entry) => this.stop(entry)));
  }

  /** Stops every server and refuses new ones (the Wolfpack server is closing). */
  async close(): Promise<void> {
    this.closing = true;
    await Promise.all([...this.entries.values()].map((entry) => this.stop(entry)));
  }

  private touch(entry: Entry): void {
    if (this.entries.get(entry.key) !== entry) return;
    this.entries.delete(entry.key);
    this.entries.set(entry.key, entry);
    entry.idle?.refresh();
  }

  private holdsProcess(entry: Entry): boolean {
    return entry.state.status === 'starting' || entry.state.status === 'running';
  }

  /**
   * Makes room for one more server of `ownerId` by stopping their own least recently used ones
   * (never another user's), and forgets the oldest failures; false when there is no room to make.
   */
  private makeRoom(ownerId: string): boolean {
    const failures = [...this.entries.values()].filter((e) => !this.holdsProcess(e));
    for (const entry of failures.slice(0, Math.max(0, failures.length - FAILURES_KEPT))) this.entries.delete(entry.key);
    const live = [...this.entries.values()].filter((e) => this.holdsProcess(e));
    const mine = live.filter((e) => e.ownerId === ownerId);
    const others = live.length - mine.length;
    // What the owner must give up: beyond their share, and beyond what the others leave of the process.
    const keep = Math.min(this.perUser - 1, this.max - 1 - others);
    if (keep < 0) return false;
    for (const entry of mine.slice(0, Math.max(0, mine.length - keep))) void this.stop(entry);
    return true;
  }

  private noRoomReason(): string {
    const minutes = Math.round((this.idleMs / 60_000) * 10) / 10;
    return `this server runs at most ${this.max} app servers for previews at once, and other people's previews use them all, each within its owner's share (${this.perUser} per account), so none of them is stopped for yours. Yours starts as soon as one of them stops (a preview stops after ${minutes} minute${minutes === 1 ? '' : 's'} without use)`;
  }

  private async stop(entry: Entry): Promise<void> {
    if (this.entries.get(entry.key) === entry) this.entries.delete(entry.key);
    clearTimeout(entry.idle);
    entry.abort.abort();
    entry.agent?.destroy();
    // A start under way in the sandbox ends at once, and is waited for so that nothing of it
    // outlives the stop. An install (outside the sandbox, bounded by its own time limit) is not:
    // a shutdown would wait for it, and nothing is started after it once aborted.
    const installing = entry.state.status === 'starting' && entry.state.step === 'installing';
    if (!installing) await entry.startup;
    await entry.server?.stop();
  }

  private async start(entry: Entry, plan: ServerPlan, files: () => Promise<Record<string, string>>): Promise<void> {
    let started;
    try {
      started = await startPreviewServer(await files(), plan, {
        env: this.options.env,
        signal: entry.abort.signal,
        onStep: (step) => {
          if (entry.state.status === 'starting') entry.state = { status: 'starting', step };
        },
      });
    } catch (error) {
      entry.state = { status: 'unavailable', reason: `the server could not be started here (${(error as Error).message})` };
      return;
    }
    if (!started.ok) {
      entry.state = 'problem' in started ? { status: 'failed', command: started.command, problem: started.problem, crashed: false } : { status: 'unavailable', reason: started.unavailable };
      return;
    }
    const { server } = started;
    // Stopped (idle, evicted, closing) while it was starting.
    if (entry.abort.signal.aborted) {
      await server.stop();
      return;
    }
    entry.server = server;
    entry.agent = new Agent({ keepAlive: true, maxSockets: 32 });
    entry.state = { status: 'running', command: server.command };
    entry.idle = setTimeout(() => this.idleCheck(entry), this.idleMs);
    entry.idle.unref();
    void server.exited.then((exit) => {
      clearTimeout(entry.idle);
      entry.agent?.destroy();
      if (this.entries.get(entry.key) !== entry) return; // stopped by us
      if (exit.reason === 'crashed') entry.state = { status: 'failed', command: exit.command, problem: exit.problem, crashed: true };
      else this.entries.delete(entry.key); // its lifetime is over: the next request starts it again
    });
  }

  private idleCheck(entry: Entry): void {
    if (entry.active > 0) entry.idle?.refresh();
    else void this.stop(entry);
  }
}
