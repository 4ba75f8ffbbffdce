/** Folders of projects: GET/POST /api/folders, PUT/DELETE /api/folders/{id}. */
import { z } from 'zod';
import { entityId } from './common.js';

export const folderName = z
  .string()
  .trim()
  .min(1, 'Please enter a folder name')
  .max(100, 'Folder names must be at most 100 characters');

export const folder = z.object({ id: entityId, name: z.string(), parentFolderId: entityId.nullable() });
export type Folder = z.infer<typeof folder>;

export const foldersReply = z.object({ folders: z.array(folder) });
export type FoldersReply = z.infer<typeof foldersReply>;

/** parentFolderId null (or absent) creates a top-level folder. */
export const createFolderRequest = z.object({ name: folderName, parentFolderId: entityId.nullable().default(null) });
export type CreateFolderRequest = z.infer<typeof createFolderRequest>;
export type CreateFolderRequestInput = z.input<typeof createFolderRequest>;

export const renameFolderRequest = z.object({ name: folderName });
export type RenameFolderRequest = z.infer<typeof renameFolderRequest>;

/** Reply of create and rename (the spec does not show one; this is what clients may rely on). */
export const folderReply = z.object({ folder });
export type FolderReply = z.infer<typeof folderReply>;
