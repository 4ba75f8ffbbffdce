import { defineEntity, p } from '@mikro-orm/core';

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
    /** Bumped by every run that changes the files; earlier versions stay in project_versions. */
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

/** A project's files as they were before a later run changed them: nothing is ever lost. */
export const ProjectVersion = defineEntity({
  name: 'ProjectVersion',
  tableName: 'project_versions',
  properties: {
    projectId: p.uuid().primary(),
    version: p.integer().primary(),
    idea: p.text(),
    fsIndex: p.json<Record<string, string>>().lazy(),
    conversationId: p.uuid().nullable(),
    createdAt: p.datetime(),
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
