import { randomUUID } from 'node:crypto';
import type { EntityManager, MikroORM } from '@mikro-orm/core';
import { AppError, type Folder as FolderPayload } from '@wolfpack/core';
import { Folder, Project } from '../../entities/index.js';
import { isUuid } from './project-service.js';

/** Folders of projects, nested; everything scoped to the owner. */
export class FolderService {
  constructor(private readonly orm: MikroORM) {}

  async list(userId: string): Promise<FolderPayload[]> {
    const rows = await this.orm.em.fork().find(Folder, { userId }, { orderBy: { name: 'asc', createdAt: 'asc' } });
    return rows.map(toPayload);
  }

  async create(userId: string, name: string, parentFolderId: string | null): Promise<FolderPayload> {
    const em = this.orm.em.fork();
    if (parentFolderId) await this.getOwned(userId, parentFolderId, em);
    const folder = em.create(Folder, { id: randomUUID(), userId, name, parentFolderId, createdAt: new Date() });
    await em.flush();
    return toPayload(folder);
  }

  /** Renames, and moves when `parentFolderId` is given; a folder can never end up inside itself. */
  async update(userId: string, id: string, change: { name: string; parentFolderId?: string | null }): Promise<FolderPayload> {
    const em = this.orm.em.fork();
    const folder = await this.getOwned(userId, id, em);
    if (change.parentFolderId !== undefined && change.parentFolderId !== folder.parentFolderId) {
      if (change.parentFolderId) await this.assertNotInside(userId, id, change.parentFolderId, em);
      folder.parentFolderId = change.parentFolderId;
    }
    folder.name = change.name;
    await em.flush();
    return toPayload(folder);
  }

  /** Deletes the folder; its projects and subfolders move to the root. */
  async remove(userId: string, id: string): Promise<void> {
    await this.orm.em.fork().transactional(async (em) => {
      await this.getOwned(userId, id, em);
      await em.nativeUpdate(Project, { userId, folderId: id }, { folderId: null });
      await em.nativeUpdate(Folder, { userId, parentFolderId: id }, { parentFolderId: null });
      await em.nativeDelete(Folder, { id, userId });
    });
  }

  private async getOwned(userId: string, id: string, em: EntityManager) {
    const folder = isUuid(id) ? await em.findOne(Folder, { id, userId }) : null;
    if (!folder) throw new AppError('NOT_FOUND', 'Folder not found');
    return folder;
  }

  /** Walks up from the new parent: meeting the folder itself would make a cycle. */
  private async assertNotInside(userId: string, id: string, newParentId: string, em: EntityManager): Promise<void> {
    const all = new Map((await em.find(Folder, { userId }, { fields: ['id', 'parentFolderId'] })).map((f) => [f.id, f.parentFolderId ?? null]));
    if (!all.has(newParentId)) throw new AppError('NOT_FOUND', 'Folder not found');
    for (let at: string | null = newParentId, hops = 0; at && hops <= all.size; at = all.get(at) ?? null, hops++) {
      if (at === id) throw new AppError('CONFLICT', 'A folder cannot be moved into itself or one of its subfolders.');
    }
  }
}

function toPayload(f: { id: string; name: string; parentFolderId?: string | null }): FolderPayload {
  return { id: f.id, name: f.name, parentFolderId: f.parentFolderId ?? null };
}
