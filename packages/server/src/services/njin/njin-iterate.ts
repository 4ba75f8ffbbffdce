import type { MikroORM } from '@mikro-orm/core';
import { AppError, njinKeyProblem, type IterationCallRecord, type IterationOutcome, type NjinIterateReply, type NjinIterateRequest } from '@wolfpack/core';
import { runIteration, verifyProjects } from '@wolfpack/core/pipeline';
import type { Logger } from '../../logger.js';
import type { CapsuleService } from '../community/capsule-service.js';
import type { EngineRegistry } from '../runs/engine-registry.js';
import type { NjinKeys, ResolvedNjinKey } from './njin-keys.js';
import type { NjinLicences } from './njin-licences.js';
import type { Sql } from '../../db/plain-sql.js';

export const NJIN_KEY_UNKNOWN = 'This njin API key is unknown or was revoked. Create a new one on the njin page.';

/**
 * POST /api/njin/iterate: the key (checksum, then hash), the licence (402 without an active one),
 * the key's rate limit (429), then the consensus iteration. Every iteration that reached the
 * engines is counted and its engine calls recorded (purpose 'njin', billed to the licence: no
 * credits move), also when it ends in a 422.
 */
export class NjinIterations {
  constructor(
    private readonly orm: MikroORM,
    private readonly engines: EngineRegistry,
    private readonly keys: NjinKeys,
    private readonly licences: NjinLicences,
    private readonly capsules: CapsuleService,
    private readonly log: Logger,
    private readonly clock: () => Date,
  ) {}

  /** The key's owner, if the key is live, its owner's licence active and its rate limit not spent. */
  async authorize(apiKey: string): Promise<ResolvedNjinKey> {
    const problem = njinKeyProblem(apiKey);
    if (problem) throw new AppError('UNAUTHORIZED', problem);
    const key = await this.keys.resolve(apiKey);
    if (!key) throw new AppError('UNAUTHORIZED', NJIN_KEY_UNKNOWN);
    if (!this.licences.isActive(await this.licences.row(key.userId))) throw new AppError('PAYMENT_REQUIRED', this.licences.requiredMessage());
    await this.keys.takeToken(key.keyId);
    return key;
  }

  async iterate(key: ResolvedNjinKey, request: NjinIterateRequest, signal?: AbortSignal): Promise<NjinIterateReply> {
    const calls: IterationCallRecord[] = [];
    let outcome: IterationOutcome;
    try {
      outcome = await runIteration({
        files: request.files,
        instruction: request.instruction,
        mode: request.mode,
        engines: this.engines.resolve([]),
        verify: verifyProjects,
        ...(signal ? { signal } : {}),
        onCall: (call) => calls.push(call),
      });
    } catch (error) {
      // A 422 used the engines too: counted and recorded like a success.
      if (error instanceof AppError && error.code === 'UNPROCESSABLE') await this.record(key, calls, null, request);
      throw error;
    }
    const usageCount = await this.record(key, calls, outcome, request);
    return {
      patch: outcome.patch,
      files: outcome.files,
      consensusScore: outcome.consensusScore,
      modelVotes: outcome.modelVotes,
      checks: outcome.checks,
      candidates: outcome.candidates,
      mode: outcome.mode,
      usageCount,
    };
  }

  /** Usage counts (licence and key) and engine usage rows in one transaction; then the capsule. */
  private async record(key: ResolvedNjinKey, calls: readonly IterationCallRecord[], outcome: IterationOutcome | null, request: NjinIterateRequest): Promise<number> {
    const byKey = new Map(this.engines.engines.map((e) => [e.key, e]));
    const now = this.clock();
    const usageCount = await this.orm.em.fork().transactional(async (tx) => {
      const em = tx as Sql;
      const count = await this.licences.countUse(em, key.userId);
      await this.keys.countUse(em, key.keyId);
      for (const call of calls) {
        const engine = byKey.get(call.engineKey);
        await em.execute(
          `insert into engine_usage (user_id, conversation_id, enhancement_id, cycle, stage, engine_key, provider, model, input_tokens, output_tokens, total_tokens,
             duration_ms, attempts, cost_millicents, billed_cents, purpose, created_at)
           values (?, null, null, 0, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, 'njin', ?)`,
          [key.userId, call.purpose === 'vote' ? 'njin vote' : 'njin proposal', call.engineKey, engine?.provider ?? 'openai', engine?.model ?? 'unknown', call.inputTokens, call.outputTokens, call.totalTokens, call.durationMs, call.attempts, call.costMillicents, now],
        );
      }
      return count;
    });
    if (outcome) {
      try {
        await this.capsules.recordIteration({ userId: key.userId, instruction: request.instruction, files: request.files, outcome, createdAt: now });
      } catch (error) {
        // The patch is already paid for and counted: a capsule that fails to record loses no work.
        this.log.warn(`njin: could not record the iteration's capsule: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    return usageCount;
  }
}
