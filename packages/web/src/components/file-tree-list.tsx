import { ChevronRight, FileCode2, FileText, Folder, FolderOpen } from 'lucide-react';
import { useState } from 'react';
import { cn } from '../lib/cn';
import type { FileTreeNode } from '../lib/file-tree';
import { languageForPath } from '../lib/highlight';

export interface FileTreeListProps {
  nodes: readonly FileTreeNode[];
  selected: string | undefined;
  onSelect: (path: string) => void;
}

/** A project's files grouped by folder; folders fold, the open file is marked. */
export function FileTreeList({ nodes, selected, onSelect }: FileTreeListProps) {
  const [closed, setClosed] = useState<ReadonlySet<string>>(() => new Set());
  const toggle = (path: string) =>
    setClosed((current) => {
      const next = new Set(current);
      if (next.has(path)) next.delete(path);
      else next.add(path);
      return next;
    });
  return (
    <nav aria-label="Project files" data-testid="file-tree">
      <Level nodes={nodes} depth={0} selected={selected} onSelect={onSelect} closed={closed} onToggle={toggle} />
    </nav>
  );
}

interface LevelProps extends FileTreeListProps {
  depth: number;
  closed: ReadonlySet<string>;
  onToggle: (path: string) => void;
}

function Level({ nodes, depth, selected, onSelect, closed, onToggle }: LevelProps) {
  const indent = { paddingLeft: `${0.5 + depth * 0.875}rem` };
  return (
    <ul className="flex flex-col gap-px">
      {nodes.map((node) => {
        if (node.kind === 'folder') {
          const open = !closed.has(node.path);
          return (
            <li key={`d:${node.path}`}>
              <button
                type="button"
                onClick={() => onToggle(node.path)}
                aria-expanded={open}
                style={indent}
                className="flex w-full cursor-pointer items-center gap-1.5 rounded-md py-1.5 pr-2 text-left text-sm font-medium text-zinc-700 hover:bg-zinc-100 dark:text-zinc-300 dark:hover:bg-zinc-800"
                data-testid="folder-item"
              >
                <ChevronRight className={cn('h-3.5 w-3.5 shrink-0 text-zinc-400 transition-transform', open && 'rotate-90')} aria-hidden />
                {open ? (
                  <FolderOpen className="h-4 w-4 shrink-0 text-amber-500" aria-hidden />
                ) : (
                  <Folder className="h-4 w-4 shrink-0 text-amber-500" aria-hidden />
                )}
                <span className="truncate">{node.name}</span>
              </button>
              {open ? (
                <Level
                  nodes={node.children}
                  depth={depth + 1}
                  selected={selected}
                  onSelect={onSelect}
                  closed={closed}
                  onToggle={onToggle}
                />
              ) : null}
            </li>
          );
        }
        const active = node.path === selected;
        const Icon = languageForPath(node.path) ? FileCode2 : FileText;
        return (
          <li key={`f:${node.path}`}>
            <button
              type="button"
              onClick={() => onSelect(node.path)}
              aria-current={active ? 'true' : undefined}
              title={node.path}
              style={{ paddingLeft: `${1.5 + depth * 0.875}rem` }}
              className={cn(
                'flex w-full cursor-pointer items-center gap-2 rounded-md py-1.5 pr-2 text-left font-mono text-[13px] transition-colors',
                active
                  ? 'bg-brand/10 font-medium text-brand-strong'
                  : 'text-zinc-700 hover:bg-zinc-100 dark:text-zinc-300 dark:hover:bg-zinc-800',
              )}
              data-testid="file-item"
              data-path={node.path}
            >
              <Icon className={cn('h-4 w-4 shrink-0', active ? 'text-brand' : 'text-zinc-400')} aria-hidden />
              <span className="truncate">{node.name}</span>
            </button>
          </li>
        );
      })}
    </ul>
  );
}
