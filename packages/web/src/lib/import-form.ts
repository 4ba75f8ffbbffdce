/**
 * The import dialog's rules: which file counts as a zip, what the GitHub field accepts, how an
 * idea travels with a zip, and how the reply's skipped paths read.
 */
import { githubImportRequest, IMPORT_MAX_ZIP_BYTES, type GithubImportRequest, type ImportReply, type ImportSkipped } from '@wolfpack/core';
import { formatFileSize } from './attachments';

export const IMPORT_URL = '/api/projects/import';

/** The `accept` of the file input: the zip's types as browsers and operating systems name them. */
export const ZIP_ACCEPT = '.zip,application/zip,application/x-zip-compressed';

/**
 * A zip travels as the body, so its idea rides in the address. Node refuses request heads over
 * 16 KiB, so an encoded idea above this is refused here with a sentence instead of a bare 431.
 */
export const ZIP_IDEA_MAX_ENCODED = 8000;

/** Whether the picked or dropped file is a zip: by its name, or by its type when it has no extension. */
export function isZipFile(file: { name: string; type: string }): boolean {
  if (/\.zip$/i.test(file.name)) return true;
  return !/\.[^./\\]+$/.test(file.name) && /^application\/(x-)?zip(-compressed)?$/i.test(file.type);
}

/** Why this picked or dropped file cannot be imported, or undefined when it can be sent. */
export function zipFileProblem(file: { name: string; type: string; size: number }): string | undefined {
  if (!isZipFile(file)) return `${file.name} is not a zip file. Compress the project folder into a .zip and choose that.`;
  if (file.size > IMPORT_MAX_ZIP_BYTES) {
    return `${file.name} is ${formatFileSize(file.size)}; an import takes at most ${formatFileSize(IMPORT_MAX_ZIP_BYTES)}. Zip the folder without node_modules and build output, or import it from GitHub.`;
  }
  return undefined;
}

/** A chosen file as the dialog shows it: "my-app.zip · 12 KB". */
export function fileLine(file: { name: string; size: number }): string {
  return `${file.name} · ${formatFileSize(file.size)}`;
}

/** POST address of a zip import: its file name (the version's origin) and the idea, if any. */
export function importZipUrl(name: string, idea: string): string {
  const params = new URLSearchParams({ name });
  const trimmed = idea.trim();
  if (trimmed) params.set('idea', trimmed);
  return `${IMPORT_URL}?${params.toString()}`;
}

/** The problem with sending this idea beside a zip, or undefined when it fits in the address. */
export function zipIdeaProblem(idea: string): string | undefined {
  if (encodeURIComponent(idea.trim()).length <= ZIP_IDEA_MAX_ENCODED) return undefined;
  return 'This idea is too long to send with a zip. Shorten it (about 2,000 characters at most) or put it in the zip’s README.md.';
}

/**
 * The repository in what was typed: OWNER/REPO as it is, or taken out of a pasted address
 * (https://github.com/OWNER/REPO, …/tree/main, .git, git@github.com:OWNER/REPO.git).
 */
export function githubRepoFrom(text: string): string {
  const trimmed = text.trim();
  const address = /^(?:(?:https?:\/\/)?(?:www\.)?github\.com\/|git@github\.com:)([^/\s]+)\/([^/\s?#]+)/i.exec(trimmed);
  const repo = address ? `${address[1]}/${address[2]}` : trimmed;
  return repo.replace(/\.git$/i, '').replace(/\/+$/, '');
}

export interface GithubImportValues {
  repo: string;
  ref: string;
  idea: string;
}

export type GithubImportCheck =
  | { ok: true; request: GithubImportRequest }
  | { ok: false; field: 'repo' | 'ref' | 'idea'; message: string };

/** Checks the GitHub fields with core's schema before anything is sent; empty branch and idea are left out. */
export function checkGithubImport(values: GithubImportValues): GithubImportCheck {
  const repo = githubRepoFrom(values.repo);
  if (!repo) return { ok: false, field: 'repo', message: 'Enter the repository as OWNER/REPO, e.g. octocat/hello-world' };
  const parsed = githubImportRequest.safeParse({
    github: repo,
    ...(values.ref.trim() ? { ref: values.ref } : {}),
    ...(values.idea.trim() ? { idea: values.idea } : {}),
  });
  if (parsed.success) return { ok: true, request: parsed.data };
  const issue = parsed.error.issues[0];
  const field = issue?.path[0] === 'ref' ? 'ref' : issue?.path[0] === 'idea' ? 'idea' : 'repo';
  return { ok: false, field, message: issue?.message ?? 'Check the repository' };
}

/**
 * A skipped entry's reason without the name it repeats: the server says "node_modules/ is not
 * imported: dependencies are installed…" and the list already shows the path beside it.
 */
export function skippedReason(entry: ImportSkipped): string {
  return entry.reason.replace(/^\S+ is (?:not imported|left out): /, '');
}

/** The toast after an import that skipped nothing (a skipped entry keeps the dialog open, listing them). */
export function importedToast(reply: ImportReply, origin: string): { title: string; description: string } {
  const count = reply.project.fileCount;
  return { title: 'Project imported', description: `${count} ${count === 1 ? 'file' : 'files'} from ${origin}.` };
}

/** The busy button's words: the upload's share while it lasts, then the server's reading. */
export function importingLabel(progress: number | null): string {
  if (progress === null || progress >= 1) return 'Importing...';
  return `Uploading ${Math.floor(progress * 100)}%`;
}
