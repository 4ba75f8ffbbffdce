import { defineEntity, p } from '@mikro-orm/core';
import type { VersionSource } from '@wolfpack/core';

/** A generated project. Its files live in project_files, one row each, so they can be streamed. */
export const Project = defineEntity({
  name: 'Project',
  tableName: 'projects',
  properties: {
    id: p.uuid().primary(),
    userId: p.uuid().index(),
    idea: p.text(),
    fileCount: p.integer().default(0),
    totalBytes: p.bigint('number').default(0),
    folderId: p.uuid().nullable(),
    /** The current version's number: bumped by every change to the files (project_versions holds them all). */
    version: p.integer().default(1),
    sessionCount: p.integer().default(0),
    totalProcessingTimeMs: p.bigint('number').default(0),
    totalCostMillicents: p.bigint('number').default(0),
    /** owner/name of the GitHub repository it was published to, for a later re-publish. */
    githubRepo: p.string().length(200).nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});

/** One file of a project (the spec's fsIndex is the map of these). */
export const ProjectFile = defineEntity({
  name: 'ProjectFile',
  tableName: 'project_files',
  properties: {
    projectId: p.uuid().primary(),
    path: p.string().length(255).primary(),
    content: p.text().lazy(),
    size: p.integer(),
  },
});

/**
 * One version of a project, the current one included: what made it and what it holds. Its files
 * are in project_version_changes (the paths it changed) and project_blobs (contents by hash).
 */
export const ProjectVersion = defineEntity({
  name: 'ProjectVersion',
  tableName: 'project_versions',
  properties: {
    projectId: p.uuid().primary(),
    version: p.integer().primary(),
    idea: p.text(),
    /** The run that made this version; null for edits, restores and imports. */
    conversationId: p.uuid().nullable(),
    createdAt: p.datetime(),
    source: p.json<VersionSource>(),
    fileCount: p.integer().default(0),
    totalBytes: p.bigint('number').default(0),
    /** Against the version before it. */
    added: p.integer().default(0),
    changed: p.integer().default(0),
    removed: p.integer().default(0),
    /** sha256 over the version's sorted `hash path` lines: equal files, equal tree_hash. */
    treeHash: p.string().length(64),
  },
});

/** A folder of projects; parentFolderId null is the root. */
export const Folder = defineEntity({
  name: 'Folder',
  tableName: 'folders',
  properties: {
    id: p.uuid().primary(),
    userId: p.uuid().index(),
    name: p.string().length(100),
    parentFolderId: p.uuid().nullable(),
    createdAt: p.datetime(),
  },
});

/** Per-user secrets, encrypted at rest (AES-256-GCM with the server's secret key). */
export const UserSecret = defineEntity({
  name: 'UserSecret',
  tableName: 'user_secrets',
  properties: {
    userId: p.uuid().primary(),
    githubTokenCipher: p.text().nullable(),
    githubLogin: p.string().length(100).nullable(),
    updatedAt: p.datetime(),
  },
});
