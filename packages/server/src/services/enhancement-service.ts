import { randomUUID } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/core';
import { AppError, type EnhancementEvent, type EnhancementRequest, type PromptHistoryReply } from '@wolfpack/core';
import { runEnhancement, type EnhancementOutcome } from '@wolfpack/core/enhance';
import { EngineUsage, Enhancement, EnhancementStep } from '../entities/index.js';
import type { Logger } from '../logger.js';
import type { EngineRegistry } from './engine-registry.js';
import type { ProjectService } from './project-service.js';

/** Multi-pass enhancement: runs it, stores every step and its engine usage, links it to a project. */
export class EnhancementService {
  constructor(
    private readonly orm: MikroORM,
    private readonly engines: EngineRegistry,
    private readonly projects: ProjectService,
    private readonly log: Logger,
  ) {}

  /** The enhancement's events; stored once it completes. An abort (client gone) stores nothing. */
  async *enhance(user: { id: string }, request: EnhancementRequest, signal: AbortSignal): AsyncGenerator<EnhancementEvent> {
    try {
      const gen = runEnhancement({ prompt: request.prompt, attachments: request.attachments, engines: this.engines.resolve([]), signal });
      let step = await gen.next();
      while (!step.done) {
        yield step.value;
        step = await gen.next();
      }
      await this.store(user.id, step.value);
      yield { type: 'complete', finalPrompt: step.value.finalPrompt };
    } catch (error) {
      if (signal.aborted) return;
      if (!(error instanceof AppError)) this.log.error('enhancement failed', error);
      const message = error instanceof AppError ? error.message : 'Failed to enhance prompt';
      yield { type: 'error', error: message, code: error instanceof AppError ? error.code : 'INTERNAL' };
    }
  }

  private async store(userId: string, outcome: EnhancementOutcome): Promise<void> {
    const byKey = new Map(this.engines.engines.map((e) => [e.key, e]));
    await this.orm.em.fork().transactional(async (em) => {
      const id = randomUUID();
      const now = new Date();
      em.create(Enhancement, {
        id,
        userId,
        sourcePrompt: outcome.sourcePrompt,
        finalPrompt: outcome.finalPrompt,
        cyclesRun: new Set(outcome.steps.map((s) => s.passNumber)).size,
        projectId: null,
        conversationId: null,
        createdAt: now,
      });
      // Ids are plain columns, not relations, so the unit of work cannot order the inserts itself.
      await em.flush();
      const calls = outcome.aggregation ? [...outcome.steps, outcome.aggregation] : outcome.steps;
      for (const s of outcome.steps) {
        em.create(EnhancementStep, {
          id: randomUUID(),
          enhancementId: id,
          passNumber: s.passNumber,
          engineOrder: s.engineOrder,
          engineKey: s.engineKey,
          engineModel: s.engineModel,
          inputPrompt: s.inputPrompt,
          outputPrompt: s.outputPrompt,
          durationMs: s.durationMs,
          ok: s.ok,
          error: s.error,
        });
      }
      for (const c of calls) {
        if (c.usage.totalTokens === 0 && !c.ok) continue;
        em.create(EngineUsage, {
          userId,
          conversationId: null,
          enhancementId: id,
          cycle: c.passNumber,
          stage: 'Enhance',
          engineKey: c.engineKey,
          provider: byKey.get(c.engineKey)?.provider ?? 'openai',
          model: c.engineModel,
          inputTokens: c.usage.inputTokens,
          outputTokens: c.usage.outputTokens,
          totalTokens: c.usage.totalTokens,
          durationMs: c.durationMs,
          attempts: 1,
          costMillicents: c.costMillicents,
          createdAt: now,
        });
      }
    });
  }

  /**
   * Links the user's newest unlinked enhancement whose final prompt is this run's idea to the
   * project the run produced: that is the project's Prompt Evolution.
   */
  async linkRun(userId: string, idea: string, conversationId: string, projectId: string): Promise<void> {
    const em = this.orm.em.fork();
    const match = await em.findOne(
      Enhancement,
      { userId, projectId: null, finalPrompt: idea.trim() },
      { orderBy: { createdAt: 'desc' }, fields: ['id'] },
    );
    if (match) await em.nativeUpdate(Enhancement, { id: match.id }, { projectId, conversationId });
  }

  async history(userId: string, projectId: string): Promise<PromptHistoryReply> {
    await this.projects.getOwned(userId, projectId);
    const em = this.orm.em.fork();
    const enhancement = await em.findOne(Enhancement, { userId, projectId }, { orderBy: { createdAt: 'desc' } });
    if (!enhancement) return { enhancement: null, steps: [] };
    const steps = await em.find(EnhancementStep, { enhancementId: enhancement.id }, { orderBy: { passNumber: 'asc', engineOrder: 'asc' } });
    return {
      enhancement: { sourcePrompt: enhancement.sourcePrompt, finalPrompt: enhancement.finalPrompt, cyclesRun: enhancement.cyclesRun },
      steps: steps.map((s) => ({
        id: s.id,
        passNumber: s.passNumber,
        engineOrder: s.engineOrder,
        engineKey: s.engineKey,
        // Models stay on the server (spec core §3): the interface shows the generic engine name.
        engineModel: s.engineKey,
        inputPrompt: s.inputPrompt,
        outputPrompt: s.outputPrompt,
        durationMs: s.durationMs,
      })),
    };
  }
}
