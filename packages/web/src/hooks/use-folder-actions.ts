/**
 * The folder sidebar's actions (spec core §2 Folder tree sidebar, §8): create, rename and delete
 * with their toasts, plus moving a project. Every change refreshes /api/folders and the project
 * lists (the mutations invalidate them).
 */
import type { Folder } from '@wolfpack/core';
import { describeRequestFailure } from '../api/client';
import { useCreateFolder, useDeleteFolder, useMoveProject, useRenameFolder } from '../api/library';
import { toast } from './use-toast';

function failed(description: string) {
  toast({ title: 'Error', description, variant: 'destructive' });
}

export function useFolderActions() {
  const create = useCreateFolder();
  const rename = useRenameFolder();
  const remove = useDeleteFolder();
  const move = useMoveProject();

  return {
    /** Resolves with the new folder, or undefined after the failure toast. */
    async createFolder(name: string, parentFolderId: string | null): Promise<Folder | undefined> {
      try {
        const folder = await create.mutateAsync({ name, parentFolderId });
        toast({ title: 'Folder Created', description: `"${folder.name}" is ready. Drag projects onto it to file them.` });
        return folder;
      } catch {
        failed('Failed to create folder');
        return undefined;
      }
    },
    async renameFolder(id: string, name: string): Promise<boolean> {
      try {
        const folder = await rename.mutateAsync({ id, name });
        toast({ title: 'Folder Renamed', description: `The folder is now called "${folder.name}".` });
        return true;
      } catch {
        failed('Failed to rename folder');
        return false;
      }
    },
    async deleteFolder(folder: Folder): Promise<boolean> {
      try {
        await remove.mutateAsync(folder.id);
        toast({
          title: 'Folder Deleted',
          description: `"${folder.name}" is gone; its projects and subfolders moved to All Projects.`,
        });
        return true;
      } catch {
        failed('Failed to delete folder');
        return false;
      }
    },
    /** Moves a project into a folder (null: the root); says where it went. */
    async moveProject(projectId: string, folderId: string | null, folderLabel: string): Promise<boolean> {
      try {
        await move.mutateAsync({ id: projectId, folderId });
        toast({ title: 'Project Moved', description: `The project is now in ${folderLabel}.` });
        return true;
      } catch (error) {
        failed(describeRequestFailure(error, { failed: 'Failed to move project', exception: 'Failed to move project' }));
        return false;
      }
    },
    deleting: remove.isPending,
  };
}
