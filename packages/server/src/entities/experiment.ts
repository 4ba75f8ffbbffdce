import { defineEntity, p } from '@mikro-orm/core';

/**
 * A cost-comparison lab experiment: the run it started, the Replit-only timer and the
 * costs the user entered. Savings are stored in hundredths of a percent (exact, see the core
 * formula); null until they can be computed.
 */
export const Experiment = defineEntity({
  name: 'Experiment',
  tableName: 'experiments',
  properties: {
    id: p.uuid().primary(),
    userId: p.uuid(),
    conversationId: p.uuid().nullable(),
    projectName: p.string().length(200),
    testPrompt: p.text(),
    promptType: p.string().length(16),
    status: p.string().length(32),
    wolfpackCostCents: p.bigint('number').nullable(),
    wolfpackProcessingTimeMs: p.bigint('number').nullable(),
    wolfpackReplitAssemblyCostCents: p.bigint('number').nullable(),
    wolfpackReplitAssemblyTimeMs: p.bigint('number').nullable(),
    replitOnlyStartedAt: p.datetime().nullable(),
    replitOnlyCompletedAt: p.datetime().nullable(),
    replitOnlyTotalTimeMs: p.bigint('number').nullable(),
    replitOnlyCostCents: p.bigint('number').nullable(),
    savingsHundredths: p.bigint('number').nullable(),
    costsSubmittedAt: p.datetime().nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});

/** Cost-comparison lab entities. Every entity defined here goes in this list. */
export const experimentEntities = [Experiment] as const;
