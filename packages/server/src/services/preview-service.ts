import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/core';
import { AppError } from '@wolfpack/core';
import { planPreview, type ExecProblem, type PreviewPlan } from '@wolfpack/core/proof';
import { Project, ProjectFile } from '../entities/index.js';
import type { PreviewBuilds } from './preview-builds.js';
import type { ProxyReply, ProxyRequest } from './preview-proxy.js';
import type { PreviewServers, PreviewServerState } from './preview-servers.js';
import { isUuid } from './project-service.js';

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

/**
 * Previews of generated projects. The owner's browser opens /preview/{id} with its session, gets
 * a signed, expiring link, and every file is then served under that link without cookies,
 * because the pages run sandboxed (an opaque origin) and their requests carry none. A static site
 * is served as stored; a bundled app as its sandboxed build (PreviewBuilds), built on demand.
 */
export class PreviewService {
  /** The plan of each project's current version, so an asset request does not read every file. */
  private readonly plans = new Map<string, { version: number; hash: string; plan: PreviewPlan }>();

  constructor(
    private readonly orm: MikroORM,
    private readonly secret: string,
    /** The time links are issued and checked against; tests move it to expire a link. */
    private readonly clock: () => Date = () => new Date(),
    private readonly builds?: PreviewBuilds,
    private readonly servers?: PreviewServers,
  ) {}

  async link(userId: string, projectId: string): Promise<{ path: string; expiresAt: Date }> {
    const project = isUuid(projectId) ? await this.orm.em.fork().findOne(Project, { id: projectId, userId }, { fields: ['id'] }) : null;
    if (!project) throw new AppError('NOT_FOUND', 'Project not found');
    const expires = this.clock().getTime() + PREVIEW_TTL_MS;
    // Opening the preview again is how its owner asks a server that failed to start anew.
    const known = this.plans.get(projectId);
    if (known) this.servers?.retry(projectId, known.hash);
    return { path: `/preview/${projectId}/${expires}.${this.sign(projectId, userId, expires)}/`, expiresAt: new Date(expires) };
  }

  /** What the signed link answers for `path` (index.html for the link itself). */
  async answer(projectId: string, token: string, path: string): Promise<PreviewAnswer> {
    const project = await this.verify(projectId, token);
    const current = await this.planOf(projectId, project.version);
    switch (current.plan.kind) {
      case 'static':
        return this.storedFile(projectId, path);
      case 'bundled':
        return this.builtFile(projectId, current.hash, current.plan, path);
      case 'server':
        // Answered by the preview proxy (see server()), which runs ahead of this route.
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
  async server(projectId: string, token: string): Promise<ServerPreview | undefined> {
    const project = await this.verify(projectId, token);
    const current = await this.planOf(projectId, project.version);
    if (current.plan.kind !== 'server') return undefined;
    if (!this.servers) return NO_SERVERS;
    const { key, state } = this.servers.open(projectId, current.hash, current.plan.plan, () => this.allFiles(projectId));
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

  private async storedFile(projectId: string, path: string): Promise<PreviewAnswer> {
    const file = await this.orm.em.fork().findOne(ProjectFile, { projectId, path }, { populate: ['content'] });
    if (!file) return path === 'index.html' ? { kind: 'page', status: 404, title: 'Nothing to preview', text: 'This project has no index.html, so there is no page to show. Open the project in Wolfpack to view its files or download them as a ZIP.' } : { kind: 'missing', path };
    return { kind: 'file', content: file.content, contentType: contentType(path) };
  }

  private async builtFile(projectId: string, hash: string, plan: Extract<PreviewPlan, { kind: 'bundled' }>, path: string): Promise<PreviewAnswer> {
    if (!this.builds) return { kind: 'page', status: 503, title: 'No preview here', text: 'This server does not build previews.' };
    const state = await this.builds.site(hash, plan.plan, () => this.allFiles(projectId));
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
        const found = state.files.get(path);
        if (found) return { kind: 'file', content: found, contentType: contentType(path) };
        // An app that routes by path (history API) asks for its routes; they are its index.html.
        const spa = !/\.[\w]+$/.test(path.split('/').pop() ?? '') && state.files.get('index.html');
        return spa ? { kind: 'file', content: spa, contentType: contentType('index.html') } : { kind: 'missing', path };
      }
      default: {
        const unreachable: never = state;
        throw new Error(`unknown build state ${JSON.stringify(unreachable)}`);
      }
    }
  }

  private async allFiles(projectId: string): Promise<Record<string, string>> {
    const rows = await this.orm.em.fork().find(ProjectFile, { projectId }, { populate: ['content'] });
    return Object.fromEntries(rows.map((r) => [r.path, r.content]));
  }

  /** The project version's preview plan: read once per version (all files), then kept. */
  private async planOf(projectId: string, version: number): Promise<{ version: number; hash: string; plan: PreviewPlan }> {
    const known = this.plans.get(projectId);
    if (known && known.version === version) return known;
    const files = await this.allFiles(projectId);
    const hash = createHash('sha256');
    for (const path of Object.keys(files).sort()) hash.update(path).update('\0').update(files[path]!).update('\0');
    const entry = { version, hash: hash.digest('hex').slice(0, 40), plan: planPreview(files) };
    this.plans.set(projectId, entry);
    return entry;
  }

  private sign(projectId: string, userId: string, expires: number): string {
    return createHmac('sha256', this.secret).update(`preview\u0000${projectId}\u0000${userId}\u0000${expires}`).digest('base64url');
  }

  /** The project the link was made for; refuses forged, altered and expired links alike. */
  private async verify(projectId: string, token: string): Promise<{ userId: string; version: number }> {
    const [expiresText, signature] = token.split('.');
    const expires = Number(expiresText);
    const project = isUuid(projectId) ? await this.orm.em.fork().findOne(Project, { id: projectId }, { fields: ['userId', 'version'] }) : null;
    const expected = project && Number.isFinite(expires) ? Buffer.from(this.sign(projectId, project.userId, expires)) : null;
    const given = Buffer.from(signature ?? '');
    if (!project || !expected || expected.length !== given.length || !timingSafeEqual(expected, given) || expires < this.clock().getTime()) {
      throw new AppError('NOT_FOUND', 'This preview link is not valid or has expired. Open the preview again from Wolfpack.');
    }
    return { userId: project.userId, version: project.version };
  }
}

function contentType(path: string): string {
  const ext = path.split('.').pop()?.toLowerCase() ?? '';
  // Anything else is shown as text, never run or downloaded.
  return CONTENT_TYPES[ext] ?? 'text/plain; charset=utf-8';
}
