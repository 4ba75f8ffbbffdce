import { AppError } from '../errors.js';
import { MAX_OUTPUT_TOKENS_PER_CALL } from '../billing/guardrail.js';
import { EngineError, type Engine, type EngineUsage } from '../engines/engine.js';
import { newLogId } from '../pipeline/engine-runner.js';
import { withEvents } from '../pipeline/event-channel.js';
import type { Attachment } from '../schemas/attachments.js';
import { ENHANCEMENT_ENGINES_PER_PASS, ENHANCEMENT_PASSES, type LogEvent, type StepEvent } from '../schemas/events.js';
import { cleanPromptOutput } from './clean-prompt.js';
import { AGGREGATE_SYSTEM, ENHANCE_SYSTEM, REFINE_SYSTEM, originalSection, proposalsSection } from './enhance-prompts.js';

export interface EnhancementStepRecord {
  passNumber: number;
  /** 1-based slot within the pass. */
  engineOrder: number;
  engineKey: string;
  engineModel: string;
  inputPrompt: string;
  /** '' when the engine failed or answered with nothing. */
  outputPrompt: string;
  durationMs: number;
  /** False when the call failed (then `error` says why); an empty answer is ok but empty. */
  ok: boolean;
  error: string | null;
  usage: EngineUsage;
  costMillicents: number;
  /** Set when the engine's reported usage was unusable or more than the call could use (see countedUsage). */
  usageProblem?: string;
}

export interface EnhancementInput {
  prompt: string;
  attachments?: Attachment[];
  /** Slot n of each pass uses engines[n mod count]. */
  engines: Engine[];
  /** @default 2 */
  passes?: number;
  /** @default 4 */
  enginesPerPass?: number;
  signal?: AbortSignal;
  now?: () => number;
}

export interface EnhancementOutcome {
  sourcePrompt: string;
  /** '' when the engines produced nothing usable: the caller keeps the original prompt. */
  finalPrompt: string;
  steps: EnhancementStepRecord[];
  /** The merge of the last pass, when it took an engine call. */
  aggregation: EnhancementStepRecord | null;
}

const NO_USAGE: EngineUsage = { inputTokens: 0, outputTokens: 0, totalTokens: 0 };

/**
 * Multi-pass prompt enhancement as Mixture-of-Agents layers: within a pass the engines run
 * concurrently; each engine of pass 2 sees every output of pass 1; a final aggregation merges the
 * last pass. Wall time follows the number of passes, not of steps. A failing engine is skipped
 * with a feed message; a pass where every engine fails ends the enhancement with an error.
 */
export async function* runEnhancement(input: EnhancementInput): AsyncGenerator<StepEvent | LogEvent, EnhancementOutcome> {
  if (input.engines.length === 0) throw new AppError('SERVICE_UNAVAILABLE', 'No engine is configured.');
  const now = input.now ?? Date.now;
  const passes = input.passes ?? ENHANCEMENT_PASSES;
  const perPass = input.enginesPerPass ?? ENHANCEMENT_ENGINES_PER_PASS;
  const total = passes * perPass;
  const original = originalSection(input.prompt, attachmentsText(input.attachments ?? []));
  const started = now();
  const steps: EnhancementStepRecord[] = [];
  let proposals: string[] = [];
  // An engine whose usage could not be taken as reported is said once per enhancement, not per call.
  const warned = new Set<string>();
  const usageWarning = (record: EnhancementStepRecord): LogEvent | undefined => {
    if (!record.usageProblem || warned.has(record.engineKey)) return undefined;
    warned.add(record.engineKey);
    return log('warning', record.usageProblem);
  };

  for (let pass = 1; pass <= passes; pass++) {
    input.signal?.throwIfAborted();
    const system = pass === 1 ? ENHANCE_SYSTEM : REFINE_SYSTEM;
    const user = pass === 1 ? original : `${original}\n\nProposals from the previous pass:\n${proposalsSection(proposals)}`;
    const passStart = now();
    const results = yield* withEvents<StepEvent | LogEvent, EnhancementStepRecord[]>((emit) =>
      Promise.all(
        Array.from({ length: perPass }, async (_, slot) => {
          const engine = input.engines[slot % input.engines.length]!;
          const record = await callEngine(engine, pass, slot + 1, system, user, input.signal, now);
          steps.push(record);
          const said = usageWarning(record);
          if (said) emit(said);
          if (!record.ok) emit(log('warning', `${record.error} Skipping it in pass ${pass}; the other engines continue.`));
          else if (record.outputPrompt === '') emit(log('warning', `Engine ${engine.key} answered pass ${pass} with nothing; the other engines continue.`));
          emit(stepEvent(record, steps.length, total, estimateRemaining(steps, pass, passes, perPass, passStart, now())));
          return record;
        }),
      ),
    );
    const outputs = results.filter((r) => r.outputPrompt !== '').map((r) => r.outputPrompt);
    if (outputs.length === 0) {
      if (results.every((r) => !r.ok)) {
        const reasons = results.map((r) => r.error).join(' ');
        throw new AppError('BAD_GATEWAY', `No engine could enhance the prompt in pass ${pass}. ${reasons}`);
      }
      // The engines answered, with nothing: keep the original prompt (the client says so).
      yield log('warning', 'Enhancement completed but result was empty. Using original prompt.');
      return { sourcePrompt: input.prompt, finalPrompt: '', steps: steps.sort(byPassAndOrder), aggregation: null };
    }
    proposals = outputs;
    yield log('info', `Pass ${pass} of ${passes}: ${outputs.length} of ${perPass} engines proposed a prompt.`);
  }

  let aggregation: EnhancementStepRecord | null = null;
  let finalPrompt = proposals.length === 1 ? proposals[0]! : '';
  if (proposals.length > 1) {
    const user = `${original}\n\nProposals to merge:\n${proposalsSection(proposals)}`;
    for (const engine of input.engines) {
      aggregation = await callEngine(engine, passes + 1, 1, AGGREGATE_SYSTEM, user, input.signal, now);
      const said = usageWarning(aggregation);
      if (said) yield said;
      if (aggregation.outputPrompt !== '') break;
      yield log('warning', `${aggregation.error ?? `Engine ${engine.key} answered the final merge with nothing.`} Trying the next engine for the final merge.`);
    }
    // Every merge failed: the most detailed proposal of the last pass is still a good result.
    finalPrompt = aggregation?.outputPrompt || longest(proposals);
  }
  yield log('success', `Enhanced prompt ready after ${Math.round((now() - started) / 100) / 10}s.`);
  return { sourcePrompt: input.prompt, finalPrompt, steps: steps.sort(byPassAndOrder), aggregation };
}

async function callEngine(
  engine: Engine,
  passNumber: number,
  engineOrder: number,
  system: string,
  user: string,
  signal: AbortSignal | undefined,
  now: () => number,
): Promise<EnhancementStepRecord> {
  const start = now();
  const base = { passNumber, engineOrder, engineKey: engine.key, engineModel: engine.model, inputPrompt: user };
  try {
    const result = await engine.complete({ messages: [{ role: 'system', content: system }, { role: 'user', content: user }], maxTokens: MAX_OUTPUT_TOKENS_PER_CALL, signal });
    const outputPrompt = cleanPromptOutput(result.text);
    return {
      ...base,
      outputPrompt,
      durationMs: Math.round(now() - start),
      ok: true,
      error: null,
      usage: result.usage,
      costMillicents: Math.round(engine.pricePer1kTokensCents * result.usage.totalTokens),
      ...(result.usageProblem ? { usageProblem: result.usageProblem } : {}),
    };
  } catch (error) {
    if (signal?.aborted) throw error;
    const message = error instanceof EngineError ? error.message : `Engine ${engine.key} failed: ${(error as Error).message}`;
    return { ...base, outputPrompt: '', durationMs: Math.round(now() - start), ok: false, error: message, usage: NO_USAGE, costMillicents: 0 };
  }
}

function stepEvent(record: EnhancementStepRecord, done: number, total: number, remainingSeconds: number): StepEvent {
  return {
    type: 'step',
    passNumber: record.passNumber,
    engineOrder: record.engineOrder,
    progress: { current: done, total, percent: Math.round((done / total) * 100) },
    estimatedRemainingSeconds: Math.round(remainingSeconds * 10) / 10,
    engine: record.engineKey,
  };
}

/**
 * Steps of a pass run side by side, so what remains is: the rest of this pass (an average step
 * minus the time it has run), one average step per remaining pass, and one for the final merge.
 */
function estimateRemaining(steps: EnhancementStepRecord[], pass: number, passes: number, perPass: number, passStart: number, now: number): number {
  const avg = steps.reduce((sum, s) => sum + s.durationMs, 0) / Math.max(1, steps.length);
  const doneThisPass = steps.filter((s) => s.passNumber === pass).length;
  const rest = doneThisPass < perPass ? Math.max(0, avg - (now - passStart)) : 0;
  return (rest + (passes - pass) * avg + avg) / 1000;
}

function log(level: LogEvent['level'], message: string): LogEvent {
  return { type: 'log', id: newLogId(), level, message, timestamp: new Date().toISOString() };
}

function attachmentsText(attachments: Attachment[]): string {
  return attachments
    .filter((a) => !a.mimeType.startsWith('image/'))
    .map((a) => `--- ${a.filename} ---\n${a.content.slice(0, 20_000)}`)
    .join('\n\n');
}

function longest(texts: string[]): string {
  return texts.reduce((a, b) => (b.length > a.length ? b : a), '');
}

function byPassAndOrder(a: EnhancementStepRecord, b: EnhancementStepRecord): number {
  return a.passNumber - b.passNumber || a.engineOrder - b.engineOrder;
}
