import { defineEntity, p } from '@mikro-orm/core';

/**
 * One multi-pass enhancement of a prompt. `projectId` links it to the project that the next run
 * from its final prompt produced (the project's Prompt Evolution).
 */
export const Enhancement = defineEntity({
  name: 'Enhancement',
  tableName: 'enhancements',
  properties: {
    id: p.uuid().primary(),
    userId: p.uuid().index(),
    sourcePrompt: p.text(),
    finalPrompt: p.text(),
    cyclesRun: p.integer(),
    projectId: p.uuid().nullable(),
    conversationId: p.uuid().nullable(),
    createdAt: p.datetime(),
  },
});

/** One engine's step of one pass. */
export const EnhancementStep = defineEntity({
  name: 'EnhancementStep',
  tableName: 'enhancement_steps',
  properties: {
    id: p.uuid().primary(),
    enhancementId: p.uuid().index(),
    passNumber: p.integer(),
    engineOrder: p.integer(),
    engineKey: p.string().length(64),
    /** Server-side only; the API shows the generic engine key instead. */
    engineModel: p.string().length(200),
    inputPrompt: p.text(),
    outputPrompt: p.text(),
    durationMs: p.integer(),
    ok: p.boolean(),
    error: p.text().nullable(),
  },
});
