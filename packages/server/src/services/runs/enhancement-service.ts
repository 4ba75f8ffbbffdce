import { randomUUID } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/core';
import {
  AppError,
  callCostCents,
  costCapMessage,
  ENHANCEMENT_ENGINES_PER_PASS,
  ENHANCEMENT_STEPS,
  enhancementWorstCase,
  notEnoughCreditsMessage,
  settleCalls,
  type EnhancementEvent,
  type EnhancementRequest,
  type PromptHistoryReply,
} from '@wolfpack/core';
import { runEnhancement, type EnhancementOutcome } from '@wolfpack/core/enhance';
import { EngineUsage, Enhancement, EnhancementStep } from '../../entities/index.js';
import type { Logger } from '../../logger.js';
import type { EngineRegistry } from './engine-registry.js';
import type { LedgerService, WalletTx } from '../billing/ledger-service.js';
import type { ProjectService } from '../projects/project-service.js';

/** Multi-pass enhancement: runs it, stores every step and its engine usage, links it to a project. */
export class EnhancementService {
  constructor(
    private readonly orm: MikroORM,
    private readonly engines: EngineRegistry,
    private readonly projects: ProjectService,
    private readonly log: Logger,
    private readonly ledger: LedgerService,
  ) {}

  /** The enhancement's events; stored once it completes. An abort (client gone) stores nothing. */
  async *enhance(user: { id: string }, request: EnhancementRequest, signal: AbortSignal): AsyncGenerator<EnhancementEvent> {
    const id = randomUUID();
    const holdId = `enhance:${id}`;
    let held = 0;
    try {
      const engines = this.engines.resolve([]);
      // Reserve the worst case of all eight steps and the final merge first, as a run's stage does.
      const inputChars = request.prompt.length + request.attachments.reduce((sum, a) => sum + a.content.length, 0);
      const worst = enhancementWorstCase(inputChars, ENHANCEMENT_STEPS + engines.length, ENHANCEMENT_ENGINES_PER_PASS, engines.map((e) => e.pricePer1kTokensCents));
      if (request.maxCostCents !== undefined && worst.cents > request.maxCostCents) {
        throw new AppError('PAYMENT_REQUIRED', costCapMessage(worst.cents, request.maxCostCents, request.maxCostCents));
      }
      if (worst.cents > 0) {
        const reserved = await this.ledger.reserve(user.id, holdId, worst.cents, { enhancementId: null });
        if (!reserved.ok) throw new AppError('PAYMENT_REQUIRED', notEnoughCreditsMessage(worst.cents, reserved.balanceCents));
        held = worst.cents;
      }
      const gen = runEnhancement({ prompt: request.prompt, attachments: request.attachments, engines, signal });
      let step = await gen.next();
      while (!step.done) {
        yield step.value;
        step = await gen.next();
      }
      await this.store(user.id, id, step.value, holdId, held);
      held = 0;
      yield { type: 'complete', finalPrompt: step.value.finalPrompt };
    } catch (error) {
      // A failed or abandoned enhancement gives its hold back uncharged.
      if (held > 0) await this.ledger.transact(user.id, (tx) => tx.settle(holdId, 0, null)).catch((e) => this.log.warn('releasing an enhancement hold failed', e));
      if (signal.aborted) return;
      if (!(error instanceof AppError)) this.log.error('enhancement failed', error);
      const message = error instanceof AppError ? error.message : 'Failed to enhance prompt';
      yield { type: 'error', error: message, code: error instanceof AppError ? error.code : 'INTERNAL' };
    }
  }

  /** Stores the steps and their usage, and settles the hold to what the calls cost: one transaction. */
  private async store(userId: string, id: string, outcome: EnhancementOutcome, holdId: string, heldCents: number): Promise<void> {
    const byKey = new Map(this.engines.engines.map((e) => [e.key, e]));
    await this.ledger.transact(userId, async (tx: WalletTx) => {
      const em = tx.em;
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
      const billable = calls.filter((c) => !(c.usage.totalTokens === 0 && !c.ok));
      const prices = billable.map((c) => byKey.get(c.engineKey)?.pricePer1kTokensCents ?? 0);
      const billed = settleCalls(billable.map((c, i) => ({ cents: callCostCents(prices[i]!, c.usage.totalTokens) })), heldCents);
      for (const [i, c] of billable.entries()) {
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
          billedCents: billed[i] ?? 0,
          purpose: 'enhance',
          createdAt: now,
        });
      }
      await em.flush();
      if (heldCents > 0) {
        const total = billed.reduce((sum, c) => sum + c, 0);
        await tx.settle(holdId, total, { kind: 'engine_usage', amountCents: -total, reference: `usage:${holdId}`, enhancementId: id, description: 'AI Enhance' });
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
