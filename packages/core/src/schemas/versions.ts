/**
 * A project's versions (GET /api/projects/{id}/versions…), edits in the browser (PUT/DELETE
 * /api/projects/{id}/files/*path) and imports (POST /api/projects/import). Every change to a
 * project's files is a new version; nothing replaces one, so any version can be seen, diffed
 * against another and restored.
 */
import { z } from 'zod';
import { countLike, entityId, timestamp, versionNumber } from './common.js';
import { projectSummary } from './projects.js';
import { verificationRecord, verificationVerdict } from './verification.js';

/** What made a version. */
export const versionSource = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('build') }),
  z.object({ kind: z.literal('continue'), idea: z.string() }),
  z.object({ kind: z.literal('repair') }),
  z.object({ kind: z.literal('edit') }),
  z.object({ kind: z.literal('restore'), from: z.int().positive() }),
  /** `origin`: the zip's file name, the folder's name or `github:OWNER/REPO@REF`. */
  z.object({ kind: z.literal('import'), origin: z.string() }),
]);
export type VersionSource = z.infer<typeof versionSource>;

/** Longest idea a "Continue: …" label quotes before an ellipsis. */
const LABEL_IDEA_MAX = 80;

/** The words a version's source is shown with, in the web's list, the CLI and commit messages. */
export function versionSourceLabel(source: VersionSource): string {
  switch (source.kind) {
    case 'build':
      return 'Build';
    case 'continue': {
      const idea = source.idea.trim().replace(/\s+/g, ' ');
      return `Continue: ${idea.length > LABEL_IDEA_MAX ? `${idea.slice(0, LABEL_IDEA_MAX - 1)}…` : idea}`;
    }
    case 'repair':
      return 'Repair again';
    case 'edit':
      return 'Edited by you';
    case 'restore':
      return `Restored from version ${source.from}`;
    case 'import':
      return `Imported from ${source.origin}`;
  }
}

export const versionSummary = z.object({
  number: z.int().positive(),
  createdAt: timestamp,
  source: versionSource,
  /** {@link versionSourceLabel} of `source`. */
  label: z.string(),
  /** The run that made it; null for edits, restores and imports. */
  runId: entityId.nullable(),
  /** Proven Code's verdict on these files; null when they were never checked. */
  verdict: verificationVerdict.nullable(),
  fileCount: countLike,
  /** Against the version before it (version 1: against nothing). */
  added: countLike,
  changed: countLike,
  removed: countLike,
  /** The project's files are this version's. */
  current: z.boolean(),
});
export type VersionSummary = z.infer<typeof versionSummary>;

/** GET /api/projects/{id}/versions: newest first. */
export const versionsReply = z.object({ current: z.int().positive(), versions: z.array(versionSummary) });
export type VersionsReply = z.infer<typeof versionsReply>;

/** GET /api/projects/{id}/export?version=n: the zip of that version (without it, of the current one). */
export const versionExportQuery = z.object({ version: versionNumber.optional() });

/** GET /api/projects/{id}/versions/{n}?path=: one file of the version. */
export const versionFileQuery = z.object({
  path: z.string({ error: 'path must be a file path' }).min(1, 'path must be a file path').max(1024, 'path must be at most 1024 characters').optional(),
});

/** GET /api/projects/{id}/versions/{n}: every file; with ?path=, `files` holds that one file. */
export const versionFilesReply = z.object({ version: versionSummary, files: z.record(z.string(), z.string()) });
export type VersionFilesReply = z.infer<typeof versionFilesReply>;

export const FILE_CHANGE_STATUSES = ['added', 'changed', 'removed'] as const;

/** One file that differs between two versions. */
export const fileDiff = z.object({
  path: z.string(),
  status: z.enum(FILE_CHANGE_STATUSES),
  /** The text in `from` (null: not there). */
  before: z.string().nullable(),
  /** The text in `to` (null: not there). */
  after: z.string().nullable(),
  /** A unified diff of the file (`--- a/path`, `+++ b/path`, hunks with 3 lines of context). */
  patch: z.string(),
});
export type FileDiff = z.infer<typeof fileDiff>;

/** GET /api/projects/{id}/versions/{n}/diff?against=m: query; without `against`, the version before n (0: nothing). */
export const versionDiffQuery = z.object({
  against: z.coerce
    .number({ error: 'against must be a version number, or 0 for nothing' })
    .int('against must be a version number, or 0 for nothing')
    .min(0, 'against must be a version number, or 0 for nothing')
    .max(2_147_483_647, 'No project has that many versions')
    .optional(),
});

/** What changed from version `from` (0: nothing) to `to`, by path. */
export const versionDiffReply = z.object({
  from: z.int().min(0),
  to: z.int().positive(),
  files: z.array(fileDiff),
  added: countLike,
  changed: countLike,
  removed: countLike,
});
export type VersionDiffReply = z.infer<typeof versionDiffReply>;

/**
 * POST /api/projects/{id}/versions/{n}/restore. With `expectedVersion`, the restore is refused
 * (409) if the project moved on meanwhile.
 */
export const restoreVersionRequest = z.object({ expectedVersion: versionNumber.optional() });
export type RestoreVersionRequest = z.infer<typeof restoreVersionRequest>;

/** The reply to a change that made a version (restore, edit, delete, rename). */
export const versionChangeReply = z.object({
  version: versionSummary,
  /** Proven Code's record that came with the content (a restore of checked files), else null. */
  verification: verificationRecord.nullable(),
});
export type VersionChangeReply = z.infer<typeof versionChangeReply>;

/**
 * PUT /api/projects/{id}/files/*path: write one file (made if new). `expectedVersion` is the
 * version the change was made on; another version meanwhile (a run, another tab) is a 409 that
 * says which. `renameFrom`: the file moves from that path (its content replaced by `content`).
 */
export const fileEditRequest = z.object({
  content: z.string({ error: 'content must be the file’s text' }),
  expectedVersion: versionNumber,
  renameFrom: z.string().min(1).max(1024, 'renameFrom must be at most 1024 characters').optional(),
});
export type FileEditRequest = z.infer<typeof fileEditRequest>;
export type FileEditRequestInput = z.input<typeof fileEditRequest>;

/** DELETE /api/projects/{id}/files/*path?expectedVersion=n */
export const fileDeleteQuery = z.object({ expectedVersion: versionNumber });

/** A path of an import left out, and why ("node_modules/ is not imported", "binary file"). */
export const importSkipped = z.object({ path: z.string(), reason: z.string() });
export type ImportSkipped = z.infer<typeof importSkipped>;

/**
 * POST /api/projects/import as JSON: a GitHub repository read with the user's saved token.
 * (A zip is sent as the body itself, Content-Type application/zip, with ?idea= and ?name=.)
 */
export const githubImportRequest = z.object({
  github: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9-]{1,39}\/[A-Za-z0-9._-]{1,100}$/, 'github must be OWNER/REPO, e.g. octocat/hello-world'),
  ref: z.string().trim().min(1).max(255, 'ref must be at most 255 characters').optional(),
  idea: z.string().trim().min(1).max(50_000, 'The idea must be at most 50000 characters').optional(),
});
export type GithubImportRequest = z.infer<typeof githubImportRequest>;

/** 201 of POST /api/projects/import; `wolfpack import --json` prints it. */
export const importReply = z.object({ project: projectSummary, version: z.literal(1), skipped: z.array(importSkipped) });
export type ImportReply = z.infer<typeof importReply>;
