import type { ProjectDetailReply } from '@wolfpack/core';
import type { FileTreeNode } from '../lib/file-tree';
import { Card } from './card';
import { CodeViewer } from './code-viewer';
import { FileTreeList } from './file-tree-list';

export interface ProjectFilesTabProps {
  detail: ProjectDetailReply;
  tree: FileTreeNode[];
  /** The file shown; undefined when the project has none. */
  selected: string | undefined;
  onSelect: (path: string) => void;
}

/** The project page's Files tab: the tree of files and the chosen file. */
export function ProjectFilesTab({ detail, tree, selected, onSelect }: ProjectFilesTabProps) {
  const { project, files } = detail;
  if (files.length === 0) {
    return (
      <Card className="px-6 py-12 text-center text-sm text-zinc-600 dark:text-zinc-400" data-testid="no-files">
        This project has no files yet. Continue it to let the pack build some.
      </Card>
    );
  }
  return (
    <div className="grid grid-cols-1 items-start gap-4 lg:grid-cols-[17rem_minmax(0,1fr)]">
      <Card className="flex flex-col lg:sticky lg:top-20">
        <div className="flex items-center justify-between border-b border-zinc-200 px-4 py-2.5 text-sm font-semibold dark:border-zinc-800">
          Files
          <span className="text-xs font-normal text-zinc-500 tabular-nums">{files.length}</span>
        </div>
        <div className="max-h-[60vh] overflow-y-auto p-2">
          <FileTreeList nodes={tree} selected={selected} onSelect={onSelect} />
        </div>
      </Card>
      {selected !== undefined ? <CodeViewer path={selected} content={Object.hasOwn(project.fsIndex, selected) ? (project.fsIndex[selected] ?? '') : ''} /> : null}
    </div>
  );
}
