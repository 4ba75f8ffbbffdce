/** The folder sidebar's tree, built from the flat list GET /api/folders answers (spec core §2). */
import type { Folder } from '@wolfpack/core';

export interface FolderNode {
  folder: Folder;
  /** 0 for a top-level folder. */
  depth: number;
  children: FolderNode[];
}

const byName = (a: FolderNode, b: FolderNode) =>
  a.folder.name.localeCompare(b.folder.name, 'en', { sensitivity: 'base', numeric: true }) ||
  a.folder.id.localeCompare(b.folder.id);

/**
 * The folders as a tree sorted by name at every level. A folder whose parent is missing is shown
 * at the top level, and a parent chain that loops back on itself is cut (its member with the
 * smallest id becomes top-level), so every folder appears exactly once whatever the server sends.
 */
export function buildFolderTree(folders: readonly Folder[]): FolderNode[] {
  const nodes = new Map(folders.map((folder) => [folder.id, { folder, depth: 0, children: [] as FolderNode[] }]));
  const roots: FolderNode[] = [];
  for (const node of nodes.values()) {
    const parent = node.folder.parentFolderId === null ? undefined : nodes.get(node.folder.parentFolderId);
    if (parent && parent !== node) parent.children.push(node);
    else roots.push(node);
  }

  const reached = new Set<string>();
  const reach = (list: readonly FolderNode[]) => {
    for (const node of list) {
      if (reached.has(node.folder.id)) continue;
      reached.add(node.folder.id);
      reach(node.children);
    }
  };
  reach(roots);
  // Whatever the roots do not reach sits on a cycle (or below one).
  for (const id of [...nodes.keys()].sort()) {
    if (reached.has(id)) continue;
    const node = nodes.get(id)!;
    const parent = nodes.get(node.folder.parentFolderId!)!;
    parent.children = parent.children.filter((child) => child !== node);
    roots.push(node);
    reach([node]);
  }

  const finish = (list: FolderNode[], depth: number) => {
    list.sort(byName);
    for (const node of list) {
      node.depth = depth;
      finish(node.children, depth + 1);
    }
  };
  finish(roots, 0);
  return roots;
}

/** The ids of `id`'s ancestors, nearest first (to expand the path to a selected folder). */
export function ancestorIds(folders: readonly Folder[], id: string): string[] {
  const byId = new Map(folders.map((folder) => [folder.id, folder]));
  const path: string[] = [];
  const seen = new Set<string>([id]);
  for (let at = byId.get(id)?.parentFolderId ?? null; at !== null && byId.has(at) && !seen.has(at); at = byId.get(at)!.parentFolderId) {
    path.push(at);
    seen.add(at);
  }
  return path;
}

/** The tree in display order, skipping the children of collapsed folders. */
export function visibleNodes(tree: readonly FolderNode[], expanded: ReadonlySet<string>): FolderNode[] {
  const out: FolderNode[] = [];
  const walk = (list: readonly FolderNode[]) => {
    for (const node of list) {
      out.push(node);
      if (expanded.has(node.folder.id)) walk(node.children);
    }
  };
  walk(tree);
  return out;
}

/** How many projects each folder holds directly, from the full project list. */
export function projectCounts(projects: ReadonlyArray<{ folderId?: string | null | undefined }>): Map<string | null, number> {
  const counts = new Map<string | null, number>();
  for (const project of projects) {
    const key = project.folderId ?? null;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}
