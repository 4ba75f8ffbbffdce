/**
 * Payloads of the build screen, projects and conversations (spec core §3, §5, §7; companion §3
 * Project). Attachments and folders have modules of their own.
 */
import { z } from 'zod';
import { verificationRecord } from './verification.js';
import { countLike, cents, entityId, jsonVersionNumber, timestamp } from './common.js';
import { pipelineRole } from './events.js';
import { attachments } from './attachments.js';

// ---------------------------------------------------------------------------------------------
// Runs: POST /api/wolfpack/stream, POST /api/multi-pass-enhancements
// ---------------------------------------------------------------------------------------------

export const IDEA_MAX = 50_000;
export const MAX_CYCLES = 5;

/** A generic engine label as the interface shows it (never a vendor key, core §3). */
export const engineLabel = z
  .string()
  .trim()
  .min(1, 'Engine labels may not be blank')
  .max(64, 'Engine labels must be at most 64 characters')
  .regex(/^[\p{L}\p{N} ._-]+$/u, 'Engine labels may contain only letters, digits, spaces, dots, hyphens and underscores');

export const streamRequest = z.object({
  idea: z
    .string()
    .trim()
    .min(1, 'Please enter an idea or speak.')
    .max(IDEA_MAX, 'The idea must be at most 50000 characters'),
  /** Engine labels in the order the stages use them; empty means the server's default order. */
  modelOrder: z.array(engineLabel).max(8, 'At most 8 engines can be ordered').default([]),
  cycles: z
    .int('Cycles must be a whole number')
    .min(1, 'Run at least 1 cycle')
    .max(MAX_CYCLES, 'Run at most 5 cycles')
    .default(1),
  /** Continue building on this project. */
  projectId: entityId.optional(),
  attachments: attachments.optional(),
  /** The most this run may spend, in cents: no engine call is given more than what is left of it, and the run stops when that is too little for one. */
  maxCostCents: z.int('maxCostCents must be a whole number of cents').min(0, 'maxCostCents must be 0 or more').optional(),
});
export type StreamRequest = z.infer<typeof streamRequest>;
export type StreamRequestInput = z.input<typeof streamRequest>;

/**
 * POST /api/projects/{id}/repair: "Repair again" after a failed Proven Code gate. A new run that
 * does only the Proven Code stage (its repair rounds) on the project's current files, reserved and
 * charged like any stage. The reply is the run's event stream, as for POST /api/wolfpack/stream.
 */
export const repairRequest = z.object({
  modelOrder: streamRequest.shape.modelOrder,
  maxCostCents: streamRequest.shape.maxCostCents,
});
export type RepairRequest = z.infer<typeof repairRequest>;
export type RepairRequestInput = z.input<typeof repairRequest>;

export const enhancementRequest = z.object({
  prompt: z.string().trim().min(1, 'Please enter a prompt to enhance.').max(IDEA_MAX, 'The prompt must be at most 50000 characters'),
  attachments: attachments.default([]),
  /** The most this enhancement may spend, in cents. */
  maxCostCents: z.int('maxCostCents must be a whole number of cents').min(0, 'maxCostCents must be 0 or more').optional(),
});
export type EnhancementRequest = z.infer<typeof enhancementRequest>;
export type EnhancementRequestInput = z.input<typeof enhancementRequest>;

// ---------------------------------------------------------------------------------------------
// Projects: GET /api/projects, /api/folders/{id|root}/projects, /api/projects/{id}
// ---------------------------------------------------------------------------------------------

/** Map of file path to file content. */
export const fsIndex = z.record(z.string(), z.string());
export type FsIndex = z.infer<typeof fsIndex>;

export const projectSummary = z.object({
  id: entityId,
  idea: z.string(),
  createdAt: timestamp,
  updatedAt: timestamp,
  folderId: entityId.nullable().optional(),
  /** Entries in the project's file map. */
  fileCount: countLike,
  sessionCount: countLike.default(0),
  totalCostCents: cents.default(0),
  replitTotalCostCents: cents.default(0),
  totalProcessingTimeMs: countLike.default(0),
});
export type ProjectSummary = z.infer<typeof projectSummary>;

export const projectsReply = z.object({ projects: z.array(projectSummary) });
export type ProjectsReply = z.infer<typeof projectsReply>;

/**
 * Orders of a project list (the All Projects sort dropdown, `wolfpack projects ls --sort`). Each
 * pair is the exact reverse of the other, ties included: newest and oldest by the last update
 * (then id), a-z and z-a by the title, case-insensitive (ties oldest first for a-z), most-files
 * and least-files by the file count (ties newest first for most-files).
 */
export const PROJECT_SORTS = ['newest', 'oldest', 'a-z', 'z-a', 'most-files', 'least-files'] as const;
export type ProjectSort = (typeof PROJECT_SORTS)[number];

/** Projects per page of GET /api/projects when no limit is given. */
export const PROJECTS_PAGE_SIZE = 50;
/** The largest page GET /api/projects answers: a list of 10,000 projects comes in pages. */
export const PROJECTS_MAX_PAGE_SIZE = 200;
/** Longest search text: longer ones say nothing more about an idea's words. */
export const PROJECTS_SEARCH_MAX = 200;

/** One query-string value: Koa gives a string, or an array when the key repeats (the first counts). */
function queryValue(value: unknown): unknown {
  const first = Array.isArray(value) ? (value as unknown[])[0] : value;
  return typeof first === 'string' && first.trim() === '' ? undefined : first;
}

/**
 * GET /api/projects query string. Without parameters it answers the newest 50 projects of every
 * folder; `nextCursor` of the reply, passed as `cursor`, gives the next page (keyset paging, so
 * pages stay disjoint and complete while projects are added).
 */
export const projectsQuery = z.object({
  limit: z.preprocess(
    queryValue,
    z.coerce
      .number({ error: 'limit must be a number' })
      .int('limit must be a whole number')
      .min(1, 'limit must be at least 1')
      .max(PROJECTS_MAX_PAGE_SIZE, `limit must be at most ${PROJECTS_MAX_PAGE_SIZE}`)
      .default(PROJECTS_PAGE_SIZE),
  ),
  /** The `nextCursor` of the previous page; absent for the first page. */
  cursor: z.preprocess(
    queryValue,
    z
      .string({ error: 'cursor must be the nextCursor of an earlier page' })
      .max(2_048, 'cursor must be the nextCursor of an earlier page')
      .optional(),
  ),
  /** Only the projects directly in this folder; `root` for those in no folder. Absent: every folder. */
  folderId: z.preprocess(
    queryValue,
    z.string({ error: 'folderId must be a folder id or root' }).trim().max(128, 'folderId must be a folder id or root').optional(),
  ),
  sort: z.preprocess(queryValue, z.enum(PROJECT_SORTS, { error: `sort must be one of ${PROJECT_SORTS.join(', ')}` }).default('newest')),
  /** Only projects whose idea contains this text, ignoring case. */
  q: z.preprocess(
    queryValue,
    z
      .string({ error: 'q must be text' })
      .trim()
      .max(PROJECTS_SEARCH_MAX, `q must be at most ${PROJECTS_SEARCH_MAX} characters`)
      .refine((text) => !text.includes('\u0000'), 'q must not contain NUL characters')
      .optional(),
  ),
  /** `true` adds `total` and `folderCounts` to a first page (one more query, so only on request). */
  counts: z.preprocess(queryValue, z.enum(['true', 'false'], { error: 'counts must be true or false' }).optional()),
});
export type ProjectsQuery = z.infer<typeof projectsQuery>;

/**
 * A page of GET /api/projects: the spec's `{projects}` plus paging. `nextCursor` is null on the
 * last page. With `counts=true` a first page also carries `total` (projects matching the folder
 * and search) and `folderCounts` (every project of the user by folder id, `root` for no folder).
 */
export const projectsPageReply = projectsReply.extend({
  /** Defaults to null: a server from before paging answers every project at once. */
  nextCursor: z.string().nullable().default(null),
  total: countLike.optional(),
  folderCounts: z.record(z.string(), countLike).optional(),
});
export type ProjectsPageReply = z.infer<typeof projectsPageReply>;

export const project = z.object({
  id: entityId,
  idea: z.string(),
  createdAt: timestamp,
  updatedAt: timestamp,
  folderId: entityId.nullable().optional(),
  fsIndex,
});
export type Project = z.infer<typeof project>;

/** GET /api/projects/{id}: the project and the list of its file paths. */
export const projectDetailReply = z.object({
  project,
  files: z.array(z.string()),
  /** Proven Code's record of the current version; null for projects made before records were kept, absent from older servers. */
  verification: verificationRecord.nullable().optional(),
  /** The number of the version the files are (edits send it back as expectedVersion); absent from older servers. */
  version: z.int().positive().optional(),
});
export type ProjectDetailReply = z.infer<typeof projectDetailReply>;

/** Moving a project into a folder (the spec shows no call; the server picks the route). null is the root. */
export const moveProjectRequest = z.object({ folderId: entityId.nullable() });
export type MoveProjectRequest = z.infer<typeof moveProjectRequest>;

// ---------------------------------------------------------------------------------------------
// Conversations (runs): GET /api/conversations
// ---------------------------------------------------------------------------------------------

/** What happened to a stage of a stored run (core's runStageRecords): only `complete` did its work. */
export const STORED_STAGE_STATUSES = ['complete', 'failed', 'not-run', 'pending'] as const;

export const conversationStage = z.object({
  role: pipelineRole,
  ok: z.boolean(),
  /** Absent in replies of older servers: then `ok` alone tells complete from failed. */
  status: z.enum(STORED_STAGE_STATUSES).optional(),
  /** Why a failed stage failed, a phrase that follows "Failed: ". */
  reason: z.string().optional(),
  engine: z.string().optional(),
  durationMs: countLike.optional(),
  tokens: countLike.optional(),
});
export type ConversationStage = z.infer<typeof conversationStage>;

export const conversation = z.object({
  id: entityId,
  idea: z.string(),
  createdAt: timestamp,
  stages: z.array(conversationStage),
  /** Null when the run generated no files ('No Project'). */
  projectId: entityId.nullable(),
});
export type Conversation = z.infer<typeof conversation>;

export const conversationsReply = z.object({ conversations: z.array(conversation) });
export type ConversationsReply = z.infer<typeof conversationsReply>;

// ---------------------------------------------------------------------------------------------
// Prompt history and Replit code: GET /api/projects/{id}/prompt-history, /replit-code
// ---------------------------------------------------------------------------------------------

export const enhancementStep = z.object({
  id: entityId,
  passNumber: z.int().positive(),
  engineOrder: z.int().positive(),
  engineKey: z.string(),
  engineModel: z.string(),
  inputPrompt: z.string(),
  outputPrompt: z.string(),
  durationMs: countLike,
});
export type EnhancementStep = z.infer<typeof enhancementStep>;

export const promptHistoryReply = z.object({
  /** Null for projects that predate multi-pass enhancement. */
  enhancement: z.object({ sourcePrompt: z.string(), finalPrompt: z.string(), cyclesRun: countLike }).nullable(),
  steps: z.array(enhancementStep),
});
export type PromptHistoryReply = z.infer<typeof promptHistoryReply>;

export const replitCodeReply = z.object({
  success: z.boolean(),
  /** All files consolidated into one text to paste into Replit. */
  code: z.string(),
  fileCount: countLike,
  error: z.string().optional(),
});
export type ReplitCodeReply = z.infer<typeof replitCodeReply>;


// ---------------------------------------------------------------------------------------------
// Publish to GitHub: POST /api/projects/{id}/publish-to-github
// ---------------------------------------------------------------------------------------------

/** GitHub's own rule: at most 100 of A-Z a-z 0-9 . _ -, and not '.' or '..'. */
export const repoName = z
  .string()
  .trim()
  // abort: a blank name gets only this message, not also the character rule below.
  .min(1, { message: 'Please enter a name for your GitHub repository', abort: true })
  .max(100, 'Repository names must be at most 100 characters')
  .regex(/^[A-Za-z0-9._-]+$/, 'Repository names may contain only letters, numbers, hyphens, underscores and dots')
  .refine((name) => name !== '.' && name !== '..', 'Repository names cannot be "." or ".."');

export const publishRequest = z.object({
  repoName,
  description: z.string().trim().max(350, 'Descriptions must be at most 350 characters').default(''),
  isPrivate: z.boolean().default(false),
  /** The version whose files are published; the current one when left out. */
  version: jsonVersionNumber.optional(),
  /**
   * Every version up to `version` (or the current one) as a commit each, oldest first, its label
   * (versionSourceLabel) the message; into a new repository only.
   */
  history: z.boolean({ error: 'history must be true or false' }).optional(),
});
export type PublishRequest = z.infer<typeof publishRequest>;
export type PublishRequestInput = z.input<typeof publishRequest>;

export const publishReply = z.object({ repoUrl: z.url(), replitUrl: z.url() });
export type PublishReply = z.infer<typeof publishReply>;

/**
 * The publish dialog's suggested repository name (core §2): the first 50 characters of the idea,
 * lowercased, other than letters, digits, whitespace and hyphens removed, whitespace runs
 * turned into single hyphens.
 */
export function suggestRepoName(idea: string): string {
  return idea
    .slice(0, 50)
    .toLowerCase()
    .replace(/[^a-z0-9\s-]/g, '')
    .replace(/\s+/g, '-');
}
