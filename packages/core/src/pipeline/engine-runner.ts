import { AppError } from '../errors.js';
import { EngineError, type ChatMessage, type ContentPart, type Engine, type EngineResult } from '../engines/engine.js';
import { MAX_OUTPUT_TOKENS_PER_CALL } from '../billing/guardrail.js';
import { IMAGE_INPUT_CHARS } from '../billing/call-caps.js';
import { GrantWithdrawn, type CallBudget, type CallGrant, type StageKey } from '../billing/call-purse.js';
import { callCostCents } from '../billing/money.js';
import type { LogLevel, LogStep, PipelineRole } from '../schemas/events.js';

/** Why a call was made: repairs are refunded when the Proven Code gate still fails. */
export type CallPurpose = 'stage' | 'repair' | 'completion';

/** One engine call as recorded for usage, cost and the conversation's stage details. */
export interface EngineCallRecord {
  engineKey: string;
  stage: PipelineRole;
  cycle: number;
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
  durationMs: number;
  attempts: number;
  /** Cost in thousandths of a cent (price per 1k tokens in cents x tokens): exact integers. */
  costMillicents: number;
  /** The engine's price when the call was made, cents per 1,000 tokens (billing rounds per call). */
  pricePer1kTokensCents: number;
  /**
   * What the call is billed: its cost rounded up to whole cents, never more than it held (see
   * CallPurse); its cost when the run has no budget.
   */
  billedCents: number;
  purpose: CallPurpose;
}

export interface StageCall {
  system: string;
  user: string;
  images?: ContentPart[];
  /** The engine's output cap for this call; the budget may give it less. @default MAX_OUTPUT_TOKENS_PER_CALL */
  maxTokens?: number;
  /** @default 'stage' */
  purpose?: CallPurpose;
  /** Cancels this call only (its stage failed elsewhere); the runner's own signal cancels all. */
  signal?: AbortSignal;
}

/** A feed line; `step` when it starts or ends a step of Checking or Proven Code (see step-progress.ts). */
export type Emit = (level: LogLevel, message: string, step?: LogStep) => void;

/** Engine kinds that will fail the same way on every call: skip the engine for the rest of the run. */
const PERMANENT = new Set(['auth', 'model_not_found', 'quota']);

/** A call the budget refused, or whose hold failed: the run's answer, never an engine's failure. */
class NotGranted {
  constructor(readonly reason: unknown) {}
}

/**
 * Gives each stage its engine (stage n uses modelOrder[n mod count]) and falls back to the next
 * engine in modelOrder when one keeps failing (its own retries are the adapter's), telling the
 * activity feed. A stage fails only when no engine can do it. With a budget, every call first gets
 * its output cap and hold from it, on the engine it is about to call; a refusal stops the stage.
 */
export class EngineRunner {
  private readonly dead = new Map<string, string>();
  /** Engines whose unusable or impossible usage the run was told of (once each). */
  private readonly usageWarned = new Set<string>();
  /** The stage under way: what its calls are held and recorded for. */
  private stage: StageKey | null = null;

  constructor(
    private readonly engines: readonly Engine[],
    private readonly onCall: (record: EngineCallRecord) => void,
    private readonly signal?: AbortSignal,
    private readonly budget?: CallBudget,
  ) {
    if (engines.length === 0) throw new AppError('SERVICE_UNAVAILABLE', 'No engine is configured.');
  }

  /** The stage whose calls come next (its position in the run is what its holds are keyed by). */
  startStage(stage: StageKey): void {
    this.stage = stage;
  }

  /** The engine a stage starts with. */
  primaryFor(position: number): Engine {
    return this.order(position)[0]!;
  }

  private order(position: number): Engine[] {
    const n = this.engines.length;
    const rotated = Array.from({ length: n }, (_, i) => this.engines[(position + i) % n]!);
    const alive = rotated.filter((e) => !this.dead.has(e.key));
    return alive.length > 0 ? alive : rotated;
  }

  async call(position: number, role: PipelineRole, cycle: number, call: StageCall, emit: Emit): Promise<{ text: string; engine: Engine; result: EngineResult }> {
    const failures: string[] = [];
    const candidates = this.order(position);
    const signals = [this.signal, call.signal].filter((s): s is AbortSignal => s !== undefined);
    const signal = signals.length > 1 ? AbortSignal.any(signals) : signals[0];
    signal?.throwIfAborted();
    const messages = buildMessages(call);
    const stage = this.stage ?? { position, cycle, role };
    for (const [i, engine] of candidates.entries()) {
      signal?.throwIfAborted();
      try {
        const { result, billedCents } = await this.granted(engine, messages, call, stage, signal);
        this.onCall({
          engineKey: engine.key,
          stage: role,
          cycle,
          inputTokens: result.usage.inputTokens,
          outputTokens: result.usage.outputTokens,
          totalTokens: result.usage.totalTokens,
          durationMs: result.durationMs,
          attempts: result.attempts,
          costMillicents: Math.round(engine.pricePer1kTokensCents * result.usage.totalTokens),
          pricePer1kTokensCents: engine.pricePer1kTokensCents,
          billedCents,
          purpose: call.purpose ?? 'stage',
        });
        if (result.usageProblem && !this.usageWarned.has(engine.key)) {
          this.usageWarned.add(engine.key);
          emit('warning', result.usageProblem);
        }
        return { text: result.text, engine, result };
      } catch (error) {
        // Refused (or its hold failed): that is the stage's answer, not this engine's failure.
        if (error instanceof NotGranted) throw error.reason;
        // Cancelled, not failed: no fallback, no warning.
        if (signal?.aborted) throw error;
        const reason = error instanceof EngineError ? error.message : `Engine ${engine.key} failed: ${(error as Error).message}`;
        if (error instanceof EngineError && PERMANENT.has(error.kind)) this.dead.set(engine.key, reason);
        failures.push(reason);
        const next = candidates[i + 1];
        emit('warning', next ? `${reason} Falling back to engine ${next.key} for ${role}.` : reason);
      }
    }
    throw new AppError('BAD_GATEWAY', `No engine could complete ${role}. ${failures.join(' ')}`);
  }

  /**
   * One call on `engine` under its grant: the output cap the budget gives it, and an answer that
   * counts only once its hold is in. A call whose hold (taken beside it) was refused is cancelled
   * uncharged and asked for again; what the budget refuses stops the stage.
   */
  private async granted(engine: Engine, messages: ChatMessage[], call: StageCall, stage: StageKey, signal: AbortSignal | undefined): Promise<{ result: EngineResult; billedCents: number }> {
    const maxOutputTokens = call.maxTokens ?? MAX_OUTPUT_TOKENS_PER_CALL;
    for (;;) {
      signal?.throwIfAborted();
      let grant: CallGrant;
      try {
        grant = this.budget
          ? await this.budget.grant({ stage, engineKey: engine.key, pricePer1kTokensCents: engine.pricePer1kTokensCents, inputChars: messageChars(messages), maxOutputTokens })
          : unbudgeted(engine, maxOutputTokens);
      } catch (error) {
        throw new NotGranted(error);
      }
      const callSignal = grant.signal ? (signal ? AbortSignal.any([signal, grant.signal]) : grant.signal) : signal;
      let result: EngineResult;
      try {
        result = await engine.complete({ messages, maxTokens: grant.maxTokens, ...(callSignal ? { signal: callSignal } : {}) });
        // An answer counts (and is billed) only under a confirmed hold.
        await grant.confirmed;
      } catch (error) {
        grant.done(null);
        const refused = grant.signal?.aborted ? (grant.signal.reason as unknown) : undefined;
        if (refused instanceof GrantWithdrawn) continue;
        if (refused !== undefined) throw new NotGranted(refused);
        throw error;
      }
      return { result, billedCents: grant.done(result.usage.totalTokens) };
    }
  }
}

/** A call without a budget: the engine's full cap, nothing held, billed at its cost. */
function unbudgeted(engine: Engine, maxTokens: number): CallGrant {
  return { maxTokens, heldCents: 0, done: (tokens) => (tokens === null ? 0 : callCostCents(engine.pricePer1kTokensCents, tokens)) };
}

/** The characters a call sends, what its input is held for (an image counts as IMAGE_INPUT_CHARS). */
export function messageChars(messages: readonly ChatMessage[]): number {
  return messages.reduce((sum, m) => {
    if (typeof m.content === 'string') return sum + m.content.length;
    return sum + m.content.reduce((n, part) => n + (part.type === 'text' ? part.text.length : IMAGE_INPUT_CHARS), 0);
  }, 0);
}

function buildMessages(call: StageCall): ChatMessage[] {
  const user: ChatMessage =
    call.images && call.images.length > 0
      ? { role: 'user', content: [{ type: 'text', text: call.user }, ...call.images] }
      : { role: 'user', content: call.user };
  return [{ role: 'system', content: call.system }, user];
}

export function newLogId(): string {
  // globalThis.crypto: the same code runs in Node and in browsers.
  return globalThis.crypto.randomUUID();
}
