import { describe, expect, it } from 'vitest';
import { AppError } from '../errors.js';
import { EngineError } from '../engines/engine.js';
import { scriptedEngine, systemOf, userOf } from '../pipeline/testing-engines.js';
import type { LogEvent, StepEvent } from '../schemas/events.js';
import { runEnhancement, type EnhancementInput, type EnhancementOutcome } from './run-enhancement.js';

async function collect(input: EnhancementInput): Promise<{ events: Array<StepEvent | LogEvent>; outcome: EnhancementOutcome }> {
  const events: Array<StepEvent | LogEvent> = [];
  const gen = runEnhancement(input);
  let step = await gen.next();
  while (!step.done) {
    events.push(step.value);
    step = await gen.next();
  }
  return { events, outcome: step.value };
}

/** Answers "<key> pass <n>" so each output can be traced to its engine and pass. */
function tracer(key: string, delayMs = 0) {
  return scriptedEngine(key, (req) => {
    const system = systemOf(req.messages);
    const pass = /merge prompt proposals/.test(system) ? 'merge' : /Several engines proposed/.test(system) ? '2' : '1';
    return { text: `Here is the enhanced prompt:\n${key} pass ${pass}`, delayMs };
  });
}

describe('runEnhancement', () => {
  it('runs 2 passes x 4 engines; every engine of pass 2 sees every output of pass 1; a merge gives the final prompt', async () => {
    const engines = ['a', 'b', 'c', 'd'].map((k) => tracer(k));
    const { events, outcome } = await collect({ prompt: 'A todo app', engines });
    const steps = events.filter((e): e is StepEvent => e.type === 'step');
    expect(steps).toHaveLength(8);
    expect(steps.map((s) => s.progress.current)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(steps.at(-1)!.progress.percent).toBe(100);
    expect(outcome.steps.map((s) => `${s.passNumber}.${s.engineOrder}:${s.engineKey}`)).toEqual([
      '1.1:a', '1.2:b', '1.3:c', '1.4:d', '2.1:a', '2.2:b', '2.3:c', '2.4:d',
    ]);
    for (const step of outcome.steps.filter((s) => s.passNumber === 2)) {
      for (const key of ['a', 'b', 'c', 'd']) expect(step.inputPrompt).toContain(`${key} pass 1`);
    }
    // The preamble line a model adds is not part of the prompt.
    expect(outcome.steps[0]!.outputPrompt).toBe('a pass 1');
    expect(outcome.finalPrompt).toBe('a pass merge');
    expect(outcome.aggregation?.inputPrompt).toContain('d pass 2');
  });

  it('runs the engines of a pass concurrently: wall time follows passes, not steps', async () => {
    let inFlight = 0;
    let maxInFlight = 0;
    const engines = ['a', 'b', 'c', 'd'].map((k) =>
      scriptedEngine(k, async () => {
        inFlight += 1;
        maxInFlight = Math.max(maxInFlight, inFlight);
        await new Promise((r) => setTimeout(r, 30));
        inFlight -= 1;
        return `${k} idea`;
      }),
    );
    await collect({ prompt: 'A todo app', engines });
    expect(maxInFlight).toBe(4);
  });

  it('fills the four slots round-robin when fewer engines are configured', async () => {
    const { outcome } = await collect({ prompt: 'x', engines: [tracer('a'), tracer('b')] });
    expect(outcome.steps.map((s) => s.engineKey)).toEqual(['a', 'b', 'a', 'b', 'a', 'b', 'a', 'b']);
  });

  it('skips a failing engine with a feed message and continues with the others', async () => {
    const broken = scriptedEngine('b', () => new EngineError('b', 'server', 'Engine b answered 500 three times.'));
    const { events, outcome } = await collect({ prompt: 'A todo app', engines: [tracer('a'), broken, tracer('c'), tracer('d')] });
    const warnings = events.filter((e): e is LogEvent => e.type === 'log' && e.level === 'warning').map((e) => e.message);
    expect(warnings).toContain('Engine b answered 500 three times. Skipping it in pass 1; the other engines continue.');
    expect(outcome.steps.filter((s) => !s.ok).map((s) => `${s.passNumber}.${s.engineOrder}`)).toEqual(['1.2', '2.2']);
    for (const step of outcome.steps.filter((s) => s.passNumber === 2 && s.ok)) expect(step.inputPrompt).not.toContain('b pass 1');
    expect(outcome.finalPrompt).toBe('a pass merge');
  });

  it('fails when every engine of a pass fails, saying why', async () => {
    const engines = ['a', 'b'].map((k) => scriptedEngine(k, () => new EngineError(k, 'auth', `Engine ${k} rejected its API key (401).`)));
    await expect(collect({ prompt: 'x', engines })).rejects.toThrow(AppError);
    await expect(collect({ prompt: 'x', engines })).rejects.toThrow(/No engine could enhance the prompt in pass 1\. Engine a rejected/);
  });

  it('reports an empty result so the caller keeps the original prompt', async () => {
    const engines = ['a', 'b', 'c', 'd'].map((k) => scriptedEngine(k, () => '   '));
    const { events, outcome } = await collect({ prompt: 'Keep me', engines });
    expect(outcome.finalPrompt).toBe('');
    expect(events.some((e) => e.type === 'log' && e.message === 'Enhancement completed but result was empty. Using original prompt.')).toBe(true);
  });

  it('gives attachments to the engines as context', async () => {
    const engine = tracer('a');
    await collect({ prompt: 'x', engines: [engine], attachments: [{ filename: 'notes.md', content: 'Use a dark theme', mimeType: 'text/markdown', size: 16 }] });
    expect(userOf(engine.calls[0]!.messages)).toContain('--- notes.md ---\nUse a dark theme');
  });
});
