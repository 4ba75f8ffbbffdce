import { centsToDollars, estimateRun, PAST_RUNS_LOOKED_AT, PIPELINE_STAGES, repricedRunCents, type PipelineRole, type RunEstimateReply, type StreamRequest } from '@wolfpack/core';
import type { EngineRegistry } from './engine-registry.js';
import type { ProjectService } from '../projects/project-service.js';
import type { SqlAll } from './run-event-writer.js';

/** Text attachments count up to this much (as the pipeline sends them). */
const TEXT_ATTACHMENT_CHARS = 40_000;

/**
 * What a run would probably cost, before it starts (POST /api/wolfpack/estimate): the
 * user's latest completed runs priced at today's engines when there are enough, else the plan-size
 * model. Core's estimate rules decide every figure; this reads what they need.
 */
export class RunEstimates {
  constructor(
    private readonly sql: SqlAll,
    private readonly engines: EngineRegistry,
    private readonly projects: ProjectService,
  ) {}

  async estimate(userId: string, request: StreamRequest): Promise<RunEstimateReply> {
    const engines = this.engines.resolve(request.modelOrder);
    const prices = engines.map((e) => e.pricePer1kTokensCents);
    const existing = request.projectId ? await this.projects.files(userId, request.projectId) : {};
    const attachments = request.attachments ?? [];
    const ideaChars =
      request.idea.length + attachments.filter((a) => !a.mimeType.startsWith('image/')).reduce((sum, a) => sum + Math.min(TEXT_ATTACHMENT_CHARS, a.content.length), 0);
    const existingChars = Object.values(existing).reduce((sum, content) => sum + content.length, 0);
    const past = (await this.pastRuns(userId)).map((run) => repricedRunCents(run.tokens, run.cycles, { prices, cycles: request.cycles }));
    const estimate = estimateRun({ ideaChars, existingChars, cycles: request.cycles, prices }, past);
    return {
      ...estimate,
      lowDollars: centsToDollars(estimate.lowCents),
      highDollars: centsToDollars(estimate.highCents),
      engines: engines.map((e) => ({ key: e.key, pricePer1kTokensCents: e.pricePer1kTokensCents })),
    };
  }

  /** The tokens each stage of the user's latest completed builds used (repair-only runs are not builds). */
  private async pastRuns(userId: string): Promise<Array<{ cycles: number; tokens: Partial<Record<PipelineRole, number>> }>> {
    const rows = await this.sql<{ id: string; cycles: number; stage: string; tokens: string | number }>(
      `select c.id, c.cycles, u.stage, sum(u.total_tokens) as tokens
       from (select id, cycles from conversations
             where user_id = ? and status = 'completed' and only_stages is null
             order by completed_at desc limit ?) c
       join engine_usage u on u.conversation_id = c.id
       group by c.id, c.cycles, u.stage`,
      [userId, PAST_RUNS_LOOKED_AT],
    );
    const runs = new Map<string, { cycles: number; tokens: Partial<Record<PipelineRole, number>> }>();
    for (const row of rows) {
      const run = runs.get(row.id) ?? { cycles: Number(row.cycles), tokens: {} };
      runs.set(row.id, run);
      if ((PIPELINE_STAGES as readonly string[]).includes(row.stage)) run.tokens[row.stage as PipelineRole] = Number(row.tokens);
    }
    return [...runs.values()];
  }
}
