import { defineEntity, p } from '@mikro-orm/core';

/** A generated project: its files as a path -> content map (fsIndex). */
export const Project = defineEntity({
  name: 'Project',
  tableName: 'projects',
  properties: {
    id: p.uuid().primary(),
    userId: p.uuid().index(),
    idea: p.text(),
    fsIndex: p.json<Record<string, string>>().lazy(),
    fileCount: p.integer().default(0),
    folderId: p.uuid().nullable(),
    /** Bumped by every run that changes the files; earlier versions stay in project_versions. */
    version: p.integer().default(1),
    sessionCount: p.integer().default(0),
    totalProcessingTimeMs: p.bigint('number').default(0),
    totalCostMillicents: p.bigint('number').default(0),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
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
