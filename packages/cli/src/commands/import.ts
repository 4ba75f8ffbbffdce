import { open, stat } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import { AppError, GITHUB_TOKEN_HEADER, githubImportRequest, IMPORT_MAX_ZIP_BYTES, importReply, type GithubImportRequest, type ImportReply, type ImportSkipped } from '@wolfpack/core';
import type { ApiClient } from '../api.js';
import { formatBytes } from '../format.js';
import { loggedInApi, spinnerOptions, type CommandContext } from '../context.js';
import { explainApiError } from '../resources.js';
import { withSpinner } from '../ui/spinner.js';
import { isSafeToSend } from './publish.js';
import { schemaUsageError, UsageError } from '../usage-error.js';
import { importSummary, mergeSkipped } from '../version-format.js';
import { zipFolder } from '../zip-folder.js';

/** An import uploads up to 64 MiB and the server unpacks, checks and stores every file: give it time. */
const IMPORT_TIMEOUT_MS = 5 * 60_000;
const GITHUB_PREFIX = 'github:';
/** A zip's idea travels in the URL, and servers refuse request heads much over 8 KB. */
const MAX_QUERY_IDEA_CHARS = 6000;
/** The first bytes of a zip: a local file header, or the end record of an empty archive. */
const ZIP_MAGIC = [Buffer.from('PK\u0003\u0004', 'latin1'), Buffer.from('PK\u0005\u0006', 'latin1')];

export interface ImportOptions {
  /** The project's idea (default: the server takes the README's first paragraph). */
  idea?: string | undefined;
}

/**
 * `wolfpack import PATH|ZIP|github:OWNER/REPO[@REF]`: a new project from a folder (zipped here,
 * see zip-folder.ts), a zip file sent as it is, or a GitHub repository the server reads. Prints
 * the project's id, idea and file count and every path left out with the reason; `--json`: the
 * server's importReply, its `skipped` led by what the CLI left out of a folder.
 */
export async function importProject(source: string, options: ImportOptions, context: CommandContext): Promise<void> {
  const idea = options.idea?.trim();
  if (options.idea !== undefined && !idea) throw new UsageError('--idea is empty. Describe the project, or leave --idea out to take the README\'s first paragraph.');
  if (idea !== undefined && !source.trim().toLowerCase().startsWith(GITHUB_PREFIX) && encodeURIComponent(idea).length > MAX_QUERY_IDEA_CHARS) {
    throw new UsageError("--idea is too long to send with a folder or zip. Keep it under a few thousand characters, or leave --idea out to take the README's first paragraph.");
  }
  const request = await importRequest(source.trim(), idea, context.io.cwd);
  const api = await loggedInApi(context);
  // As for publish: GITHUB_TOKEN goes with this request only, else the server uses the saved one.
  const token = request.kind === 'github' ? context.io.env['GITHUB_TOKEN']?.trim() : undefined;
  if (token && !isSafeToSend(api.server)) {
    context.io.stderr.write(`Warning: GITHUB_TOKEN goes to ${api.server} over plain http, which others on the network can read. Use https for a server on another machine.\n`);
  }
  const headers: Record<string, string> = token ? { [GITHUB_TOKEN_HEADER]: token } : {};
  const reply = await withSpinner(request.what, () => send(api, request, headers), spinnerOptions(context));
  const result = mergeSkipped(request.skipped, reply);
  if (context.output.json) return context.output.result('', result);
  context.io.stdout.write(`${importSummary(result, (format, text) => context.output.style(format, text)).join('\n')}\n`);
}

type ImportRequest =
  | { kind: 'github'; body: GithubImportRequest; what: string; skipped: ImportSkipped[] }
  | { kind: 'zip'; zip: Uint8Array; name: string; idea: string | undefined; what: string; skipped: ImportSkipped[] };

/** What to send for `source`: checked, read and (for a folder) zipped before anything goes to the server. */
async function importRequest(source: string, idea: string | undefined, cwd: string): Promise<ImportRequest> {
  if (source.toLowerCase().startsWith(GITHUB_PREFIX)) {
    const [repo = '', ref] = splitRef(source.slice(GITHUB_PREFIX.length));
    const parsed = githubImportRequest.safeParse({ github: repo, ...(ref === undefined ? {} : { ref }), ...(idea === undefined ? {} : { idea }) });
    if (!parsed.success) throw schemaUsageError(parsed.error, 'Give the repository as github:OWNER/REPO, or github:OWNER/REPO@REF.');
    return { kind: 'github', body: parsed.data, what: `Importing ${parsed.data.github} from GitHub`, skipped: [] };
  }
  if (source === '') throw new UsageError('Give a folder, a .zip file or github:OWNER/REPO to import.');
  const path = resolve(cwd, source);
  const info = await stat(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT' || error.code === 'ENOTDIR') throw new UsageError(`There is no file or folder ${path}. Give a folder, a .zip file or github:OWNER/REPO.`);
    throw new AppError('INTERNAL', `Cannot read ${path}: ${error.message}.`, undefined, { cause: error });
  });
  if (info.isDirectory()) {
    const folder = await zipFolder(path);
    if (folder.files.length === 0) throw new UsageError(`${path} has no files to import${folder.skipped.length > 0 ? ` (${describeSkipped(folder.skipped)})` : ''}.`);
    return { kind: 'zip', zip: folder.zip, name: basename(path), idea, what: `Importing ${basename(path)}/ (${folder.files.length} files)`, skipped: folder.skipped };
  }
  if (!info.isFile()) throw new UsageError(`${path} is neither a folder nor a file. Give a folder, a .zip file or github:OWNER/REPO.`);
  if (info.size > IMPORT_MAX_ZIP_BYTES) throw new UsageError(`${path} is ${formatBytes(info.size)}, more than the ${formatBytes(IMPORT_MAX_ZIP_BYTES)} an import may be.`);
  if (!(await isZip(path))) throw new UsageError(`${path} is not a zip file. Give a folder, a .zip file or github:OWNER/REPO.`);
  const zip = await readZip(path);
  return { kind: 'zip', zip, name: basename(path), idea, what: `Importing ${basename(path)}`, skipped: [] };
}

/** "OWNER/REPO@REF" → ["OWNER/REPO", "REF"]; a ref may itself hold "@" (the first one splits). */
function splitRef(spec: string): [string, string | undefined] {
  const at = spec.indexOf('@');
  return at === -1 ? [spec, undefined] : [spec.slice(0, at), spec.slice(at + 1)];
}

async function send(api: ApiClient, request: ImportRequest, headers: Record<string, string>): Promise<ImportReply> {
  try {
    if (request.kind === 'github') return await api.post('/api/projects/import', { body: request.body, headers, reply: importReply, timeoutMs: IMPORT_TIMEOUT_MS });
    const query = new URLSearchParams({ name: request.name });
    if (request.idea !== undefined) query.set('idea', request.idea);
    return await api.post(`/api/projects/import?${query.toString()}`, { body: request.zip, contentType: 'application/zip', reply: importReply, timeoutMs: IMPORT_TIMEOUT_MS });
  } catch (error) {
    throw explainApiError(error, api.server);
  }
}

async function isZip(path: string): Promise<boolean> {
  const handle = await open(path, 'r');
  try {
    const head = Buffer.alloc(4);
    const { bytesRead } = await handle.read(head, 0, 4, 0);
    return bytesRead === 4 && ZIP_MAGIC.some((magic) => magic.equals(head));
  } finally {
    await handle.close();
  }
}

async function readZip(path: string): Promise<Uint8Array> {
  const handle = await open(path, 'r');
  try {
    return new Uint8Array(await handle.readFile());
  } finally {
    await handle.close();
  }
}

function describeSkipped(skipped: readonly ImportSkipped[]): string {
  const shown = skipped.slice(0, 3).map((s) => s.path).join(', ');
  return `left out: ${shown}${skipped.length > 3 ? `, and ${skipped.length - 3} more` : ''}`;
}
