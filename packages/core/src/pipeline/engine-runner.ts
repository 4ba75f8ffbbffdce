import { AppError } from '../errors.js';
import { EngineError, type ChatMessage, type ContentPart, type Engine, type EngineResult } from '../engines/engine.js';
import { MAX_OUTPUT_TOKENS_PER_CALL } from '../billing/guardrail.js';
import type { LogLevel, PipelineRole } from '../schemas/events.js';

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
  purpose: CallPurpose;
}

export interface StageCall {
  system: string;
  user: string;
  images?: ContentPart[];
  /** @default MAX_OUTPUT_TOKENS_PER_CALL: every call is bounded, so a stage's worst case is too. */
  maxTokens?: number;
  /** @default 'stage' */
  purpose?: CallPurpose;
  /** Cancels this call only (its stage failed elsewhere); the runner's own signal cancels all. */
  signal?: AbortSignal;
}

export type Emit = (level: LogLevel, message: string) => void;

/**
 * A stage's gate may let its calls start at once while what it guards is confirmed beside them
 * (a hold taken while the engines work, when what is known says it will be granted). Every call
 * still waits for `confirmed` before its answer is used or recorded; should it fail, the stage's
 * calls in flight are cancelled and each fails with its reason.
 */
export interface GateInFlight {
  confirmed: Promise<void>;
}

/** What a stage's gate answers: nothing once it passed, or a confirmation that comes while the calls run. */
export type StageGate = () => Promise<void | GateInFlight> | void | GateInFlight;

interface OpenGate {
  confirmed: Promise<void>;
  /** Aborted with the confirmation's failure. */
  signal: AbortSignal;
}

/** Engine kinds that will fail the same way on every call: skip the engine for the rest of the run. */
const PERMANENT = new Set(['auth', 'model_not_found', 'quota']);

/**
 * Gives each stage its engine (stage n uses modelOrder[n mod count]) and falls back to the next
 * engine in modelOrder when one keeps failing (its own retries are the adapter's), telling the
 * activity feed. A stage fails only when no engine can do it.
 */
export class EngineRunner {
  private readonly dead = new Map<string, string>();
  /** What the current stage must do before its first engine call, and that work once started. */
  private gate: { open: () => Promise<OpenGate | undefined>; passed?: Promise<OpenGate | undefined> } | null = null;

  constructor(
    private readonly engines: readonly Engine[],
    private readonly onCall: (record: EngineCallRecord) => void,
    private readonly signal?: AbortSignal,
  ) {
    if (engines.length === 0) throw new AppError('SERVICE_UNAVAILABLE', 'No engine is configured.');
  }

  /**
   * Sets what must happen before the current stage's first engine call (its reservation), or
   * nothing. It runs once however many calls the stage makes, in parallel or not; every call waits
   * for it and fails with it, and no engine is called before it succeeded, unless it answers a
   * {@link GateInFlight}. A stage that calls no engine never runs it.
   */
  beforeFirstCall(open: StageGate | null): void {
    this.gate = open ? { open: async () => inFlight(await open()) } : null;
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
    // Outside the fallback loop: a refused reservation is the run's answer, not an engine's failure.
    const gate = this.gate ? await (this.gate.passed ??= this.gate.open()) : undefined;
    const callSignal = gate ? (signal ? AbortSignal.any([signal, gate.signal]) : gate.signal) : signal;
    for (const [i, engine] of candidates.entries()) {
      callSignal?.throwIfAborted();
      try {
        const result = await engine.complete({
          messages: buildMessages(call),
          maxTokens: call.maxTokens ?? MAX_OUTPUT_TOKENS_PER_CALL,
          ...(callSignal ? { signal: callSignal } : {}),
        });
        // An answer counts (and is billed) only under a confirmed gate.
        if (gate) await gate.confirmed;
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
          purpose: call.purpose ?? 'stage',
        });
        return { text: result.text, engine, result };
      } catch (error) {
        // The gate was refused after the calls started: that is the stage's answer.
        if (gate?.signal.aborted) throw gate.signal.reason;
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
}

/** A gate's answer, with a signal that cancels the stage's calls should its confirmation fail. */
function inFlight(answer: void | GateInFlight): OpenGate | undefined {
  if (!answer) return undefined;
  const aborter = new AbortController();
  const confirmed = answer.confirmed.catch((error: unknown) => {
    aborter.abort(error);
    throw error;
  });
  // Every call awaits it; a stage whose calls all failed first must not leave it unhandled.
  confirmed.catch(() => {});
  return { confirmed, signal: aborter.signal };
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
