import { createHmac, timingSafeEqual } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/core';
import { AppError } from '@wolfpack/core';
import { Project, ProjectFile } from '../entities/index.js';
import { isUuid } from './project-service.js';

/** How long a preview link works. */
const PREVIEW_TTL_MS = 6 * 3600_000;

const CONTENT_TYPES: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  htm: 'text/html; charset=utf-8',
  css: 'text/css; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  mjs: 'text/javascript; charset=utf-8',
  json: 'application/json; charset=utf-8',
  svg: 'image/svg+xml',
  txt: 'text/plain; charset=utf-8',
  md: 'text/plain; charset=utf-8',
  xml: 'application/xml; charset=utf-8',
  webmanifest: 'application/manifest+json',
};

/**
 * Previews of generated static sites. The owner's browser opens /preview/{id} with its session,
 * gets a signed, expiring link, and every file is then served under that link without cookies,
 * because the pages run sandboxed (an opaque origin) and their requests carry none.
 */
export class PreviewService {
  constructor(
    private readonly orm: MikroORM,
    private readonly secret: string,
    /** The time links are issued and checked against; tests move it to expire a link. */
    private readonly clock: () => Date = () => new Date(),
  ) {}

  async link(userId: string, projectId: string): Promise<string> {
    const project = isUuid(projectId) ? await this.orm.em.fork().findOne(Project, { id: projectId, userId }, { fields: ['id'] }) : null;
    if (!project) throw new AppError('NOT_FOUND', 'Project not found');
    const expires = this.clock().getTime() + PREVIEW_TTL_MS;
    return `/preview/${projectId}/${expires}.${this.sign(projectId, userId, expires)}/`;
  }

  /** The file a signed link asks for, or null when the project has no such file. */
  async file(projectId: string, token: string, path: string): Promise<{ content: string; contentType: string } | null> {
    const userId = await this.verify(projectId, token);
    const file = await this.orm.em.fork().findOne(ProjectFile, { projectId, path }, { populate: ['content'] });
    if (!file) {
      const project = await this.orm.em.fork().findOne(Project, { id: projectId, userId }, { fields: ['id'] });
      if (!project) throw new AppError('NOT_FOUND', 'Project not found');
      return null;
    }
    const ext = path.split('.').pop()?.toLowerCase() ?? '';
    return { content: file.content, contentType: CONTENT_TYPES[ext] ?? 'text/plain; charset=utf-8' };
  }

  private sign(projectId: string, userId: string, expires: number): string {
    return createHmac('sha256', this.secret).update(`preview\u0000${projectId}\u0000${userId}\u0000${expires}`).digest('base64url');
  }

  /** The owner the link was made for; refuses forged, altered and expired links alike. */
  private async verify(projectId: string, token: string): Promise<string> {
    const [expiresText, signature] = token.split('.');
    const expires = Number(expiresText);
    const project = isUuid(projectId) ? await this.orm.em.fork().findOne(Project, { id: projectId }, { fields: ['userId'] }) : null;
    const expected = project && Number.isFinite(expires) ? Buffer.from(this.sign(projectId, project.userId, expires)) : null;
    const given = Buffer.from(signature ?? '');
    if (!project || !expected || expected.length !== given.length || !timingSafeEqual(expected, given) || expires < this.clock().getTime()) {
      throw new AppError('NOT_FOUND', 'This preview link is not valid or has expired. Open the preview again from Wolfpack.');
    }
    return project.userId;
  }
}
