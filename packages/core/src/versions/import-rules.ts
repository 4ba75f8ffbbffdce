/**
 * The rules of an import (a zip, a GitHub repository, a folder from the CLI): which paths are left
 * out and why, the limits an archive must keep, what counts as a binary file, and the idea a
 * project gets from its README. An import is hostile input until proven otherwise, so the server
 * refuses a whole archive that breaks a rule rather than importing part of it.
 */
import { z } from 'zod';
import { sanitizePath } from '../pipeline/safe-path.js';
import { IDEA_MAX } from '../schemas/projects.js';

/** Largest zip the server reads as a request body (64 MiB). */
export const IMPORT_MAX_ZIP_BYTES = 64 * 1024 * 1024;
/** Most entries (files and folders, skipped ones included) a zip may list. */
export const IMPORT_MAX_ENTRIES = 20_000;
/**
 * Most bytes the server inflates from one archive, over every entry it reads (kept text and the
 * binary files it reads to recognise): a zip bomb stops here, whatever its headers say.
 */
export const IMPORT_MAX_UNPACKED_BYTES = 100 * 1024 * 1024;
/**
 * Most an entry may expand over its compressed size. Source text compresses about 3 to 10 times
 * and a very repetitive file perhaps 100 times; a zip bomb expands a thousand times and more.
 */
export const IMPORT_MAX_RATIO = 200;
/** Entries that inflate to less than this are never refused for their ratio (a small file of one repeated character is fine). */
export const IMPORT_RATIO_MIN_BYTES = 256 * 1024;
/** Longest idea taken from a README. */
export const IMPORT_README_IDEA_MAX = 2000;

/** Folders whose content is installed, generated or tool state, never source: left out at any depth. */
const SKIPPED_FOLDERS: ReadonlyMap<string, string> = new Map([
  ['node_modules', 'dependencies are installed from the package manifest'],
  ['bower_components', 'dependencies are installed from the package manifest'],
  ['jspm_packages', 'dependencies are installed from the package manifest'],
  ['.pnpm-store', 'dependencies are installed from the package manifest'],
  ['.venv', 'a Python virtual environment is made again from the requirements'],
  ['venv', 'a Python virtual environment is made again from the requirements'],
  ['__pycache__', 'compiled Python is made again when the code runs'],
  ['.pytest_cache', 'tool caches are made again'],
  ['.mypy_cache', 'tool caches are made again'],
  ['.git', 'version control data is not part of the project'],
  ['.hg', 'version control data is not part of the project'],
  ['.svn', 'version control data is not part of the project'],
  ['dist', 'build output is made again from the source'],
  ['build', 'build output is made again from the source'],
  ['out', 'build output is made again from the source'],
  ['.next', 'build output is made again from the source'],
  ['.nuxt', 'build output is made again from the source'],
  ['.output', 'build output is made again from the source'],
  ['.svelte-kit', 'build output is made again from the source'],
  ['.vercel', 'build output is made again from the source'],
  ['.turbo', 'tool caches are made again'],
  ['.parcel-cache', 'tool caches are made again'],
  ['.cache', 'tool caches are made again'],
  ['.gradle', 'tool caches are made again'],
  ['target', 'build output is made again from the source'],
  ['coverage', 'test coverage reports are made again by the tests'],
  ['.nyc_output', 'test coverage reports are made again by the tests'],
  ['__MACOSX', 'macOS adds it to zips; it holds no project files'],
  ['.idea', 'editor settings are not part of the project'],
]);

/** Single files the operating system or an editor leaves behind. */
const JUNK_FILES = new Set(['.ds_store', 'thumbs.db', 'desktop.ini', 'ehthumbs.db']);

/**
 * Why an import leaves this relative path out (`"node_modules/ is not imported: dependencies are
 * installed from the package manifest"`), or null when it is imported. Folder names match at any
 * depth, as they do in a .gitignore: `packages/app/dist/x.js` is build output too.
 */
export function importSkipReason(path: string): string | null {
  return importSkip(path)?.reason ?? null;
}

/**
 * What an import reports for a path it leaves out: a skipped folder once, by its path
 * (`packages/app/node_modules/`), rather than each of its thousands of files; null when the path
 * is imported.
 */
export function importSkip(path: string): { path: string; reason: string } | null {
  const segments = path.split('/').filter((s) => s !== '' && s !== '.');
  for (let i = 0; i < segments.length - 1; i++) {
    const name = segments[i]!;
    const reason = SKIPPED_FOLDERS.get(name);
    if (reason !== undefined) return { path: `${segments.slice(0, i + 1).join('/')}/`, reason: `${name}/ is not imported: ${reason}` };
  }
  const base = segments.at(-1) ?? '';
  if (JUNK_FILES.has(base.toLowerCase()) || base.startsWith('._')) {
    return { path: segments.join('/'), reason: `${base} is left out: the operating system made it, not the project` };
  }
  return null;
}

/** Reason given for a binary file under the size limit. */
export const BINARY_SKIP_REASON = 'binary file: Wolfpack keeps text files';

/**
 * Why an archive entry's name is refused before anything else is looked at (it would leave the
 * folder it is unpacked in), or null. Every later rule works on names that passed this one.
 */
export function importEntryNameProblem(name: string): string | null {
  if (name.includes('\0') || /[\u0000-\u001f\u007f]/.test(name)) return `${JSON.stringify(name)} contains a control character`;
  if (name.includes('\\')) return `${JSON.stringify(name)} contains a backslash; a zip names folders with "/"`;
  if (name.startsWith('/')) return `${JSON.stringify(name)} is an absolute path and would be unpacked outside the project`;
  if (/^[a-zA-Z]:/.test(name)) return `${JSON.stringify(name)} starts with a drive letter and would be unpacked outside the project`;
  if (name.split('/').includes('..')) return `${JSON.stringify(name)} contains ".." and would be unpacked outside the project`;
  return null;
}

/**
 * The one folder every path starts with (`owner-repo-sha` in a GitHub zipball, `my-app` in a
 * zipped folder), or null when there is none or a file sits at the top. Paths macOS adds under
 * `__MACOSX/` do not count, and a folder that is left out (`node_modules`) is never the top.
 */
export function commonTopFolder(paths: readonly string[]): string | null {
  let top: string | null = null;
  for (const path of paths) {
    const segments = path.split('/').filter((s) => s !== '' && s !== '.');
    if (segments[0] === '__MACOSX' || segments.length === 0) continue;
    // A file at the top (`README.md`) means the paths are already relative to the project.
    if (segments.length === 1 && !path.endsWith('/')) return null;
    if (top === null) top = segments[0]!;
    else if (top !== segments[0]) return null;
  }
  // A zip of node_modules alone keeps its name, so its files are still left out.
  return top !== null && importSkip(`${top}/file`) !== null ? null : top;
}

/** `path` without the leading `top/` folder (unchanged when it does not start with it). */
export function stripTopFolder(path: string, top: string | null): string {
  if (top === null) return path;
  const normal = path.split('/').filter((s) => s !== '' && s !== '.').join('/');
  return normal.startsWith(`${top}/`) ? normal.slice(top.length + 1) : normal;
}

/** An imported file's path as stored, or why it is refused (core {@link sanitizePath}'s rules). */
export function importFilePath(path: string): { ok: true; path: string } | { ok: false; reason: string } {
  return sanitizePath(path);
}

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/**
 * The file's text, or null when it is binary: a NUL byte, or bytes that are not valid UTF-8.
 * (A text file in another encoding counts as binary: Wolfpack stores UTF-8.)
 */
export function decodeImportedText(bytes: Uint8Array): string | null {
  if (bytes.includes(0)) return null;
  try {
    return UTF8.decode(bytes);
  } catch {
    return null;
  }
}

const README_NAMES = ['readme.md', 'readme', 'readme.markdown', 'readme.txt'];

/** The root README among `paths` (README.md, readme.md, README…), or null. */
export function readmePath(paths: Iterable<string>): string | null {
  const byName = new Map<string, string>();
  for (const path of paths) if (!path.includes('/')) byName.set(path.toLowerCase(), path);
  for (const name of README_NAMES) {
    const found = byName.get(name);
    if (found !== undefined) return found;
  }
  return null;
}

/**
 * The README's first paragraph that says something (not a heading, badges, an HTML banner, a
 * code block or blank), as plain text of at most {@link IMPORT_README_IDEA_MAX} characters; null
 * when there is none.
 */
export function ideaFromReadme(markdown: string): string | null {
  const lines = markdown.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n').replace(/<!--[\s\S]*?-->/g, '').split('\n');
  let paragraph: string[] = [];
  let fenced = false;
  const flush = (): string | null => {
    const text = plainText(paragraph.join(' '));
    paragraph = [];
    return text.length > 0 ? text : null;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (/^\s*(```|~~~)/.test(line)) {
      const found = flush();
      if (found !== null) return limitIdea(found);
      fenced = !fenced;
      continue;
    }
    if (fenced) continue;
    const next = lines[i + 1] ?? '';
    const heading = /^\s{0,3}#{1,6}(\s|$)/.test(line) || (line.trim() !== '' && /^\s{0,3}(=+|-+)\s*$/.test(next) && paragraph.length === 0);
    const rule = /^\s{0,3}([-*_])(\s*\1){2,}\s*$/.test(line) || /^\s{0,3}(=+|-+)\s*$/.test(line);
    if (line.trim() === '' || heading || rule) {
      const found = flush();
      if (found !== null) return limitIdea(found);
      if (heading && !/^\s{0,3}#/.test(line)) i++;
      continue;
    }
    paragraph.push(line.trim());
  }
  const found = flush();
  return found === null ? null : limitIdea(found);
}

/** Markdown (and the little HTML READMEs use) as the words a reader sees. */
function plainText(markdown: string): string {
  return markdown
    .replace(/!\[[^\]]*\]\([^)]*\)/g, '') // images and badges
    .replace(/!\[[^\]]*\]\[[^\]]*\]/g, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1') // links keep their text
    .replace(/\[([^\]]*)\]\[[^\]]*\]/g, '$1')
    .replace(/<[^>]+>/g, '') // HTML tags
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/^\s*>\s?/g, '') // a quote's marker
    .replace(/(^|\s)[-*+]\s+/g, '$1') // list markers
    .replace(/(\*\*|__)(.+?)\1/g, '$2')
    .replace(/(^|[^\w*])[*_]([^*_\s][^*_]*?)[*_](?=[^\w*]|$)/g, '$1$2')
    .replace(/`+([^`]*)`+/g, '$1')
    .replace(/~~(.+?)~~/g, '$1')
    .replace(/\s+/g, ' ')
    .trim();
}

function limitIdea(text: string): string {
  return text.length > IMPORT_README_IDEA_MAX ? `${text.slice(0, IMPORT_README_IDEA_MAX - 1).trimEnd()}…` : text;
}

/** A new project's idea: the one given, else the README's first paragraph, else "Imported from ORIGIN". */
export function importIdea(given: string | undefined, files: Readonly<Record<string, string>>, origin: string): string {
  const idea = given?.trim();
  if (idea) return idea;
  const readme = readmePath(Object.keys(files));
  const fromReadme = readme === null ? null : ideaFromReadme(files[readme]!);
  return fromReadme ?? `Imported from ${origin}`;
}

/** POST /api/projects/import with a zip as the body: its query. */
export const zipImportQuery = z.object({
  name: z.string().trim().max(255, 'name must be at most 255 characters').optional(),
  idea: z.string().trim().max(IDEA_MAX, `The idea must be at most ${IDEA_MAX} characters`).optional(),
});
export type ZipImportQuery = z.infer<typeof zipImportQuery>;
