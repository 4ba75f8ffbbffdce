import * as ContextMenu from '@radix-ui/react-context-menu';
import type { Folder } from '@wolfpack/core';
import { ChevronRight, Folder as FolderIcon, FolderOpen, FolderPlus, Layers, MoreHorizontal, Pencil, Trash2 } from 'lucide-react';
import { useEffect, useMemo, useState, type DragEvent, type ReactNode } from 'react';
import type { useFolderActions } from '../hooks/use-folder-actions';
import { openContextMenuAt, useLongPress } from '../hooks/use-long-press';
import { cn } from '../lib/cn';
import { ancestorIds, buildFolderTree, visibleNodes, type FolderNode } from '../lib/folder-tree';
import { droppedProjectId, isProjectDrag } from '../lib/project-drag';
import { Card } from './card';
import { ConfirmDialog } from './confirm-dialog';
import { FolderNameDialog } from './folder-name-dialog';

export const ROOT_LABEL = 'All Projects';

export interface FolderSidebarProps {
  folders: readonly Folder[];
  loading: boolean;
  /** Projects directly in each folder (null: the root). */
  counts: ReadonlyMap<string | null, number>;
  selectedId: string | null;
  onSelect: (folderId: string | null) => void;
  actions: ReturnType<typeof useFolderActions>;
}

type DialogState =
  | { kind: 'create'; parent: Folder | null }
  | { kind: 'rename'; folder: Folder }
  | { kind: 'delete'; folder: Folder }
  | null;

/**
 * The folder tree (spec core §2): All Projects plus nested folders that expand and collapse. A
 * right click, or a press held for 700 ms, opens New Subfolder, Rename and Delete; a project card
 * dropped on a folder moves there.
 */
export function FolderSidebar({ folders, loading, counts, selectedId, onSelect, actions }: FolderSidebarProps) {
  const tree = useMemo(() => buildFolderTree(folders), [folders]);
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(() => new Set());
  const [dialog, setDialog] = useState<DialogState>(null);
  const byId = useMemo(() => new Map(folders.map((folder) => [folder.id, folder])), [folders]);

  // Selecting a folder opens it and the path to it (collapsing it afterwards stays possible).
  useEffect(() => {
    if (selectedId === null) return;
    const path = [selectedId, ...ancestorIds(folders, selectedId)];
    setExpanded((current) => (path.every((id) => current.has(id)) ? current : new Set([...current, ...path])));
  }, [folders, selectedId]);

  const toggle = (id: string) =>
    setExpanded((current) => {
      const next = new Set(current);
      if (!next.delete(id)) next.add(id);
      return next;
    });

  const labelOf = (folderId: string | null) => (folderId === null ? ROOT_LABEL : `"${byId.get(folderId)?.name ?? 'the folder'}"`);
  const drop = (folderId: string | null) => (projectId: string) => void actions.moveProject(projectId, folderId, labelOf(folderId));

  const rows = visibleNodes(tree, expanded);
  const closeDialog = (open: boolean) => (open ? undefined : setDialog(null));
  const openState = dialog?.kind;

  return (
    <Card className="flex flex-col overflow-hidden" data-testid="folder-sidebar">
      <div className="flex items-center justify-between border-b border-zinc-200 py-2 pr-2 pl-4 dark:border-zinc-800">
        <h2 className="text-sm font-semibold">Folders</h2>
        <button
          type="button"
          onClick={() => setDialog({ kind: 'create', parent: null })}
          className="grid h-8 w-8 cursor-pointer place-items-center rounded-lg text-zinc-500 transition-colors hover:bg-zinc-100 hover:text-zinc-900 dark:hover:bg-zinc-800 dark:hover:text-white"
          aria-label="New folder"
          title="New folder"
          data-testid="new-folder"
        >
          <FolderPlus className="h-4 w-4" aria-hidden />
        </button>
      </div>
      <nav aria-label="Folders" className="max-h-[70vh] overflow-y-auto p-2">
        <ul className="flex flex-col gap-0.5">
          <FolderRow
            label={ROOT_LABEL}
            icon={<Layers className="h-4 w-4" aria-hidden />}
            depth={0}
            count={counts.get(null) ?? 0}
            selected={selectedId === null}
            onSelect={() => onSelect(null)}
            onDropProject={drop(null)}
            testId="folder-root"
            menu={<MenuItem icon={<FolderPlus className="h-4 w-4" aria-hidden />} label="New Folder" onSelect={() => setDialog({ kind: 'create', parent: null })} />}
          />
          {rows.map((node) => (
            <FolderRow
              key={node.folder.id}
              folderId={node.folder.id}
              label={node.folder.name}
              depth={node.depth + 1}
              count={counts.get(node.folder.id) ?? 0}
              selected={selectedId === node.folder.id}
              onSelect={() => onSelect(node.folder.id)}
              onDropProject={drop(node.folder.id)}
              expander={node.children.length > 0 ? { open: expanded.has(node.folder.id), onToggle: () => toggle(node.folder.id) } : undefined}
              icon={selectedId === node.folder.id ? <FolderOpen className="h-4 w-4" aria-hidden /> : <FolderIcon className="h-4 w-4" aria-hidden />}
              testId="folder-row"
              menu={<FolderMenu node={node} onAction={setDialog} />}
            />
          ))}
        </ul>
        {loading ? (
          <p className="px-3 py-2 text-xs text-zinc-500" role="status">
            Loading folders...
          </p>
        ) : folders.length === 0 ? (
          <p className="px-3 py-3 text-xs leading-relaxed text-zinc-500 dark:text-zinc-400" data-testid="no-folders">
            No folders yet. Create one with the + button or by right-clicking All Projects, then drag projects onto it.
          </p>
        ) : null}
      </nav>

      <FolderNameDialog
        open={openState === 'create' || openState === 'rename'}
        onOpenChange={closeDialog}
        mode={dialog?.kind === 'rename' ? 'rename' : 'create'}
        initialName={dialog?.kind === 'rename' ? dialog.folder.name : ''}
        parentName={dialog?.kind === 'create' ? dialog.parent?.name : undefined}
        onSubmit={async (name) => {
          if (dialog?.kind === 'rename') return actions.renameFolder(dialog.folder.id, name);
          const parent = dialog?.kind === 'create' ? dialog.parent : null;
          const created = await actions.createFolder(name, parent?.id ?? null);
          if (created && parent) setExpanded((current) => new Set([...current, parent.id]));
          return created !== undefined;
        }}
      />
      <ConfirmDialog
        open={openState === 'delete'}
        onOpenChange={closeDialog}
        title={dialog?.kind === 'delete' ? `Delete "${dialog.folder.name}"?` : 'Delete folder?'}
        description="Its projects and subfolders are not deleted: they move to All Projects."
        pending={actions.deleting}
        testId="delete-folder-dialog"
        onConfirm={async () => {
          if (dialog?.kind !== 'delete') return;
          const { folder } = dialog;
          if (await actions.deleteFolder(folder)) {
            setDialog(null);
            if (selectedId === folder.id || ancestorIds(folders, selectedId ?? '').includes(folder.id)) onSelect(null);
          }
        }}
      />
    </Card>
  );
}

function FolderMenu({ node, onAction }: { node: FolderNode; onAction: (state: DialogState) => void }) {
  const { folder } = node;
  return (
    <>
      <MenuItem icon={<FolderPlus className="h-4 w-4" aria-hidden />} label="New Subfolder" onSelect={() => onAction({ kind: 'create', parent: folder })} />
      <MenuItem icon={<Pencil className="h-4 w-4" aria-hidden />} label="Rename" onSelect={() => onAction({ kind: 'rename', folder })} />
      <ContextMenu.Separator className="my-1 h-px bg-zinc-200 dark:bg-zinc-800" />
      <MenuItem icon={<Trash2 className="h-4 w-4" aria-hidden />} label="Delete" destructive onSelect={() => onAction({ kind: 'delete', folder })} />
    </>
  );
}

function MenuItem({ icon, label, onSelect, destructive = false }: { icon: ReactNode; label: string; onSelect: () => void; destructive?: boolean }) {
  return (
    <ContextMenu.Item
      onSelect={onSelect}
      className={cn(
        'flex cursor-pointer items-center gap-2.5 rounded-lg px-2.5 py-2 text-sm outline-none data-[highlighted]:bg-zinc-100 dark:data-[highlighted]:bg-zinc-800',
        destructive ? 'text-red-600 dark:text-red-400' : 'text-zinc-700 dark:text-zinc-300',
      )}
    >
      {icon}
      {label}
    </ContextMenu.Item>
  );
}

interface FolderRowProps {
  folderId?: string;
  label: string;
  icon: ReactNode;
  depth: number;
  count: number;
  selected: boolean;
  onSelect: () => void;
  onDropProject: (projectId: string) => void;
  expander?: { open: boolean; onToggle: () => void } | undefined;
  menu: ReactNode;
  testId: string;
}

function FolderRow({ folderId, label, icon, depth, count, selected, onSelect, onDropProject, expander, menu, testId }: FolderRowProps) {
  const longPress = useLongPress();
  const [dropping, setDropping] = useState(false);

  const onDragOver = (event: DragEvent<HTMLElement>) => {
    if (!isProjectDrag(event.dataTransfer)) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'move';
    setDropping(true);
  };
  const onDrop = (event: DragEvent<HTMLElement>) => {
    setDropping(false);
    const projectId = droppedProjectId(event.dataTransfer);
    if (!projectId) return;
    event.preventDefault();
    onDropProject(projectId);
  };

  return (
    <li>
      <ContextMenu.Root modal={false}>
        <ContextMenu.Trigger asChild>
          <div
            {...longPress}
            onDragOver={onDragOver}
            onDragEnter={onDragOver}
            onDragLeave={() => setDropping(false)}
            onDrop={onDrop}
            data-testid={testId}
            data-folder-id={folderId}
            data-selected={selected ? 'true' : undefined}
            data-drop-target={dropping ? 'true' : undefined}
            className={cn(
              'group relative flex items-center rounded-lg text-sm transition-colors select-none data-[state=open]:bg-zinc-100 dark:data-[state=open]:bg-zinc-800',
              selected ? 'bg-brand/10 font-medium text-brand-strong' : 'text-zinc-700 hover:bg-zinc-100 dark:text-zinc-300 dark:hover:bg-zinc-800/70',
              dropping && 'bg-brand/15 ring-2 ring-brand ring-inset',
            )}
            style={{ paddingLeft: `${4 + depth * 14}px` }}
          >
            {expander ? (
              <button
                type="button"
                onClick={expander.onToggle}
                aria-label={`${expander.open ? 'Collapse' : 'Expand'} ${label}`}
                aria-expanded={expander.open}
                className="grid h-6 w-5 shrink-0 cursor-pointer place-items-center rounded text-zinc-400 hover:text-zinc-900 dark:hover:text-white"
                data-testid="folder-toggle"
              >
                <ChevronRight className={cn('h-3.5 w-3.5 transition-transform', expander.open && 'rotate-90')} aria-hidden />
              </button>
            ) : (
              <span className="w-5 shrink-0" aria-hidden />
            )}
            <button
              type="button"
              onClick={onSelect}
              aria-current={selected ? 'true' : undefined}
              className="flex min-w-0 flex-1 cursor-pointer items-center gap-2 py-2 pr-1 pl-1 text-left outline-none"
              data-testid="folder-select"
            >
              <span className={cn('shrink-0', selected ? 'text-brand' : 'text-zinc-400')}>{icon}</span>
              <span className="truncate" data-testid="folder-name">
                {label}
              </span>
            </button>
            <span className="ml-1 shrink-0 rounded-full bg-zinc-100 px-1.5 text-xs text-zinc-500 tabular-nums group-hover:hidden dark:bg-zinc-800 dark:text-zinc-400" data-testid="folder-count">
              {count}
            </span>
            <button
              type="button"
              aria-label={`Actions for ${label}`}
              onClick={(event) => {
                const rect = event.currentTarget.getBoundingClientRect();
                openContextMenuAt(event.currentTarget, rect.left, rect.bottom);
              }}
              className="mr-1 hidden h-6 w-6 shrink-0 cursor-pointer place-items-center rounded text-zinc-500 group-hover:grid hover:bg-zinc-200 dark:hover:bg-zinc-700"
            >
              <MoreHorizontal className="h-4 w-4" aria-hidden />
            </button>
          </div>
        </ContextMenu.Trigger>
        <ContextMenu.Portal>
          <ContextMenu.Content
            className="menu-content z-50 min-w-48 rounded-xl border border-zinc-200 bg-white p-1.5 shadow-lg dark:border-zinc-800 dark:bg-zinc-900"
            data-testid="folder-menu"
          >
            {menu}
          </ContextMenu.Content>
        </ContextMenu.Portal>
      </ContextMenu.Root>
    </li>
  );
}
