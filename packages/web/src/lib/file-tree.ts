/** A project's flat list of file paths as folders and files, for the file list of a project. */

export interface FileTreeFile {
  kind: 'file';
  name: string;
  /** The full path, the key into the project's file map. */
  path: string;
}

export interface FileTreeFolder {
  kind: 'folder';
  name: string;
  /** The folder's path without a trailing slash. */
  path: string;
  children: FileTreeNode[];
}

export type FileTreeNode = FileTreeFile | FileTreeFolder;

const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

function sortNodes(nodes: FileTreeNode[]): FileTreeNode[] {
  nodes.sort((a, b) => (a.kind === b.kind ? collator.compare(a.name, b.name) : a.kind === 'folder' ? -1 : 1));
  for (const node of nodes) if (node.kind === 'folder') sortNodes(node.children);
  return nodes;
}

/**
 * Groups paths by folder: folders first, then files, each in natural order. Empty segments
 * ('a//b', a leading '/') are ignored so odd paths still land somewhere sensible.
 */
export function buildFileTree(paths: readonly string[]): FileTreeNode[] {
  const root: FileTreeNode[] = [];
  const folders = new Map<string, FileTreeFolder>();
  for (const path of paths) {
    const parts = path.split('/').filter(Boolean);
    if (parts.length === 0) continue;
    let level = root;
    let prefix = '';
    for (const part of parts.slice(0, -1)) {
      prefix = prefix ? `${prefix}/${part}` : part;
      let folder = folders.get(prefix);
      if (!folder) {
        folder = { kind: 'folder', name: part, path: prefix, children: [] };
        folders.set(prefix, folder);
        level.push(folder);
      }
      level = folder.children;
    }
    level.push({ kind: 'file', name: parts[parts.length - 1]!, path });
  }
  return sortNodes(root);
}

/** Files in the order the tree shows them. */
export function flattenFiles(nodes: readonly FileTreeNode[]): FileTreeFile[] {
  return nodes.flatMap((node) => (node.kind === 'file' ? [node] : flattenFiles(node.children)));
}

/** The file to open first: a root README, else a root index.html, else the first file shown. */
export function defaultFile(nodes: readonly FileTreeNode[]): string | undefined {
  const files = flattenFiles(nodes);
  const atRoot = (name: string) => files.find((f) => !f.path.includes('/') && f.name.toLowerCase() === name);
  return (atRoot('readme.md') ?? atRoot('index.html') ?? files[0])?.path;
}
