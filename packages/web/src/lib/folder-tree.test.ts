import type { Folder } from '@wolfpack/core';
import { describe, expect, it } from 'vitest';
import { ancestorIds, buildFolderTree, projectCounts, visibleNodes, type FolderNode } from './folder-tree';

const folder = (id: string, name: string, parentFolderId: string | null = null): Folder => ({ id, name, parentFolderId });

/** The tree as indented names, one per line, in display order. */
function outline(nodes: readonly FolderNode[]): string[] {
  const lines: string[] = [];
  const walk = (list: readonly FolderNode[]) => {
    for (const node of list) {
      lines.push(`${'  '.repeat(node.depth)}${node.folder.name}`);
      walk(node.children);
    }
  };
  walk(nodes);
  return lines;
}

describe('buildFolderTree', () => {
  it('nests folders under their parents, sorted by name at every level', () => {
    const tree = buildFolderTree([
      folder('1', 'Work'),
      folder('2', 'clients', '1'),
      folder('3', 'Archive'),
      folder('4', 'Acme', '2'),
      folder('5', 'Beta', '1'),
      folder('6', 'item 10', '3'),
      folder('7', 'item 9', '3'),
    ]);
    expect(outline(tree)).toEqual(['Archive', '  item 9', '  item 10', 'Work', '  Beta', '  clients', '    Acme']);
  });

  it('puts a folder whose parent is missing at the top level', () => {
    expect(outline(buildFolderTree([folder('1', 'Orphan', 'gone'), folder('2', 'Home')]))).toEqual(['Home', 'Orphan']);
  });

  it('cuts a parent loop so every folder shows exactly once', () => {
    const tree = buildFolderTree([folder('b', 'B', 'a'), folder('a', 'A', 'c'), folder('c', 'C', 'b'), folder('s', 'Self', 's')]);
    expect(outline(tree)).toEqual(['A', '  B', '    C', 'Self']);
  });

  it('is empty for no folders', () => {
    expect(buildFolderTree([])).toEqual([]);
  });
});

describe('visibleNodes and ancestorIds', () => {
  const folders = [folder('1', 'Work'), folder('2', 'Clients', '1'), folder('3', 'Acme', '2'), folder('4', 'Home')];
  const tree = buildFolderTree(folders);

  it('hides the children of collapsed folders', () => {
    expect(visibleNodes(tree, new Set()).map((n) => n.folder.name)).toEqual(['Home', 'Work']);
    expect(visibleNodes(tree, new Set(['1'])).map((n) => n.folder.name)).toEqual(['Home', 'Work', 'Clients']);
    expect(visibleNodes(tree, new Set(['1', '2'])).map((n) => n.folder.name)).toEqual(['Home', 'Work', 'Clients', 'Acme']);
    // A collapsed parent hides an expanded child's children too.
    expect(visibleNodes(tree, new Set(['2'])).map((n) => n.folder.name)).toEqual(['Home', 'Work']);
  });

  it('lists the ancestors nearest first, and stops on a loop', () => {
    expect(ancestorIds(folders, '3')).toEqual(['2', '1']);
    expect(ancestorIds(folders, '4')).toEqual([]);
    expect(ancestorIds(folders, 'unknown')).toEqual([]);
    expect(ancestorIds([folder('a', 'A', 'b'), folder('b', 'B', 'a')], 'a')).toEqual(['b']);
  });
});

describe('projectCounts', () => {
  it('counts projects per folder, null for the root', () => {
    const counts = projectCounts([{ folderId: '1' }, { folderId: null }, { folderId: '1' }, {}]);
    expect(counts.get('1')).toBe(2);
    expect(counts.get(null)).toBe(2);
    expect(counts.get('2')).toBeUndefined();
  });
});
