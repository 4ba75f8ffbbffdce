import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { link, rename, stat, unlink } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { AppError } from '@wolfpack/core';
import { loggedInApi, spinnerOptions, type CommandContext } from '../context.js';
import { EXIT_INTERRUPTED, ExitCode } from '../exit-code.js';
import { formatBytes } from '../format.js';
import { explained, resolveProjectId } from '../resources.js';
import { DEFAULT_IDLE_TIMEOUT_MS, IdleStreamError, untilIdle } from '@wolfpack/core/client';
import { withSpinner } from '../ui/spinner.js';
import { UsageError } from '../usage-error.js';
import { versionCall } from './versions.js';

export interface ExportOptions {
  /** File to write, a folder to write the server's file name into, or '-' for stdout. @default the server's name, here */
  out?: string | undefined;
  /** Replace a file that exists. */
  force?: boolean | undefined;
  /** Zip this version. @default the current version */
  version?: number | undefined;
  /** Silence from the server for this long ends the download. @default 45_000 */
  idleTimeoutMs?: number | undefined;
}

/**
 * `wolfpack export ID`: the project as a zip (GET /api/projects/{id}/export), streamed to disk
 * chunk by chunk so a project of any size takes no more memory than a chunk. The file is written
 * under a temporary name beside the target and moved into place only once complete, so a broken
 * download leaves nothing behind and never half-overwrites a file; an existing file is replaced
 * only with `--force`. `-o -` writes the zip to stdout (not to a terminal). `--version N` zips
 * that version (GET …/export?version=N).
 */
export async function exportProject(id: string, options: ExportOptions, context: CommandContext): Promise<void> {
  const { io } = context;
  const toStdout = options.out === '-';
  if (toStdout && io.stdout.isTTY) throw new UsageError('Refusing to write a zip file to the terminal. Redirect stdout (`-o - > project.zip`) or give a file name with -o.');
  const api = await loggedInApi(context);
  const projectId = await resolveProjectId(api, id);

  const stop = new AbortController();
  const onSigint = () => stop.abort(new Error('cancelled'));
  process.on('SIGINT', onSigint);
  try {
    const query = options.version === undefined ? '' : `?version=${options.version}`;
    const path = `/api/projects/${encodeURIComponent(projectId)}/export${query}`;
    const download = () => explained(api, () => api.download(path, { signal: stop.signal }));
    const response = await (options.version === undefined ? download() : versionCall(api, id, options.version, download));
    const body = Readable.from(untilIdle(response.body, options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS), { objectMode: false });
    if (toStdout) {
      // stdout stays open: the process ends it.
      await pipeline(body, io.stdout, { signal: stop.signal, end: false }).catch((error: unknown) => {
        throw downloadError(error, api.server, stop.signal, 'The zip on stdout is incomplete');
      });
      return;
    }
    const target = await targetFile(options.out, zipName(response.headers.get('content-disposition'), projectId), io.cwd);
    if (!options.force && (await exists(target))) {
      body.destroy();
      throw new UsageError(`${target} already exists. Add --force to replace it, or choose another file with -o.`);
    }
    const bytes = await withSpinner(`Downloading ${basename(target)}`, () => saveAtomically(body, target, options.force === true, api.server, stop.signal), spinnerOptions(context));
    context.output.result(`Saved ${target} (${formatBytes(bytes)}).`, { projectId, ...(options.version === undefined ? {} : { version: options.version }), file: target, bytes });
  } catch (error) {
    if (stop.signal.aborted) {
      io.stderr.write('Export cancelled; no file was written.\n');
      throw new ExitCode(EXIT_INTERRUPTED);
    }
    throw error;
  } finally {
    process.off('SIGINT', onSigint);
  }
}

/**
 * The name from `Content-Disposition: attachment; filename="project-1a2b3c4d.zip"`, if it is a
 * plain file name; else the same name made from the id. A server does not get to pick a path.
 */
export function zipName(disposition: string | null, projectId: string): string {
  const fallback = `project-${projectId.slice(0, 8)}.zip`;
  const match = /filename\s*=\s*"([^"]*)"|filename\s*=\s*([^;\s]+)/i.exec(disposition ?? '');
  const name = (match?.[1] ?? match?.[2] ?? '').trim();
  return /^[\w.-]{1,200}$/.test(name) && !/^\.+$/.test(name) ? name : fallback;
}

async function targetFile(out: string | undefined, name: string, cwd: string): Promise<string> {
  if (out === undefined) return join(cwd, name);
  const path = resolve(cwd, out);
  const info = await stat(path).catch(() => undefined);
  if (info?.isDirectory()) return join(path, name);
  const parent = await stat(dirname(path)).catch(() => undefined);
  if (!parent?.isDirectory()) throw new UsageError(`There is no folder ${dirname(path)} to write ${basename(path)} into. Create it first, or choose another place with -o.`);
  return path;
}

async function exists(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined)) !== undefined;
}

/** Streams into a new temporary file beside `target`, then moves it into place; returns the byte count. */
async function saveAtomically(body: Readable, target: string, force: boolean, server: string, signal: AbortSignal): Promise<number> {
  const temp = join(dirname(target), `.${basename(target)}.${randomBytes(4).toString('hex')}.part`);
  let bytes = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      done(null, chunk);
    },
  });
  try {
    await pipeline(body, counter, createWriteStream(temp, { flags: 'wx', mode: 0o644 }), { signal }).catch((error: unknown) => {
      throw downloadError(error, server, signal, 'Nothing was saved');
    });
    if (force) await rename(temp, target);
    else {
      // link() fails if the name was taken meanwhile, where rename() would replace it.
      await link(temp, target).catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'EEXIST') throw new UsageError(`${target} already exists. Add --force to replace it, or choose another file with -o.`);
        throw error;
      });
      await unlink(temp);
    }
    return bytes;
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
}

/** A failed download as a sentence: the disk's trouble, or a broken or silent connection. */
function downloadError(error: unknown, server: string, signal: AbortSignal, outcome: string): unknown {
  if (signal.aborted || error instanceof UsageError || error instanceof AppError) return error;
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EACCES' || code === 'ENOENT' || code === 'ENOSPC' || code === 'EROFS' || code === 'EISDIR' || code === 'EEXIST') {
    return new AppError('INTERNAL', `Cannot write the zip file: ${(error as Error).message}.`, undefined, { cause: error });
  }
  const reason = error instanceof IdleStreamError ? error.message : 'the connection broke';
  return new AppError('BAD_GATEWAY', `The download from ${server} stopped (${reason}). ${outcome}; try again.`, undefined, { cause: error });
}
