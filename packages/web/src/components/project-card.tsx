import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import type { ProjectSummary } from '@wolfpack/core';
import { Check, ChevronRight, FileCode2, Folder as FolderIcon, FolderInput, GripVertical, Layers, MoreHorizontal, Trash2 } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { cn } from '../lib/cn';
import type { FolderNode } from '../lib/folder-tree';
import { formatDateTime } from '../lib/format-time';
import { setProjectDragData } from '../lib/project-drag';
import { projectTitle } from '../lib/project-list';
import { Card } from './card';

export interface ProjectCardProps {
  project: ProjectSummary;
  /** The folders in display order (depth-first), for Move to… */
  folders: readonly FolderNode[];
  onDelete: () => void;
  onMove: (folderId: string | null) => void;
}

const itemClass =
  'flex cursor-pointer items-center gap-2.5 rounded-lg px-2.5 py-2 text-sm text-zinc-700 outline-none data-[disabled]:cursor-default data-[disabled]:opacity-50 data-[highlighted]:bg-zinc-100 dark:text-zinc-300 dark:data-[highlighted]:bg-zinc-800';
const menuClass =
  'menu-content z-50 max-h-80 min-w-52 overflow-y-auto rounded-xl border border-zinc-200 bg-white p-1.5 shadow-lg dark:border-zinc-800 dark:bg-zinc-900';

/**
 * One project of All Projects (spec core §2): the idea's first line as title, linking to the
 * project, its file count and last update; delete, and Move to… a folder (or drag it onto one).
 */
export function ProjectCard({ project, folders, onDelete, onMove }: ProjectCardProps) {
  const title = projectTitle(project.idea);
  const rest = project.idea.trim().split('\n').slice(1).join(' ').trim();
  const currentFolder = project.folderId ?? null;
  const [dragging, setDragging] = useState(false);

  return (
    <Card
      className={cn(
        'group relative flex cursor-grab flex-col gap-3 p-4 transition-all hover:border-brand/40 hover:shadow-md active:cursor-grabbing',
        dragging && 'opacity-50 ring-2 ring-brand',
      )}
      draggable
      onDragStart={(event) => {
        setProjectDragData(event.dataTransfer, project.id, title);
        setDragging(true);
      }}
      onDragEnd={() => setDragging(false)}
      data-testid="project-card"
      data-project-id={project.id}
    >
      <div className="flex items-start gap-3">
        <span className="grid h-10 w-10 shrink-0 place-items-center rounded-xl bg-brand/10 text-brand-strong">
          <FileCode2 className="h-5 w-5" aria-hidden />
        </span>
        <div className="min-w-0 flex-1">
          <h3 className="truncate font-semibold">
            <Link
              to={`/projects/${encodeURIComponent(project.id)}`}
              draggable={false}
              className="outline-none after:absolute after:inset-0 after:rounded-xl hover:text-brand-strong focus-visible:after:ring-2 focus-visible:after:ring-brand"
              data-testid="project-card-title"
            >
              {title}
            </Link>
          </h3>
          {rest ? <p className="mt-0.5 line-clamp-2 text-sm text-zinc-500 dark:text-zinc-400">{rest}</p> : null}
        </div>
        <div className="relative z-10 flex shrink-0 items-center gap-0.5">
          <DropdownMenu.Root modal={false}>
            <DropdownMenu.Trigger
              className="grid h-8 w-8 cursor-pointer place-items-center rounded-lg text-zinc-500 transition-colors hover:bg-zinc-100 hover:text-zinc-900 data-[state=open]:bg-zinc-100 dark:hover:bg-zinc-800 dark:hover:text-white dark:data-[state=open]:bg-zinc-800"
              aria-label={`More actions for ${title}`}
              data-testid="project-menu"
            >
              <MoreHorizontal className="h-4 w-4" aria-hidden />
            </DropdownMenu.Trigger>
            <DropdownMenu.Portal>
              <DropdownMenu.Content align="end" sideOffset={6} className={menuClass}>
                <DropdownMenu.Sub>
                  <DropdownMenu.SubTrigger className={itemClass} data-testid="move-to">
                    <FolderInput className="h-4 w-4" aria-hidden />
                    Move to…
                    <ChevronRight className="ml-auto h-4 w-4 opacity-60" aria-hidden />
                  </DropdownMenu.SubTrigger>
                  <DropdownMenu.Portal>
                    <DropdownMenu.SubContent sideOffset={6} className={menuClass} data-testid="move-menu">
                      <MoveItem label="All Projects" depth={0} current={currentFolder === null} icon={<Layers className="h-4 w-4" aria-hidden />} onSelect={() => onMove(null)} />
                      {folders.map((node) => (
                        <MoveItem
                          key={node.folder.id}
                          label={node.folder.name}
                          depth={node.depth + 1}
                          current={currentFolder === node.folder.id}
                          icon={<FolderIcon className="h-4 w-4" aria-hidden />}
                          onSelect={() => onMove(node.folder.id)}
                        />
                      ))}
                    </DropdownMenu.SubContent>
                  </DropdownMenu.Portal>
                </DropdownMenu.Sub>
                <DropdownMenu.Separator className="my-1 h-px bg-zinc-200 dark:bg-zinc-800" />
                <DropdownMenu.Item onSelect={onDelete} className={cn(itemClass, 'text-red-600 dark:text-red-400')}>
                  <Trash2 className="h-4 w-4" aria-hidden />
                  Delete
                </DropdownMenu.Item>
              </DropdownMenu.Content>
            </DropdownMenu.Portal>
          </DropdownMenu.Root>
          <button
            type="button"
            onClick={onDelete}
            aria-label={`Delete ${title}`}
            title="Delete project"
            className="grid h-8 w-8 cursor-pointer place-items-center rounded-lg text-zinc-400 transition-colors hover:bg-red-50 hover:text-red-600 dark:hover:bg-red-500/10 dark:hover:text-red-400"
            data-testid="delete-project"
          >
            <Trash2 className="h-4 w-4" aria-hidden />
          </button>
        </div>
      </div>
      <div className="flex items-center gap-3 border-t border-zinc-100 pt-3 text-xs text-zinc-500 dark:border-zinc-800 dark:text-zinc-400">
        <span className="inline-flex items-center gap-1 font-medium text-zinc-700 dark:text-zinc-300" data-testid="project-file-count">
          {project.fileCount} {project.fileCount === 1 ? 'file' : 'files'}
        </span>
        <span aria-hidden>·</span>
        <time dateTime={project.updatedAt}>Updated {formatDateTime(project.updatedAt)}</time>
        <GripVertical className="ml-auto h-4 w-4 opacity-0 transition-opacity group-hover:opacity-60" aria-label="Drag onto a folder" />
      </div>
    </Card>
  );
}

function MoveItem({ label, depth, current, icon, onSelect }: { label: string; depth: number; current: boolean; icon: ReactNode; onSelect: () => void }) {
  return (
    <DropdownMenu.Item
      disabled={current}
      onSelect={onSelect}
      className={itemClass}
      style={{ paddingLeft: `${10 + depth * 12}px` }}
      data-testid="move-target"
    >
      {icon}
      <span className="truncate">{label}</span>
      {current ? <Check className="ml-auto h-4 w-4 text-brand" aria-label="Current folder" /> : null}
    </DropdownMenu.Item>
  );
}
