import { AppError, type VersionChangeReply } from '@wolfpack/core';
import { formatBytes, MAX_FILE_BYTES, MAX_FILES, MAX_PROJECT_BYTES, sanitizePath, utf8ByteLength } from '@wolfpack/core/pipeline';
import type { VersionReader } from './version-reader.js';
import type { VersionStore } from './version-store.js';

/**
 * Changes a person makes to a project's files by hand: restoring an earlier version, and writing,
 * renaming or deleting one file. Each is a new version made by the store; the checks that depend
 * on the current files run inside its change, under the project's row lock, so they see the files
 * the new version is made from.
 */
export class VersionEdits {
  constructor(
    private readonly store: VersionStore,
    private readonly reader: VersionReader,
  ) {}

  /** A new version with the files of version `n`; refused when `n` is the current version. */
  async restore(userId: string, projectId: string, n: number, expectedVersion?: number): Promise<VersionChangeReply> {
    const { current, files } = await this.reader.versionFiles(userId, projectId, n);
    if (n === current) throw new AppError('CONFLICT', `Version ${n} is the current version already.`);
    return this.store.commit(userId, projectId, { kind: 'restore', from: n }, () => ({ ...files }), expectedVersion);
  }

  /** Writes `content` to `rawPath` (made if new); with `renameFrom`, the file at that path moves there. */
  async write(userId: string, projectId: string, rawPath: string, content: string, expectedVersion: number, renameFrom?: string): Promise<VersionChangeReply> {
    const path = safePath(rawPath);
    const from = renameFrom === undefined ? undefined : safePath(renameFrom);
    const bytes = utf8ByteLength(content);
    if (bytes > MAX_FILE_BYTES) {
      const count = (n: number) => n.toLocaleString('en-US');
      throw new AppError('PAYLOAD_TOO_LARGE', `${path} would be ${count(bytes)} bytes: a file can be at most ${count(MAX_FILE_BYTES)} bytes (${formatBytes(MAX_FILE_BYTES)}).`);
    }
    return this.store.commit(
      userId,
      projectId,
      { kind: 'edit' },
      (currentFiles) => {
        const files = { ...currentFiles };
        if (from !== undefined && from !== path) {
          if (!Object.hasOwn(files, from)) throw new AppError('NOT_FOUND', `Version ${expectedVersion} has no file ${from} to rename.`);
          if (Object.hasOwn(files, path)) throw new AppError('CONFLICT', `${path} exists already: pick another name, or delete it first.`);
          delete files[from];
        }
        files[path] = content;
        return withinLimits(files);
      },
      expectedVersion,
    );
  }

  /** Removes the file at `rawPath`. */
  async remove(userId: string, projectId: string, rawPath: string, expectedVersion: number): Promise<VersionChangeReply> {
    const path = safePath(rawPath);
    return this.store.commit(
      userId,
      projectId,
      { kind: 'edit' },
      (currentFiles) => {
        if (!Object.hasOwn(currentFiles, path)) throw new AppError('NOT_FOUND', `Version ${expectedVersion} has no file ${path}.`);
        const files = { ...currentFiles };
        delete files[path];
        return files;
      },
      expectedVersion,
    );
  }
}

/** A path a person typed, held to the rules generated paths follow; the reason is the 400's message. */
function safePath(raw: string): string {
  const safe = sanitizePath(raw);
  if (!safe.ok) throw new AppError('BAD_REQUEST', safe.reason);
  return safe.path;
}

function withinLimits(files: Record<string, string>): Record<string, string> {
  const count = Object.keys(files).length;
  if (count > MAX_FILES) throw new AppError('PAYLOAD_TOO_LARGE', `A project can have at most ${MAX_FILES} files: delete one before adding another.`);
  const total = Object.values(files).reduce((sum, content) => sum + utf8ByteLength(content), 0);
  if (total > MAX_PROJECT_BYTES) {
    throw new AppError('PAYLOAD_TOO_LARGE', `The project would be ${formatBytes(total)}: a project can be at most ${formatBytes(MAX_PROJECT_BYTES)} in all.`);
  }
  return files;
}
