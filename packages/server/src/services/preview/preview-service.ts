import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/core';
import { AppError } from '@wolfpack/core';
import { findServerRoutes, planPreview, siteFileFor, type ExecProblem, type PreviewPlan, type ServerRoute } from '@wolfpack/core/proof';
import { versionFiles } from '../../db/version-files.js';
import { ProjectFile } from '../../entities/index.js';
import type { PreviewBuilds } from './preview-builds.js';
import type { ProxyReply, ProxyRequest } from './preview-proxy.js';
import type { PreviewServers, PreviewServerState } from './preview-servers.js';
import { isUuid } from '../projects/project-service.js';
import { assertVersion } from '../projects/version-reader.js';

/** How long a preview link works. */
export const PREVIEW_TTL_MS = 6 * 3600_000;

const CONTENT_TYPES: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  htm: 'text/html; charset=utf-8',
  css: 'text/css; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  mjs: 'text/javascript; charset=utf-8',
  json: 'application/json; charset=utf-8',
  map: 'application/json; charset=utf-8',
  svg: 'image/svg+xml',
  txt: 'text/plain; charset=utf-8',
  md: 'text/plain; charset=utf-8',
  xml: 'application/xml; charset=utf-8',
  webmanifest: 'application/manifest+json',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  avif: 'image/avif',
  ico: 'image/x-icon',
  woff: 'font/woff',
  woff2: 'font/woff2',
  ttf: 'font/ttf',
  otf: 'font/otf',
  wasm: 'application/wasm',
};

const NO_SERVERS: Extract<PreviewAnswer, { kind: 'page' }> = { kind: 'page', status: 503, title: 'No preview here', text: 'This server does not run the previews of HTTP servers.' };

/** What a preview link answers for a path. */
export type PreviewAnswer =
  | { kind: 'file'; content: string | Uint8Array; contentType: string }
  /** A page of Wolfpack's own about the preview: building, failed, nothing to show. */
  | { kind: 'page'; status: number; title: string; text: string; refreshSeconds?: number; problem?: ExecProblem; command?: string; repairHref?: string }
  | { kind: 'missing'; path: string };

const STEP_TEXT = { installing: 'Installing the dependencies…', building: 'Building the app…', starting: 'Starting the server…' } as const;

type PreviewPage = Extract<PreviewAnswer, { kind: 'page' }>;

/** What the link of an HTTP server's preview does with a request: a page of Wolfpack's, or send it to the server. */
export type ServerPreview = PreviewPage | { kind: 'running'; key: string; projectId: string; hash: string };

/** Plans kept at once (one a project version previewed lately); the least recently used is dropped. */
const PLANS_KEPT = 256;

/** A project version's preview plan. */
interface PlanEntry {
  /** Names the version's files (the preview builds and servers are kept by it). */
  hash: string;
  plan: PreviewPlan;
  paths: ReadonlySet<string>;
  /** What a server project's code and README name, for its page's links into the preview. */
  routes: ServerRoute[];
}

/** What "Open Preview" has to show for a project (the project page's button and its list of routes). */
export interface PreviewSummary {
  kind: PreviewPlan['kind'];
  /** Why there is nothing to show, when `kind` is `none`. */
  reason?: string;
  routes: ServerRoute[];
}

/** A preview's access: the owner and the project version the request sees. */
export interface PreviewAccess {
  userId: string;
  version: number;
  /** The link names its version (`?version=`): it stays on it as the project moves on. */
  pinned: boolean;
  /** The version is the project's current one (its files are the working copy, project_files). */
  current: boolean;
}

/**
 * Previews of generated projects, each served at the root of an origin of its own (see core's
 * preview-origin.ts). The owner asks Wolfpack for a signed, expiring link; the preview origin
 * exchanges it for a cookie of its own host, and every request there is checked against it. A
 * static site is served as stored; a bundled app as its sandboxed build (PreviewBuilds), built
 * on demand; an HTTP server as the server itself (PreviewServers).
 *
 * Links are signed with the project's and the owner's revocation numbers (table preview_epochs):
 * "Revoke preview links" and signing out everywhere end them at once, on every server.
 */
export class PreviewService {
  /** The plans of the project versions previewed lately, by `{projectId}/{version}`, so an asset request does not read every file. */
  private readonly plans = new Map<string, PlanEntry>();

  constructor(
    private readonly orm: MikroORM,
    private readonly secret: string,
    /** The time links are issued and checked against; tests move it to expire a link. */
    private readonly clock: () => Date = () => new Date(),
    private readonly builds?: PreviewBuilds,
    private readonly servers?: PreviewServers,
  ) {}

  /**
   * A signed token for the owner's preview of a project, valid until `expiresAt`: of its current
   * version as it moves on (`{expires}.{signature}`), or of the given `version` for good
   * (`{expires}.{version}.{signature}`, the version signed with the rest).
   */
  async link(userId: string, projectId: string, version?: number): Promise<{ token: string; expiresAt: Date }> {
    const owned = await this.owned(userId, projectId);
    if (version !== undefined) assertVersion(version, owned.version);
    const expires = this.clock().getTime() + PREVIEW_TTL_MS;
    // Opening the preview again is how its owner asks a server that failed to start anew.
    const known = this.plans.get(planKey(projectId, version ?? owned.version));
    if (known) this.servers?.retry(projectId, known.hash);
    const signature = this.sign(projectId, userId, expires, owned.epoch, version);
    return { token: version === undefined ? `${expires}.${signature}` : `${expires}.${version}.${signature}`, expiresAt: new Date(expires) };
  }

  /** What the preview of the project (its current version, or `version`) shows, for its owner. */
  async summary(userId: string, projectId: string, version?: number): Promise<PreviewSummary> {
    const owned = await this.owned(userId, projectId);
    if (version !== undefined) assertVersion(version, owned.version);
    const access: PreviewAccess = { userId, version: version ?? owned.version, pinned: version !== undefined, current: (version ?? owned.version) === owned.version };
    const { plan, routes } = await this.planOf(projectId, access);
    return plan.kind === 'none' ? { kind: plan.kind, reason: plan.reason, routes: [] } : { kind: plan.kind, routes };
  }

  /** Ends every link and preview cookie of the project issued so far, and stops its server here. */
  async revoke(userId: string, projectId: string): Promise<void> {
    await this.owned(userId, projectId);
    await this.bump(projectId);
    await this.servers?.stopProject(projectId);
  }

  /**
   * Ends every preview link and cookie the user holds, and stops their previews' servers in this
   * process (signing out everywhere, closing the account). With several processes, a server
   * running in another one is cut off by the links' end and stops when idle.
   */
  async revokeAll(userId: string): Promise<void> {
    await this.bump(userId);
    await this.servers?.stopOwner(userId);
  }

  /**
   * The project version the token was made for (the current one, as it is now, unless the token
   * names a version); refuses forged, altered, revoked and expired tokens alike.
   */
  async access(projectId: string, token: string | undefined): Promise<PreviewAccess> {
    const parts = (token ?? '').split('.');
    const [expiresText, versionText, signature] = parts.length === 3 ? parts : [parts[0], undefined, parts[1]];
    const expires = Number(expiresText);
    // Written by link() alone: anything else in its place is no version of ours.
    const pinned = versionText === undefined ? undefined : /^[1-9][0-9]{0,9}$/.test(versionText) ? Number(versionText) : Number.NaN;
    const project = isUuid(projectId) && parts.length <= 3 ? await this.current(projectId) : undefined;
    const expected = project && Number.isSafeInteger(expires) && !Number.isNaN(pinned) ? Buffer.from(this.sign(projectId, project.userId, expires, project.epoch, pinned)) : null;
    const given = Buffer.from(signature ?? '');
    if (!project || !expected || expected.length !== given.length || !timingSafeEqual(expected, given) || expires < this.clock().getTime()) {
      throw new AppError('NOT_FOUND', 'This preview link is not valid or has expired. Open the preview again from Wolfpack.');
    }
    const version = pinned ?? project.version;
    return { userId: project.userId, version, pinned: pinned !== undefined, current: version === project.version };
  }

  /**
   * What the preview answers for a request path (`/`, `/app.js`, `/habits/3`) of a project version
   * it gave access to (see {@link access}); `navigation`: a page is asked for, not a resource.
   */
  async answer(projectId: string, access: PreviewAccess, requestPath: string, navigation: boolean): Promise<PreviewAnswer> {
    const current = await this.planOf(projectId, access);
    const path = requestPath.replace(/^\/+/, '') || 'index.html';
    switch (current.plan.kind) {
      case 'static': {
        const found = siteFileFor(requestPath, (p) => current.paths.has(p), navigation);
        return found === undefined ? this.nothingAt(path) : this.storedFile(projectId, access, found);
      }
      case 'bundled':
        return this.builtFile(projectId, access, current.hash, current.plan, requestPath, navigation);
      case 'server':
        // Answered by the preview's proxy (see server()).
        return NO_SERVERS;
      case 'none':
        return path === 'index.html' ? { kind: 'page', status: 404, title: 'Nothing to preview', text: `${current.plan.reason} Open the project in Wolfpack to view its files or download them as a ZIP.` } : { kind: 'missing', path };
      default: {
        const unreachable: never = current.plan;
        throw new Error(`unknown preview plan ${JSON.stringify(unreachable)}`);
      }
    }
  }

  /**
   * What the link answers when the project is an HTTP server; undefined for other projects (their
   * files are answered by {@link answer}). The server is started by the first request.
   */
  async server(projectId: string, access: PreviewAccess): Promise<ServerPreview | undefined> {
    const current = await this.planOf(projectId, access);
    if (current.plan.kind !== 'server') return undefined;
    if (!this.servers) return NO_SERVERS;
    const { key, state } = this.servers.open(projectId, access.userId, current.hash, current.plan.plan, () => this.filesOf(projectId, access), { pinned: access.pinned });
    return this.serverPage(projectId, current.hash, state) ?? { kind: 'running', key, projectId, hash: current.hash };
  }

  /** Sends a request to the running server; a page of Wolfpack's when it could not answer. */
  async forward(preview: Extract<ServerPreview, { kind: 'running' }>, request: ProxyRequest): Promise<Extract<ProxyReply, { kind: 'response' }> | PreviewPage> {
    if (!this.servers) return NO_SERVERS;
    const reply = await this.servers.forward(preview.key, request);
    switch (reply.kind) {
      case 'response':
        return reply;
      case 'failed':
        return { kind: 'page', status: reply.why === 'request-too-large' ? 413 : reply.why === 'timeout' ? 504 : 502, title: 'The app did not answer', text: reply.message };
      case 'gone':
        return (reply.state && this.serverPage(preview.projectId, preview.hash, reply.state)) ?? { kind: 'page', status: 503, title: 'The server was stopped', text: 'The server of this preview was stopped (it was idle, or others needed the room). Reload the page to start it again.' };
      default: {
        const unreachable: never = reply;
        throw new Error(`unknown proxy reply ${JSON.stringify(unreachable)}`);
      }
    }
  }

  /** Wolfpack's page for a server that is not running, or undefined when it is. */
  private serverPage(projectId: string, hash: string, state: PreviewServerState): PreviewPage | undefined {
    switch (state.status) {
      case 'starting':
        return { kind: 'page', status: 200, title: 'Starting the server…', text: `${STEP_TEXT[state.step]} This page shows the app as soon as its server listens.`, refreshSeconds: 1 };
      case 'running':
        return undefined;
      case 'failed':
        return {
          kind: 'page',
          status: 200,
          title: state.crashed ? 'The server stopped' : 'The server did not start',
          text: state.crashed
            ? 'The server of this version stopped while the preview was open. Repair it in Wolfpack, or open the preview again from Wolfpack to start it anew.'
            : 'The server of this version did not start. Repair it in Wolfpack, then open the preview again.',
          problem: state.problem,
          command: state.command,
          repairHref: `/projects/${projectId}`,
        };
      case 'no-room':
        // Nothing was started or kept: the page's next refresh asks again.
        return { kind: 'page', status: 503, title: 'No room for this preview yet', text: `This app is an HTTP server, and it is not running yet: ${state.reason}. This page tries again every 10 seconds.`, refreshSeconds: 10 };
      case 'unavailable':
        // Not the project's fault: tried again by the next request.
        this.servers?.retry(projectId, hash);
        return { kind: 'page', status: 503, title: 'No preview for this app here', text: `This app is an HTTP server, and it cannot be run on this server: ${state.reason}.` };
      default: {
        const unreachable: never = state;
        throw new Error(`unknown server state ${JSON.stringify(unreachable)}`);
      }
    }
  }

  private nothingAt(path: string): PreviewAnswer {
    return path === 'index.html' ? { kind: 'page', status: 404, title: 'Nothing to preview', text: 'This project has no index.html, so there is no page to show. Open the project in Wolfpack to view its files or download them as a ZIP.' } : { kind: 'missing', path };
  }

  private async storedFile(projectId: string, access: PreviewAccess, path: string): Promise<PreviewAnswer> {
    const content = (await this.filesOf(projectId, access, path))[path];
    if (content === undefined) return this.nothingAt(path);
    return { kind: 'file', content, contentType: contentType(path) };
  }

  private async builtFile(projectId: string, access: PreviewAccess, hash: string, plan: Extract<PreviewPlan, { kind: 'bundled' }>, requestPath: string, navigation: boolean): Promise<PreviewAnswer> {
    if (!this.builds) return { kind: 'page', status: 503, title: 'No preview here', text: 'This server does not build previews.' };
    const state = await this.builds.site(hash, plan.plan, () => this.filesOf(projectId, access));
    const repairHref = `/projects/${projectId}`;
    switch (state.status) {
      case 'waiting':
      case 'building':
        return {
          kind: 'page',
          status: 200,
          title: 'Building preview…',
          text: state.status === 'waiting' ? 'Waiting for another preview to finish building…' : `${STEP_TEXT[state.step]} This page shows the app as soon as it is built.`,
          refreshSeconds: 1,
        };
      case 'failed':
        return { kind: 'page', status: 200, title: 'The preview could not be built', text: `The ${state.tool} build of this version failed. Repair it in Wolfpack, then open the preview again.`, problem: state.problem, command: state.command, repairHref };
      case 'unavailable':
        return { kind: 'page', status: 503, title: 'No preview for this app here', text: `This app is built by a bundler, and it cannot be built on this server: ${state.reason}.` };
      case 'ready': {
        const found = siteFileFor(requestPath, (p) => state.files.has(p), navigation);
        const content = found === undefined ? undefined : state.files.get(found);
        return found !== undefined && content !== undefined ? { kind: 'file', content, contentType: contentType(found) } : { kind: 'missing', path: requestPath.replace(/^\/+/, '') };
      }
      default: {
        const unreachable: never = state;
        throw new Error(`unknown build state ${JSON.stringify(unreachable)}`);
      }
    }
  }

  /**
   * The files of the version the access sees (one file with `path`): the current version's are
   * the working copy, an earlier one's are read from its stored changes.
   */
  private async filesOf(projectId: string, access: PreviewAccess, path?: string): Promise<Record<string, string>> {
    const em = this.orm.em.fork();
    if (!access.current) return versionFiles(em, projectId, access.version, path);
    const rows = await em.find(ProjectFile, path === undefined ? { projectId } : { projectId, path }, { populate: ['content'] });
    return Object.fromEntries(rows.map((r) => [r.path, r.content]));
  }

  /** The project version's preview plan: read once per version (all files), then kept while in use. */
  private async planOf(projectId: string, access: PreviewAccess): Promise<PlanEntry> {
    const key = planKey(projectId, access.version);
    const known = this.plans.get(key);
    if (known) {
      this.plans.delete(key);
      this.plans.set(key, known);
      return known;
    }
    const files = await this.filesOf(projectId, access);
    const hash = createHash('sha256');
    for (const path of Object.keys(files).sort()) hash.update(path).update('\0').update(files[path]!).update('\0');
    const plan = planPreview(files);
    const entry = { hash: hash.digest('hex').slice(0, 40), plan, paths: new Set(Object.keys(files)), routes: plan.kind === 'server' ? findServerRoutes(files) : [] };
    this.plans.set(key, entry);
    for (const old of [...this.plans.keys()].slice(0, Math.max(0, this.plans.size - PLANS_KEPT))) this.plans.delete(old);
    return entry;
  }

  /** A link that names a version has it in what is signed: it cannot be moved to another one. */
  private sign(projectId: string, userId: string, expires: number, epoch: number, version?: number): string {
    const pinned = version === undefined ? '' : `\u0000v${version}`;
    return createHmac('sha256', this.secret).update(`preview\u0000${projectId}\u0000${userId}\u0000${expires}\u0000${epoch}${pinned}`).digest('base64url');
  }

  /** The user's project with its revocation number; not found for anyone else's. */
  private async owned(userId: string, projectId: string): Promise<{ version: number; epoch: number }> {
    const project = isUuid(projectId) ? await this.current(projectId) : undefined;
    if (!project || project.userId !== userId) throw new AppError('NOT_FOUND', 'Project not found');
    return project;
  }

  /** A project's owner, version and revocation number (its own and its owner's), in one statement. */
  private async current(projectId: string): Promise<{ userId: string; version: number; epoch: number } | undefined> {
    const rows: { user_id: string; version: number; epoch: string | number }[] = await this.orm.em
      .fork()
      .getConnection()
      .execute(
        'select p.user_id, p.version, (select coalesce(sum(e.epoch), 0) from preview_epochs e where e.subject_id in (p.id, p.user_id)) as epoch from projects p where p.id = ?',
        [projectId],
      );
    const row = rows[0];
    return row ? { userId: row.user_id, version: Number(row.version), epoch: Number(row.epoch) } : undefined;
  }

  private async bump(subjectId: string): Promise<void> {
    await this.orm.em
      .fork()
      .getConnection()
      .execute('insert into preview_epochs (subject_id, epoch) values (?, 1) on conflict (subject_id) do update set epoch = preview_epochs.epoch + 1', [subjectId]);
  }
}

function planKey(projectId: string, version: number): string {
  return `${projectId}/${version}`;
}

function contentType(path: string): string {
  const ext = path.split('.').pop()?.toLowerCase() ?? '';
  // Anything else is shown as text, never run or downloaded.
  return CONTENT_TYPES[ext] ?? 'text/plain; charset=utf-8';
}
