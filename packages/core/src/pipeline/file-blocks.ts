/**
 * Turns an engine's free-form answer into files. Prompts ask for the project's own format (see
 * {@link FILE_BLOCK_INSTRUCTIONS}); the parser also accepts the other ways models write files,
 * because they drift from any format they are given.
 */
import { parseOperationLine, type FileOperation } from './file-operations.js';
import type { FileProblem, ParsedFile } from './parsed-file.js';
import {
  isCommandBlockFor,
  languageForPath,
  parseInfoString,
  pathFromFirstLine,
  pathFromHeaderLine,
  type HeaderPath,
} from './path-hints.js';
import { sanitizePath } from './safe-path.js';

// The stages consume parser output together with these two gates; one import site for all three.
export { applyLimits } from './limits.js';
export { detectIncomplete } from './detect-incomplete.js';

export interface ParseResult {
  /** Files with safe paths, one per path (the last block for a path wins), in first-seen order. */
  files: ParsedFile[];
  /** Everything that did not become a file cleanly: unsafe paths, duplicates, pathless blocks, cut-offs. */
  problems: FileProblem[];
  /** The answer stopped inside a block: ask the engine to continue. */
  truncated: boolean;
  /** `DELETE:` and `MOVE:` lines written outside code blocks, in order (see file-operations.ts). */
  operations: FileOperation[];
}

/**
 * How prompts should ask for files. Kept next to the parser so the two cannot drift apart.
 */
export const FILE_BLOCK_INSTRUCTIONS = [
  'Write every file as one fenced code block whose info string is the language and then the file path relative to the project root, for example:',
  '```ts src/app.ts',
  'export const app = 1;',
  '```',
  'Write each file completely: no placeholders such as "// ... existing code ..." or "rest unchanged".',
  'If a file itself contains lines starting with ```, fence it with four backticks (````md README.md) instead.',
  'Paths use "/" and never start with "/" or contain "..".',
].join('\n');

/**
 * Writes one file in the project's own format: a fence longer than any backtick run that starts a
 * line of the content, the language, a space, the path. A path the plain form cannot carry (a
 * space, braces, a bare name like CNAME) is written as `path="…"`, so it reads back as itself
 * rather than as some other file.
 */
export function formatFileBlock(path: string, content: string, language = languageForPath(path)): string {
  const plain = `${language} ${path}`;
  const info = parseInfoString(plain).path === path ? plain : `${language} path="${path}"`;
  // A backtick fence cannot carry a backtick in its info string: such a path gets a tilde fence.
  const char = info.includes('`') ? '~' : '`';
  let longest = 0;
  for (const match of content.matchAll(char === '`' ? /^[ \t]*(`{3,})/gm : /^[ \t]*(~{3,})/gm)) longest = Math.max(longest, match[1]?.length ?? 0);
  const fence = char.repeat(Math.max(3, longest + 1));
  const body = content === '' || content.endsWith('\n') ? content : `${content}\n`;
  return `${fence}${info}\n${body}${fence}\n`;
}

interface Fence {
  indent: number;
  char: '`' | '~';
  length: number;
  info: string;
}

const FENCE_OPEN = /^([ \t]*)(`{3,}|~{3,})(.*)$/;
const FILE_TAG_OPEN = /^\s*<file\b([^>]*)>(.*)$/i;
const FILE_TAG_PATH = /\b(?:path|name|filename|file)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/i;
const FILE_TAG_CLOSE = /<\/file\s*>/i;
const DOC_LANGUAGES = new Set(['md', 'markdown', 'mdx', 'text', 'txt', 'rst', 'adoc']);
// How many blank lines may separate a header line ("**src/a.ts**") from its fence.
const MAX_HEADER_GAP = 2;

function openFence(line: string): Fence | null {
  const m = FENCE_OPEN.exec(line);
  if (!m) return null;
  const marker = m[2] ?? '';
  const info = (m[3] ?? '').trim();
  // A backtick fence's info string cannot hold backticks: "```js x```" is inline code.
  if (marker.startsWith('`') && info.includes('`')) return null;
  return { indent: (m[1] ?? '').length, char: marker.startsWith('`') ? '`' : '~', length: marker.length, info };
}

function closesFence(line: string, fence: Fence): boolean {
  const m = /^[ \t]*(`{3,}|~{3,})[ \t]*$/.exec(line);
  const marker = m?.[1];
  return marker !== undefined && marker.startsWith(fence.char) && marker.length >= fence.length;
}

function dedent(line: string, indent: number): string {
  let i = 0;
  while (i < indent && (line[i] === ' ' || line[i] === '\t')) i++;
  return line.slice(i);
}

interface FenceBody {
  lines: string[];
  closed: boolean;
  /** Index of the first line after the block. */
  next: number;
}

/**
 * Reads a fenced block's lines. Besides the CommonMark rule (close with the same character, at
 * least as long), an inner opener with an info string (```bash inside a README) is matched with
 * its own closer, because models rarely lengthen the outer fence. In a code block, an inner
 * opener that names a file means the model skipped this block's closing fence.
 */
function readFence(lines: string[], start: number, fence: Fence, isDoc: boolean): FenceBody {
  const body: string[] = [];
  let depth = 0;
  for (let j = start; j < lines.length; j++) {
    const line = lines[j] ?? '';
    if (closesFence(line, fence)) {
      if (depth === 0) return { lines: body, closed: true, next: j + 1 };
      depth--;
    } else {
      const inner = openFence(line);
      if (inner && inner.char === fence.char && inner.length >= fence.length && inner.info !== '') {
        if (!isDoc && parseInfoString(inner.info).path !== undefined) {
          return { lines: body, closed: false, next: j };
        }
        depth++;
      }
    }
    body.push(dedent(line, fence.indent));
  }
  return { lines: body, closed: false, next: lines.length };
}

interface RawBlock {
  /** Path from a `<file>` tag or the info string: the model said it on purpose. */
  explicitPath?: string;
  firstLinePath?: string;
  header?: HeaderPath;
  language?: string;
  lines: string[];
  truncated: boolean;
}

function trimBlankEdges(lines: string[]): string[] {
  let start = 0;
  let end = lines.length;
  while (start < end && (lines[start] ?? '').trim() === '') start++;
  while (end > start && (lines[end - 1] ?? '').trim() === '') end--;
  return lines.slice(start, end);
}

/** Reads `<file path="…">…</file>`, whose content may itself be fenced. */
function readFileTag(lines: string[], index: number, attributes: string, rest: string): { block: RawBlock; next: number } {
  const m = FILE_TAG_PATH.exec(attributes);
  const path = (m?.[1] ?? m?.[2] ?? m?.[3] ?? '').trim();
  const block: RawBlock = { lines: [], truncated: false };
  if (path !== '') block.explicitPath = path;

  const sameLineClose = FILE_TAG_CLOSE.exec(rest);
  if (sameLineClose) {
    block.lines = [rest.slice(0, sameLineClose.index)];
    return { block, next: index + 1 };
  }
  const content: string[] = rest.trim() === '' ? [] : [rest];
  let j = index + 1;
  while (content.length === 0 && j < lines.length && (lines[j] ?? '').trim() === '') j++;
  const fence = content.length === 0 ? openFence(lines[j] ?? '') : null;
  if (fence) {
    const body = readFence(lines, j + 1, fence, true);
    const info = parseInfoString(fence.info);
    if (info.language !== undefined) block.language = info.language;
    block.lines = body.lines;
    // Skip to the closing tag; a missing one after a closed fence loses nothing.
    let k = body.next;
    while (k < lines.length && !FILE_TAG_CLOSE.test(lines[k] ?? '') && !FILE_TAG_OPEN.test(lines[k] ?? '')) k++;
    block.truncated = !body.closed;
    return { block, next: k < lines.length && FILE_TAG_CLOSE.test(lines[k] ?? '') ? k + 1 : k };
  }
  for (; j < lines.length; j++) {
    const line = lines[j] ?? '';
    const close = FILE_TAG_CLOSE.exec(line);
    if (close) {
      content.push(line.slice(0, close.index));
      block.lines = trimBlankEdges(content);
      return { block, next: j + 1 };
    }
    if (FILE_TAG_OPEN.test(line)) break;
    content.push(line);
  }
  block.lines = trimBlankEdges(content);
  block.truncated = true;
  return { block, next: j };
}

/** The nearest non-blank line before a fence, if it is close and not part of an earlier block. */
function headerBefore(lines: string[], proseStart: number, fenceIndex: number): HeaderPath | null {
  for (let k = fenceIndex - 1; k >= proseStart && fenceIndex - k <= MAX_HEADER_GAP + 1; k--) {
    const line = lines[k] ?? '';
    // "DELETE: src/old.ts" right above a block says what to remove, not what the block is.
    if (line.trim() !== '') return parseOperationLine(line) === null ? pathFromHeaderLine(line) : null;
  }
  return null;
}

function extensionIsDoc(path: string | undefined): boolean {
  return path !== undefined && /\.(md|mdx|markdown|txt|rst|adoc)$/i.test(path);
}

type OperationEntry = NonNullable<ReturnType<typeof parseOperationLine>>;

/** Splits the answer into raw blocks and the operation lines between them, in order. */
function scanBlocks(lines: string[]): { blocks: RawBlock[]; operations: OperationEntry[] } {
  const blocks: RawBlock[] = [];
  const operations: OperationEntry[] = [];
  let proseStart = 0;
  let i = 0;
  while (i < lines.length) {
    const line = lines[i] ?? '';
    const operation = parseOperationLine(line);
    if (operation) {
      operations.push(operation);
      i++;
      continue;
    }
    const tag = FILE_TAG_OPEN.exec(line);
    if (tag) {
      const { block, next } = readFileTag(lines, i, tag[1] ?? '', tag[2] ?? '');
      blocks.push(block);
      i = proseStart = next;
      continue;
    }
    const fence = openFence(line);
    if (!fence) {
      i++;
      continue;
    }
    const info = parseInfoString(fence.info);
    const header = headerBefore(lines, proseStart, i);
    const isDoc =
      (info.language !== undefined && DOC_LANGUAGES.has(info.language)) ||
      extensionIsDoc(info.path ?? header?.path);
    const body = readFence(lines, i + 1, fence, isDoc);
    const block: RawBlock = { lines: body.lines, truncated: !body.closed };
    if (info.path !== undefined) block.explicitPath = info.path;
    if (info.language !== undefined) block.language = info.language;
    if (header) block.header = header;
    const firstLinePath = body.lines[0] === undefined ? null : pathFromFirstLine(body.lines[0]);
    if (firstLinePath !== null) block.firstLinePath = firstLinePath;
    i = proseStart = body.next;
    // Models sometimes fence their DELETE/MOVE lines; a pathless block of nothing else is those.
    const asOperations = info.path === undefined && !header ? operationsOnly(body.lines) : null;
    if (asOperations) operations.push(...asOperations);
    else blocks.push(block);
  }
  return { blocks, operations };
}

function operationsOnly(lines: string[]): OperationEntry[] | null {
  const content = lines.filter((l) => l.trim() !== '');
  if (content.length === 0) return null;
  const parsed = content.map(parseOperationLine);
  return parsed.every((p): p is OperationEntry => p !== null) ? parsed : null;
}

/** Picks the block's path, most deliberate source first. */
function choosePath(block: RawBlock): string | undefined {
  if (block.explicitPath !== undefined) return block.explicitPath;
  const header = block.header;
  const usable = header !== undefined && !isCommandBlockFor(block.language, header.path) ? header.path : undefined;
  // "### src/utils.py" over a first line "# utils.py": the header is the fuller name.
  if (usable !== undefined && block.firstLinePath !== undefined && !header?.weak) {
    const full = sanitizePath(usable);
    if (full.ok && namesSameFile(block.firstLinePath, full.path)) return usable;
  }
  return block.firstLinePath ?? usable;
}

/** Does a path comment name `path`, fully or by its trailing segments? */
function namesSameFile(comment: string | undefined, path: string): boolean {
  if (comment === undefined) return false;
  const s = sanitizePath(comment);
  return s.ok && (s.path === path || path.endsWith(`/${s.path}`));
}

/**
 * Extracts files from an engine's answer. Accepts the own format (```` ```ts src/a.ts ````),
 * `title=`/`file=`/`filename=`/`path=` info strings, a bare path as info string, a decorated path
 * line before the fence, a path comment as the block's first line (removed from the content),
 * and `<file path="…">…</file>` tags. `DELETE: path` and `MOVE: from -> to` lines outside the
 * blocks become {@link ParseResult.operations}. See the tests for every accepted spelling.
 */
export function parseFileBlocks(text: string): ParseResult {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const { blocks, operations: operationLines } = scanBlocks(lines);
  const problems: FileProblem[] = [];
  const operations: FileOperation[] = [];
  for (const entry of operationLines) {
    if ('problem' in entry) problems.push(entry.problem);
    else operations.push(entry.operation);
  }
  const byPath = new Map<string, ParsedFile>();
  const seen = new Map<string, number>();
  let pathless = 0;
  let truncated = false;
  let pathlessTruncated = false;

  for (const block of blocks) {
    if (block.truncated) truncated = true;
    const raw = choosePath(block)?.trim();
    if (raw === undefined || raw === '') {
      pathless++;
      if (block.truncated) pathlessTruncated = true;
      continue;
    }
    const safe = sanitizePath(raw);
    if (!safe.ok) {
      problems.push({ kind: 'unsafe-path', message: `${safe.reason}. The block was skipped.` });
      continue;
    }
    const path = safe.path;
    let contentLines = block.lines;
    // A leading "// src/a.ts" says where the file goes, it is not part of it.
    if (block.lines[0] !== undefined && namesSameFile(block.firstLinePath, path)) {
      contentLines = block.lines.slice(block.lines[1]?.trim() === '' ? 2 : 1);
    }
    const content = contentLines.length === 0 ? '' : `${contentLines.join('\n')}\n`;
    const file: ParsedFile = { path, content };
    if (block.language !== undefined) file.language = block.language;
    if (block.truncated) file.truncated = true;
    seen.set(path, (seen.get(path) ?? 0) + 1);
    byPath.set(path, file);
  }

  for (const file of byPath.values()) {
    if (file.truncated) {
      problems.push({
        kind: 'truncated',
        path: file.path,
        message: `${file.path} was cut off before the end of its block; it must be completed before it can be saved.`,
      });
    }
  }
  if (pathlessTruncated) {
    problems.push({ kind: 'truncated', message: 'The answer was cut off inside a code block that named no file.' });
  }
  for (const [path, count] of seen) {
    if (count > 1) {
      problems.push({
        kind: 'duplicate-path',
        path,
        message: `${path} was written ${count} times; the last version was kept.`,
      });
    }
  }
  if (pathless > 0) {
    problems.push({
      kind: 'missing-path',
      message: `${pathless} code block${pathless === 1 ? '' : 's'} had no file path and ${pathless === 1 ? 'was' : 'were'} ignored; put the path after the language, e.g. \`\`\`ts src/app.ts.`,
    });
  }
  return { files: [...byPath.values()], problems, truncated, operations };
}
