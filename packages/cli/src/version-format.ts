/**
 * How the version commands word and lay out what the server sends: the versions table, a diff and
 * its --stat, a restore, an import. Pure text, so the unit tests check it line by line.
 */
import type { ImportReply, ImportSkipped, VersionChangeReply, VersionDiffReply, VersionsReply, VersionSummary } from '@wolfpack/core';
import { formatDate, formatTable, plural, truncate } from './format.js';

/** Colours a piece of text (the Output's `style`), or leaves it as it is. */
export type Styler = (format: 'bold' | 'green' | 'red' | 'cyan' | 'yellow' | 'dim', text: string) => string;
const plain: Styler = (_format, text) => text;

/** Longest source label a table row shows ("Continue: …" quotes the idea). */
const LABEL_WIDTH = 60;

/** Proven Code's verdict of a version's files: only `passed` is said to pass. */
export function verdictWord(verdict: VersionSummary['verdict']): string {
  if (verdict === null) return 'not checked';
  return verdict === 'unproven' ? 'not proven' : verdict;
}

/** "+2 ~1 -0": added, changed and removed files against the version before. */
export function changeCounts(counts: { added: number; changed: number; removed: number }): string {
  return `+${counts.added} ~${counts.changed} -${counts.removed}`;
}

/** The versions as a table, newest first as the server lists them, the current one marked. */
export function versionsTable(reply: VersionsReply, style: Styler = plain): string[] {
  const rows = reply.versions.map((version) => [
    version.current ? `${version.number} (current)` : String(version.number),
    formatDate(version.createdAt),
    truncate(version.label, LABEL_WIDTH),
    verdictWord(version.verdict),
    String(version.fileCount),
    changeCounts(version),
  ]);
  const [header, ...lines] = formatTable(
    [{ header: 'VERSION' }, { header: 'CREATED' }, { header: 'SOURCE' }, { header: 'PROVEN CODE' }, { header: 'FILES', align: 'right' }, { header: 'CHANGES' }],
    rows,
  );
  return [style('bold', header!), ...lines];
}

/** "Restored version 3 as version 8 (Proven Code: passed)." */
export function restoreSentence(restored: number, reply: VersionChangeReply): string {
  return `Restored version ${restored} as version ${reply.version.number} (Proven Code: ${verdictWord(reply.version.verdict)}).`;
}

/** "No differences between version 2 and version 3.", or from nothing. */
export function noDifferences(reply: Pick<VersionDiffReply, 'from' | 'to'>): string {
  return reply.from === 0 ? `Version ${reply.to} has no files.` : `No differences between version ${reply.from} and version ${reply.to}.`;
}

/** Every file's patch one after another, as `git diff` prints them, coloured line by line when `style` colours. */
export function diffText(reply: VersionDiffReply, style: Styler = plain): string {
  const lines: string[] = [];
  for (const file of reply.files) {
    const patch = file.patch.endsWith('\n') ? file.patch.slice(0, -1) : file.patch;
    let inHunks = false;
    for (const line of patch.split('\n')) {
      if (line.startsWith('@@')) {
        inHunks = true;
        lines.push(style('cyan', line));
      } else if (!inHunks) lines.push(style('bold', line));
      else if (line.startsWith('+')) lines.push(style('green', line));
      else if (line.startsWith('-')) lines.push(style('red', line));
      else lines.push(line);
    }
  }
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
}

/** Lines added and removed in one file's patch (its hunks only: the `---`/`+++` header is not counted). */
export function patchLineCounts(patch: string): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  let inHunks = false;
  for (const line of patch.split('\n')) {
    if (line.startsWith('@@')) inHunks = true;
    else if (inHunks && line.startsWith('+')) added++;
    else if (inHunks && line.startsWith('-')) removed++;
  }
  return { added, removed };
}

/**
 * `--stat`: one line per file (status, path, lines added and removed), then the totals:
 * "3 files changed (1 added, 2 changed, 0 removed), 10 lines added, 2 removed".
 */
export function diffStat(reply: VersionDiffReply, style: Styler = plain): string[] {
  let addedLines = 0;
  let removedLines = 0;
  const rows = reply.files.map((file) => {
    const counts = patchLineCounts(file.patch);
    addedLines += counts.added;
    removedLines += counts.removed;
    return [file.status, file.path, style('green', `+${counts.added}`), style('red', `-${counts.removed}`)];
  });
  const table = formatTable([{ header: '' }, { header: '' }, { header: '', align: 'right' }, { header: '' }], rows).slice(1);
  const files = `${plural(reply.files.length, 'file')} changed (${reply.added} added, ${reply.changed} changed, ${reply.removed} removed)`;
  return [...table, `${files}, ${plural(addedLines, 'line')} added, ${removedLines} removed`];
}

/** The paths an import left out, those the CLI left out of a folder first. */
export function mergeSkipped(local: readonly ImportSkipped[], reply: ImportReply): ImportReply {
  return { ...reply, skipped: [...local, ...reply.skipped] };
}

/** What `wolfpack import` prints: the new project, its idea and files, and each path left out with why. */
export function importSummary(reply: ImportReply, style: Styler = plain): string[] {
  const { project } = reply;
  const idea = project.idea.trim().split('\n')[0]?.trim() ?? '';
  const lines = [
    `Imported project ${project.id} with ${plural(project.fileCount, 'file')}.`,
    `Idea: ${truncate(idea, 200)}`,
  ];
  if (reply.skipped.length > 0) {
    lines.push('', style('bold', `Left out (${reply.skipped.length}):`));
    for (const skipped of reply.skipped) lines.push(`  ${skipped.path}: ${skipped.reason}`);
  }
  return lines;
}
