import type { MikroORM } from '@mikro-orm/core';
import { runSavings, STATISTICS_STAGE_COUNT, type Conversation as ConversationPayload, type StatsReply } from '@wolfpack/core';
import { Conversation } from '../entities/index.js';

/** The statistics panel and the run history, computed from stored runs so they follow the user. */
export class StatsService {
  constructor(private readonly orm: MikroORM) {}

  async stats(userId: string): Promise<StatsReply> {
    const runs = await this.orm.em.fork().find(
      Conversation,
      { userId },
      { fields: ['status', 'executionMs', 'stages', 'createdAt'], orderBy: { createdAt: 'desc' } },
    );
    const finished = runs.filter((r) => r.status !== 'running');
    const completed = runs.filter((r) => r.status === 'completed');
    const totalSeconds = completed.reduce((sum, r) => sum + r.executionMs / 1000, 0);
    const savings = completed.map((r) => runSavings(r.executionMs / 1000));
    const latest = runs[0];
    return {
      totalRuns: runs.length,
      successRate: finished.length > 0 ? (completed.length / finished.length) * 100 : 0,
      averageTime: completed.length > 0 ? totalSeconds / completed.length : 0,
      pipelineStages: Math.min(STATISTICS_STAGE_COUNT, latest ? latest.stages.filter((s) => s.ok).length : 0),
      totalTimeSaved: savings.reduce((sum, s) => sum + s.timeSavedHours, 0),
      totalCostSaved: savings.reduce((sum, s) => sum + s.costSavedDollars, 0),
    };
  }

  async conversations(userId: string, limit = 100): Promise<ConversationPayload[]> {
    const rows = await this.orm.em.fork().find(Conversation, { userId }, { orderBy: { createdAt: 'desc' }, limit });
    return rows.map((r) => ({
      id: r.id,
      idea: r.idea,
      createdAt: r.createdAt.toISOString(),
      stages: r.stages.map((s) => ({ role: s.role as ConversationPayload['stages'][number]['role'], ok: s.ok, engine: s.engine, durationMs: s.durationMs, tokens: s.tokens })),
      projectId: r.status === 'completed' ? (r.projectId ?? null) : null,
    }));
  }
}
