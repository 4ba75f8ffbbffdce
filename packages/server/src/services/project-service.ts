import { randomUUID } from 'node:crypto';
import { LockMode, type EntityManager, type MikroORM } from '@mikro-orm/core';
import { AppError, type Project as ProjectPayload, type ProjectSummary } from '@wolfpack/core';
import { Project, ProjectVersion } from '../entities/index.js';

export interface RunResult {
  userId: string;
  conversationId: string;
  idea: string;
  /** Set when the run continued an existing project. */
  projectId: string | null;
  files: Record<string, string>;
  processingMs: number;
  costMillicents: number;
}

/** Projects: the files runs produce, scoped to their owner; earlier versions kept on update. */
export class ProjectService {
  constructor(private readonly orm: MikroORM) {}

  /** The project, or a 404 that does not reveal whether it exists for someone else. */
  async getOwned(userId: string, id: string, em: EntityManager = this.orm.em.fork()) {
    const project = isUuid(id) ? await em.findOne(Project, { id, userId }, { populate: ['fsIndex'] }) : null;
    if (!project) throw new AppError('NOT_FOUND', 'Project not found');
    return project;
  }

  async list(userId: string): Promise<ProjectSummary[]> {
    const rows = await this.orm.em.fork().find(Project, { userId }, { orderBy: { updatedAt: 'desc' } });
    return rows.map((p) => ({
      id: p.id,
      idea: p.idea,
      createdAt: p.createdAt.toISOString(),
      updatedAt: p.updatedAt.toISOString(),
      folderId: p.folderId,
      fileCount: p.fileCount,
      sessionCount: p.sessionCount,
      totalCostCents: Math.ceil(p.totalCostMillicents / 1000),
      replitTotalCostCents: 0,
      totalProcessingTimeMs: p.totalProcessingTimeMs,
    }));
  }

  async detail(userId: string, id: string): Promise<{ project: ProjectPayload; files: string[] }> {
    const p = await this.getOwned(userId, id);
    return {
      project: {
        id: p.id,
        idea: p.idea,
        createdAt: p.createdAt.toISOString(),
        updatedAt: p.updatedAt.toISOString(),
        folderId: p.folderId,
        fsIndex: p.fsIndex,
      },
      files: Object.keys(p.fsIndex).sort(),
    };
  }

  /**
   * Every file in one text, each under a clear path header, ready to paste into Replit. Files
   * are sorted by path so the text is the same every time.
   */
  async consolidatedCode(userId: string, id: string): Promise<{ code: string; fileCount: number }> {
    const p = await this.getOwned(userId, id);
    const paths = Object.keys(p.fsIndex).sort();
    const rule = '='.repeat(72);
    const code = paths.map((path) => `${rule}\nFILE: ${path}\n${rule}\n${p.fsIndex[path]}${p.fsIndex[path]!.endsWith('\n') ? '' : '\n'}`).join('\n');
    return { code, fileCount: paths.length };
  }

  /**
   * Stores a run's files: a new project, or a new version of the continued one with the previous
   * files kept in project_versions so nothing a run replaces is lost.
   */
  async saveRunResult(result: RunResult): Promise<string> {
    return this.orm.em.fork().transactional(async (em) => {
      const now = new Date();
      if (result.projectId) {
        const existing = await em.findOne(Project, { id: result.projectId, userId: result.userId }, {
          populate: ['fsIndex'],
          lockMode: LockMode.PESSIMISTIC_WRITE,
        });
        if (existing) {
          em.create(ProjectVersion, {
            projectId: existing.id,
            version: existing.version,
            idea: existing.idea,
            fsIndex: existing.fsIndex,
            conversationId: result.conversationId,
            createdAt: now,
          });
          existing.fsIndex = result.files;
          existing.fileCount = Object.keys(result.files).length;
          existing.version += 1;
          existing.sessionCount += 1;
          existing.totalProcessingTimeMs += result.processingMs;
          existing.totalCostMillicents += result.costMillicents;
          existing.updatedAt = now;
          return existing.id;
        }
      }
      const project = em.create(Project, {
        id: randomUUID(),
        userId: result.userId,
        idea: result.idea,
        fsIndex: result.files,
        fileCount: Object.keys(result.files).length,
        folderId: null,
        version: 1,
        sessionCount: 1,
        totalProcessingTimeMs: result.processingMs,
        totalCostMillicents: result.costMillicents,
        createdAt: now,
        updatedAt: now,
      });
      return project.id;
    });
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids in URLs are user input: anything that is not a UUID cannot name a row (and must not 500). */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}
