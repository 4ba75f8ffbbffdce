import type { ProjectDetailReply } from '@wolfpack/core';
import { useQueryClient } from '@tanstack/react-query';
import { FilePlus } from 'lucide-react';
import { useState } from 'react';
import { describeRequestFailure } from '../api/client';
import { isStaleEdit, useFileChange, type RecheckState } from '../api/file-edits';
import { queryKeys } from '../api/queries';
import { toast } from '../hooks/use-toast';
import type { FileTreeNode } from '../lib/file-tree';
import { Button } from './button';
import { Card } from './card';
import { FileEditor } from './file-editor';
import { FilePathDialog, type PathSubmitResult } from './file-path-dialog';
import { FileTreeList } from './file-tree-list';

export interface ProjectFilesTabProps {
  detail: ProjectDetailReply;
  tree: FileTreeNode[];
  /** The file shown; undefined when the project has none. */
  selected: string | undefined;
  /** Opens a file; null: whichever the project opens first. */
  onSelect: (path: string | null) => void;
}

/**
 * The project page's Files tab: the tree of files and the chosen file in the code editor. Every
 * save, new file, rename and delete is a new version of the project, checked by Proven Code.
 */
export function ProjectFilesTab({ detail, tree, selected, onSelect }: ProjectFilesTabProps) {
  const { project, files } = detail;
  const client = useQueryClient();
  const [recheck, setRecheck] = useState<RecheckState | null>(null);
  const change = useFileChange(project.id, setRecheck);
  const [creating, setCreating] = useState(false);

  async function reloadProject(): Promise<ProjectDetailReply | undefined> {
    const key = queryKeys.project(project.id);
    await client.invalidateQueries({ queryKey: key });
    return client.getQueryData<ProjectDetailReply>(key);
  }

  async function createFile(path: string): Promise<PathSubmitResult> {
    const expectedVersion = client.getQueryData<ProjectDetailReply>(queryKeys.project(project.id))?.version ?? detail.version;
    // A PUT to an existing path would overwrite it: a new file needs a free name.
    if (Object.hasOwn(project.fsIndex, path)) return { ok: false, message: `${path} exists already: open it from the list, or pick another name.`, stale: false };
    if (expectedVersion === undefined) return { ok: false, message: 'This server does not say which version the project is at, so files cannot be added here.', stale: false };
    try {
      const reply = await change.mutateAsync({ kind: 'create', path, expectedVersion });
      toast({ title: `Created as version ${reply.version.number}`, description: `${path} is a new, empty file.` });
      onSelect(path);
      return { ok: true };
    } catch (error) {
      return { ok: false, message: describeRequestFailure(error, { failed: 'The file could not be made.', exception: 'Check your connection and try again.' }), stale: isStaleEdit(error) };
    }
  }

  const newFile = (
    <>
      <Button size="sm" variant="ghost" onClick={() => setCreating(true)} disabled={change.isPending || detail.version === undefined} data-testid="new-file" aria-label="New file">
        <FilePlus className="h-4 w-4" aria-hidden />
        New file
      </Button>
      <FilePathDialog open={creating} onOpenChange={setCreating} mode="create" onSubmit={createFile} onReload={() => reloadProject().then(() => undefined)} />
    </>
  );

  if (files.length === 0) {
    return (
      <Card className="flex flex-col items-center gap-3 px-6 py-12 text-center text-sm text-zinc-600 dark:text-zinc-400" data-testid="no-files">
        This project has no files yet. Continue it to let the pack build some, or add one yourself.
        {newFile}
      </Card>
    );
  }
  return (
    <div className="grid grid-cols-1 items-start gap-4 lg:grid-cols-[17rem_minmax(0,1fr)]">
      <Card className="flex flex-col lg:sticky lg:top-20">
        <div className="flex items-center justify-between gap-2 border-b border-zinc-200 py-1.5 pr-2 pl-4 text-sm font-semibold dark:border-zinc-800">
          <span className="flex items-center gap-2">
            Files
            <span className="text-xs font-normal text-zinc-500 tabular-nums">{files.length}</span>
          </span>
          {newFile}
        </div>
        <div className="max-h-[60vh] overflow-y-auto p-2">
          <FileTreeList nodes={tree} selected={selected} onSelect={onSelect} />
        </div>
      </Card>
      {selected !== undefined ? (
        <FileEditor
          // A file of its own each: what was typed in one never shows in another.
          key={selected}
          projectId={project.id}
          path={selected}
          serverContent={Object.hasOwn(project.fsIndex, selected) ? (project.fsIndex[selected] ?? '') : ''}
          serverVersion={detail.version}
          verification={detail.verification}
          recheck={recheck}
          send={(edit) => change.mutateAsync(edit)}
          pending={change.isPending}
          reloadProject={reloadProject}
          onSelect={onSelect}
        />
      ) : null}
    </div>
  );
}
