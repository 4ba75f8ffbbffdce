import type { MikroORM } from '@mikro-orm/core';
import {
  grantMonth as utcMonthKey,
  PIPELINE_STAGES,
  runSavings,
  runStageRecords,
  STATISTICS_STAGE_COUNT,
  type Conversation as ConversationPayload,
  type PipelineRole,
  type SavingsFigures,
  type SavingsReplyJson,
  type StatsReply,
} from '@wolfpack/core';
import { Conversation } from '../../entities/index.js';

/** The statistics panel and the run history, computed from stored runs so they follow the user. */
export class StatsService {
  constructor(
    private readonly orm: MikroORM,
    private readonly clock: () => Date = () => new Date(),
  ) {}

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
      stages: runStageRecords(
        r.stages.map((s) => ({ ...s, role: s.role as PipelineRole })),
        { status: r.status, error: r.error, roles: r.onlyStages ?? PIPELINE_STAGES, cycles: r.cycles },
      ).map(({ cycle: _cycle, ...stage }) => stage),
      projectId: r.status === 'completed' ? (r.projectId ?? null) : null,
    }));
  }

  /**
   * The Savings dashboard from the user's completed runs: all time, this calendar month (UTC),
   * per-run averages, and the last SAVINGS_MONTHS months oldest first (empty months as zeros).
   * A run counts in the month it completed.
   */
  async savings(userId: string): Promise<SavingsReplyJson> {
    const runs = await this.orm.em.fork().find(Conversation, { userId, status: 'completed' }, { fields: ['executionMs', 'completedAt', 'createdAt'] });
    const now = this.clock();
    const keys = Array.from({ length: SAVINGS_MONTHS }, (_, i) => utcMonthKey(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - (SAVINGS_MONTHS - 1 - i), 1))));
    const byMonth = new Map(keys.map((key) => [key, { seconds: 0, runs: 0 }]));
    const all = { seconds: 0, runs: 0 };
    for (const run of runs) {
      const seconds = Math.max(0, run.executionMs) / 1000;
      all.seconds += seconds;
      all.runs += 1;
      const month = byMonth.get(utcMonthKey(run.completedAt ?? run.createdAt));
      if (month) {
        month.seconds += seconds;
        month.runs += 1;
      }
    }
    const perRun = all.runs > 0 ? runSavings(all.seconds / all.runs) : runSavings(0);
    return {
      allTime: figures(all),
      thisMonth: figures(byMonth.get(utcMonthKey(now))!),
      perRun: { ...perRun, seconds: all.runs > 0 ? all.seconds / all.runs : 0 },
      months: keys.map((month) => ({ month, ...figures(byMonth.get(month)!) })),
    };
  }
}

/** The Savings dashboard's chart covers this many months, the current one included. */
export const SAVINGS_MONTHS = 6;

/** Savings are linear in seconds, so a period's total is the savings of its summed run time. */
function figures(period: { seconds: number; runs: number }): SavingsFigures {
  return { ...runSavings(period.seconds), runs: period.runs };
}
