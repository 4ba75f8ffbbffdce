import { describe, expect, it, vi } from 'vitest';
import { AppError } from '../errors.js';
import { demoReply } from '../demo/demo-reply.js';
import { EngineError } from '../engines/engine.js';
import { holdWithin } from '../billing/call-caps.js';
import { CallPurse, GrantWithdrawn } from '../billing/call-purse.js';
import { MAX_OUTPUT_TOKENS_PER_CALL } from '../billing/guardrail.js';
import { PIPELINE_STAGES, type CostEvent, type LogEvent, type StageEvent } from '../schemas/events.js';
import { runPipeline, type PipelineCheckpoint, type PipelineInput, type PipelineOutcome } from './run-pipeline.js';
import { formatFileBlock } from './file-blocks.js';
import { scriptedEngine, systemOf, userOf, type ScriptedAnswer } from './testing-engines.js';

type Event = StageEvent | LogEvent | CostEvent;

async function collect(input: PipelineInput): Promise<{ events: Event[]; outcome: PipelineOutcome }> {
  const events: Event[] = [];
  const gen = runPipeline(input);
  let step = await gen.next();
  while (!step.done) {
    events.push(step.value);
    step = await gen.next();
  }
  return { events, outcome: step.value };
}

const demo = (key: string, override?: (system: string, user: string) => ScriptedAnswer | undefined) =>
  scriptedEngine(key, (req) => override?.(systemOf(req.messages), userOf(req.messages)) ?? demoReply(req.messages));

const stages = (events: Event[]) => events.filter((e): e is StageEvent => e.type === 'stage');
const logs = (events: Event[]) => events.filter((e): e is LogEvent => e.type === 'log').map((e) => e.message);

describe('runPipeline', () => {
  it('runs the five stages in order, each reported running then complete, with progress', async () => {
    const { events, outcome } = await collect({ idea: 'A recipe tracker for busy cooks', engines: [demo('alpha'), demo('beta')] });
    const s = stages(events);
    expect(s.map((e) => `${e.role}:${e.ok}`)).toEqual(PIPELINE_STAGES.flatMap((r) => [`${r}:false`, `${r}:true`]));
    expect(s.map((e) => e.progress.current)).toEqual([0, 1, 1, 2, 2, 3, 3, 4, 4, 5]);
    expect(s.at(-1)!.progress).toMatchObject({ total: 5, percent: 100, estimatedRemainingSeconds: 0 });
    // modelOrder assigns engines round-robin: stage n starts with engine n mod count.
    expect(s.filter((e) => !e.ok).map((e) => e.engine)).toEqual(['alpha', 'beta', 'alpha', 'beta', 'alpha']);
    expect(Object.keys(outcome.files).sort()).toEqual(['README.md', 'app.js', 'index.html', 'styles.css']);
    expect(outcome.files['index.html']).toContain('A recipe tracker for busy cooks');
    expect(outcome.verification.passed).toBe(true);
    expect(outcome.stages.map((r) => r.role)).toEqual([...PIPELINE_STAGES]);
  });

  it('repeats the stages per cycle: expected stages = 5 x cycles', async () => {
    const { events } = await collect({ idea: 'Habit tracker', cycles: 2, engines: [demo('alpha')] });
    const done = stages(events).filter((e) => e.ok);
    expect(done).toHaveLength(10);
    expect(done.map((e) => e.progress.total)).toEqual(Array(10).fill(10));
    expect(logs(events).some((m) => m.startsWith('Cycle 2 of 2'))).toBe(true);
  });

  it('falls back to the next engine in modelOrder when one keeps failing, and says so', async () => {
    const broken = scriptedEngine('alpha', () => new EngineError('alpha', 'server', 'Engine alpha answered 503 three times.'));
    const { events, outcome } = await collect({ idea: 'Weather dashboard', engines: [broken, demo('beta')] });
    expect(outcome.verification.passed).toBe(true);
    expect(logs(events).some((m) => m.includes('Falling back to engine beta for Planning'))).toBe(true);
    expect(outcome.stages.filter((r) => r.engine !== '').every((r) => r.engine === 'beta')).toBe(true);
    expect(outcome.stages[0]!.engine).toBe('beta');
  });

  it('stops calling an engine whose key was rejected', async () => {
    const rejected = scriptedEngine('alpha', () => new EngineError('alpha', 'auth', 'Engine alpha rejected its API key (401).'));
    await collect({ idea: 'Weather dashboard', engines: [rejected, demo('beta')] });
    expect(rejected.calls).toHaveLength(1);
  });

  it('fails only when no engine can do a stage, naming each engine and why', async () => {
    const a = scriptedEngine('alpha', () => new EngineError('alpha', 'quota', 'Engine alpha is out of quota.'));
    const b = scriptedEngine('beta', () => new EngineError('beta', 'model_not_found', 'Engine beta: model not found.'));
    const run = collect({ idea: 'Anything', engines: [a, b] });
    await expect(run).rejects.toThrow(AppError);
    await expect(run).rejects.toThrow(/No engine could complete Planning\. Engine alpha is out of quota\. Engine beta: model not found\./);
  });

  it('sends placeholder code back for completion and never saves it', async () => {
    let asked = 0;
    const engine = demo('alpha', (_system, user) => {
      if (/Write the complete file app\.js \(/.test(user)) return '```js app.js\nfunction start() {\n  // rest of code unchanged\n}\n```';
      if (/previous answer for app\.js was incomplete/.test(user)) asked += 1;
      return undefined;
    });
    const { events, outcome } = await collect({ idea: 'Todo list', engines: [engine] });
    expect(asked).toBe(1);
    expect(outcome.files['app.js']).not.toContain('rest of code unchanged');
    expect(logs(events).some((m) => m.includes('app.js was incomplete'))).toBe(true);
  });

  it('repairs what the checks find, and the final gate passes', async () => {
    const engine = demo('alpha', (_system, user) => {
      if (/Write the complete file app\.js \(/.test(user)) return '```js app.js\nconst items = [1, 2;\n```';
      return undefined;
    });
    const { events, outcome } = await collect({ idea: 'Todo list', engines: [engine] });
    expect(logs(events).some((m) => /problem\(s\) in 1 file/.test(m))).toBe(true);
    expect(outcome.verification.passed).toBe(true);
    expect(outcome.files['app.js']).not.toContain('[1, 2;');
  });

  it('reports exactly which files fail which check when repairs do not help', async () => {
    const engine = demo('alpha', (system, user) => {
      if (/Write the complete file app\.js \(/.test(user) || /Checking engine/.test(system)) return '```js app.js\nconst items = [1, 2;\n```';
      return undefined;
    });
    const { events, outcome } = await collect({ idea: 'Todo list', engines: [engine], repairRounds: 1 });
    expect(outcome.verification.passed).toBe(false);
    expect(outcome.verification.problems).toEqual([expect.objectContaining({ path: 'app.js', check: 'syntax' })]);
    const proven = stages(events).filter((e) => e.role === 'Proven Code');
    expect(proven.map((e) => e.ok)).toEqual([false, false]);
    expect(logs(events).some((m) => m.startsWith('Proven Code gate failed') && m.includes('app.js'))).toBe(true);
  });

  it('reverts a polish that breaks a check', async () => {
    const engine = demo('alpha', (system) => (/Polishing engine/.test(system) ? '```js app.js\nfunction (\n```' : undefined));
    const { events, outcome } = await collect({ idea: 'Todo list', engines: [engine] });
    expect(outcome.verification.passed).toBe(true);
    expect(logs(events).some((m) => m.startsWith('Kept the earlier app.js'))).toBe(true);
  });

  it('asks the budget before each engine call, on the engine it calls, sends the cap it gives, and never asks for a stage that calls none', async () => {
    const engine = demo('alpha');
    const granted: string[] = [];
    const { events } = await collect({
      idea: 'A recipe tracker for busy cooks',
      engines: [engine],
      budget: {
        grant: async (request) => {
          const cap = 3000 + granted.push(`${request.stage.role}@${engine.calls.length}`);
          expect(request).toMatchObject({ engineKey: 'alpha', pricePer1kTokensCents: 0, maxOutputTokens: MAX_OUTPUT_TOKENS_PER_CALL });
          expect(request.inputChars).toBeGreaterThan(500);
          await new Promise((r) => setTimeout(r, 5));
          return { maxTokens: cap, heldCents: 0, done: () => 0 };
        },
      },
    });
    // Building's four files are asked for in parallel: four grants, each before its own call.
    // Checking finds nothing to fix and Proven Code passes: no call, no grant.
    expect(granted).toEqual(['Planning@0', 'Building@1', 'Building@1', 'Building@1', 'Building@1', 'Polishing@5']);
    // Each call went out with the output cap its grant gave.
    expect(engine.calls.map((c) => c.maxTokens).sort()).toEqual([3001, 3002, 3003, 3004, 3005, 3006]);
    expect(stages(events).map((e) => `${e.role}:${e.ok}`)).toEqual(PIPELINE_STAGES.flatMap((r) => [`${r}:false`, `${r}:true`]));
  });

  it('without a budget, every call carries the engine\'s full output cap', async () => {
    const engine = demo('alpha');
    await collect({ idea: 'A recipe tracker for busy cooks', engines: [engine] });
    expect(engine.calls.map((c) => c.maxTokens)).toEqual(Array(6).fill(MAX_OUTPUT_TOKENS_PER_CALL));
  });

  it('a refused grant stops the run before that call goes to any engine, even with parallel calls and a fallback engine', async () => {
    const alpha = demo('alpha');
    const beta = demo('beta');
    const refusal = new AppError('PAYMENT_REQUIRED', 'Not enough credits.');
    const run = collect({
      idea: 'A recipe tracker for busy cooks',
      engines: [alpha, beta],
      budget: {
        grant: async (request) => {
          if (request.stage.role === 'Building') throw refusal;
          return { maxTokens: MAX_OUTPUT_TOKENS_PER_CALL, heldCents: 0, done: () => 0 };
        },
      },
    });
    await expect(run).rejects.toBe(refusal);
    // Planning's one call; Building's engine (beta) and its fallback (alpha) were never asked.
    expect(alpha.calls).toHaveLength(1);
    expect(beta.calls).toHaveLength(0);
  });

  it('a hold confirmed while the engines work: the stage\'s calls start at once, and no answer counts before it is in', async () => {
    const engine = demo('alpha');
    const building = () => engine.calls.filter((c) => /Building engine/.test(systemOf(c.messages))).length;
    let confirm!: () => void;
    let callsBeforeConfirmed = -1;
    const recorded: string[] = [];
    const confirmed = new Promise<void>((resolve) => {
      confirm = () => {
        callsBeforeConfirmed = building();
        resolve();
      };
    });
    const run = collect({
      idea: 'A recipe tracker for busy cooks',
      engines: [engine],
      budget: {
        grant: async (request) => ({
          maxTokens: MAX_OUTPUT_TOKENS_PER_CALL,
          heldCents: 0,
          done: () => 0,
          ...(request.stage.role === 'Building' ? { confirmed } : {}),
        }),
      },
      onCheckpoint: (cp, calls) => void recorded.push(`${cp.completedStages}:${calls.length}`),
    });
    // Building's four files are asked for while their hold is still out; the run waits for it.
    await vi.waitFor(() => expect(building()).toBe(4));
    await new Promise((r) => setTimeout(r, 20));
    expect(recorded).toEqual(['1:1']);
    confirm();
    const { outcome } = await run;
    expect(callsBeforeConfirmed).toBe(4);
    expect(recorded.slice(0, 2)).toEqual(['1:1', '2:4']);
    expect(outcome.verification.passed).toBe(true);
  });

  it('a hold refused after the stage\'s calls started cancels them, records none of them, and stops the run with its reason', async () => {
    let cancelled = 0;
    let answered = 0;
    let waiting = 0;
    const refusal = new AppError('PAYMENT_REQUIRED', 'Not enough credits.');
    const holds = new AbortController();
    let refuse: (reason: unknown) => void = () => {};
    const confirmed = new Promise<void>((_, reject) => {
      refuse = (reason) => {
        holds.abort(reason);
        reject(reason);
      };
    });
    confirmed.catch(() => {});
    // Refused once all four Building calls are in: app.js answered, the other three working.
    const refuseOnceAllStarted = () => {
      if (answered === 1 && waiting === 3) refuse(refusal);
    };
    const engine = scriptedEngine('alpha', (req) => {
      if (!/Building engine/.test(systemOf(req.messages))) return demoReply(req.messages);
      // app.js answers at once; the refusal comes after its answer was delivered (setImmediate).
      if (userOf(req.messages).includes('Write the complete file app.js')) {
        answered += 1;
        setImmediate(refuseOnceAllStarted);
        return demoReply(req.messages);
      }
      // The other files never answer: only cancelling them ends the run (else the test times out).
      return new Promise<ScriptedAnswer>((_, reject) => {
        req.signal?.addEventListener('abort', () => {
          cancelled += 1;
          reject(new EngineError('alpha', 'aborted', 'Engine alpha call was cancelled.'));
        });
        waiting += 1;
        refuseOnceAllStarted();
      });
    });
    const recorded: number[] = [];
    const ended: Array<number | null> = [];
    const run = collect({
      idea: 'A recipe tracker for busy cooks',
      engines: [engine],
      budget: {
        grant: async (request) => ({
          maxTokens: MAX_OUTPUT_TOKENS_PER_CALL,
          heldCents: 0,
          done: (tokens) => (ended.push(tokens), 0),
          ...(request.stage.role === 'Building' ? { confirmed, signal: holds.signal } : {}),
        }),
      },
      onCheckpoint: (cp) => void recorded.push(cp.completedStages),
    });
    await expect(run).rejects.toBe(refusal);
    expect(answered).toBe(1);
    // The three calls still in flight were cancelled; Building never reached its checkpoint.
    expect(cancelled).toBe(3);
    expect(recorded).toEqual([1]);
    // Every grant was ended: Planning's with its tokens, Building's four as failed (nothing billed).
    expect(ended.filter((t) => t !== null)).toHaveLength(1);
    expect(ended.filter((t) => t === null)).toHaveLength(4);
  });

  it('a call whose hold beside it was withdrawn is sent again under a new grant, and counted once', async () => {
    const engine = demo('alpha');
    const withdrawn = new AbortController();
    let grants = 0;
    const ended: Array<number | null> = [];
    const { events, outcome } = await collect({
      idea: 'A recipe tracker for busy cooks',
      engines: [engine],
      budget: {
        grant: async (request) => {
          grants += 1;
          const done = (tokens: number | null) => (ended.push(tokens), tokens === null ? 0 : 1);
          // Planning's first grant is held beside its call, and that hold is refused.
          if (request.stage.role === 'Planning' && grants === 1) {
            const confirmed = Promise.reject(new GrantWithdrawn());
            confirmed.catch(() => withdrawn.abort(new GrantWithdrawn()));
            return { maxTokens: MAX_OUTPUT_TOKENS_PER_CALL, heldCents: 0, done, confirmed, signal: withdrawn.signal };
          }
          return { maxTokens: request.stage.role === 'Planning' ? 2000 : MAX_OUTPUT_TOKENS_PER_CALL, heldCents: 0, done };
        },
      },
    });
    const planning = engine.calls.filter((c) => /Planning engine/.test(systemOf(c.messages)));
    expect(planning.map((c) => c.maxTokens)).toEqual([MAX_OUTPUT_TOKENS_PER_CALL, 2000]);
    expect(grants).toBe(7);
    expect(ended[0]).toBeNull();
    expect(outcome.stages[0]!.tokens).toBeGreaterThan(0);
    // No fallback warning: a withdrawn hold is not an engine failure.
    expect(logs(events).some((m) => /Falling back|failed/.test(m))).toBe(false);
  });

  it('says what the run has cost so far after every call that costs money, from what earlier attempts cost', async () => {
    const priced = scriptedEngine('alpha', (req) => demoReply(req.messages), { pricePer1kTokensCents: 10 });
    const { events } = await collect({ idea: 'A recipe tracker for busy cooks', engines: [priced], spentCents: 30 });
    const costs = events.filter((e) => e.type === 'cost').map((e) => (e.type === 'cost' ? e.spentCents : 0));
    expect(costs).toHaveLength(6);
    expect(costs[0]).toBeGreaterThan(30);
    for (let i = 1; i < costs.length; i++) expect(costs[i]).toBeGreaterThan(costs[i - 1]!);
    const billed = priced.calls.length;
    expect(billed).toBe(6);
    // Each event follows the call it counts: Planning's comes before Planning's end.
    const firstCost = events.findIndex((e) => e.type === 'cost');
    const planningDone = events.findIndex((e) => e.type === 'stage' && e.role === 'Planning' && e.ok);
    expect(firstCost).toBeLessThan(planningDone);
    // Free engines send none.
    const free = await collect({ idea: 'A recipe tracker for busy cooks', engines: [demo('alpha')] });
    expect(free.events.some((e) => e.type === 'cost')).toBe(false);
  });

  it('with a purse, calls are capped to what the balance pays and a stage\'s parallel calls share it, one after another when it is short', async () => {
    const engine = scriptedEngine('alpha', (req) => ({ text: demoReply(req.messages), delayMs: 2 }), { pricePer1kTokensCents: 305 });
    // A wallet that holds as the ledger does and gives a stage's unused hold back when it settles.
    let balance = 3000;
    const held = new Map<number, number>();
    const purse = new CallPurse(
      {
        hold: async (stage, cents, atLeast) => {
          const amount = holdWithin(cents, balance, atLeast);
          if (amount === null) return { heldCents: 0, balanceCents: balance };
          balance -= amount;
          held.set(stage.position, (held.get(stage.position) ?? 0) + amount);
          return { heldCents: amount, balanceCents: balance };
        },
      },
      { capCents: null },
    );
    let billed = 0;
    const { events, outcome } = await collect({
      idea: 'A recipe tracker for busy cooks',
      engines: [engine],
      budget: purse,
      onCheckpoint: (cp, calls) => {
        const stageBilled = calls.reduce((sum, c) => sum + c.billedCents, 0);
        purse.endStage();
        balance += (held.get(cp.completedStages - 1) ?? 0) - stageBilled;
        billed += stageBilled;
      },
    });
    expect(outcome.verification.passed).toBe(true);
    // No call could hold its full cap ($30 and more at $3.05 per 1,000 tokens): each was cut to what was there.
    expect(engine.calls).toHaveLength(6);
    for (const request of engine.calls) expect(request.maxTokens!).toBeLessThan(MAX_OUTPUT_TOKENS_PER_CALL);
    // Building's four files could not all be held at once: they ran one after another.
    expect(engine.maxInFlight).toBe(1);
    expect(billed).toBeGreaterThan(0);
    expect(balance).toBe(3000 - billed);
    expect(purse.spentCents).toBe(billed);
    expect(events.filter((e) => e.type === 'cost').at(-1)).toEqual({ type: 'cost', spentCents: billed });
  });

  it('builds planned files in parallel with bounded concurrency', async () => {
    const plan = Array.from({ length: 20 }, (_, i) => `FILE: src/part${i}.js - part ${i}`).join('\n');
    const engine = scriptedEngine('alpha', (req) => {
      const user = userOf(req.messages);
      if (/Planning engine/.test(systemOf(req.messages))) return `Parts.\n${plan}`;
      const m = /Write the complete file (\S+) \(/.exec(user);
      if (m) return { text: `\`\`\`js ${m[1]}\nexport const value = 1;\n\`\`\``, delayMs: 20 };
      return /Polishing engine/.test(systemOf(req.messages)) ? 'UNCHANGED' : 'nothing to repair';
    });
    const { outcome } = await collect({ idea: 'Parts', engines: [engine], buildConcurrency: 5 });
    expect(Object.keys(outcome.files)).toHaveLength(20);
    expect(engine.maxInFlight).toBe(5);
  });

  it('stops building the other files when one fails: no new call starts, the ones in flight are cancelled', async () => {
    const plan = Array.from({ length: 20 }, (_, i) => `FILE: src/part${i}.js - part ${i}`).join('\n');
    let cancelled = 0;
    const engine = scriptedEngine('alpha', (req) => {
      if (/Planning engine/.test(systemOf(req.messages))) return `Parts.\n${plan}`;
      const path = /Write the complete file (\S+) \(/.exec(userOf(req.messages))?.[1];
      if (path === 'src/part3.js') return new EngineError('alpha', 'bad_request', 'Engine alpha refused the request as invalid (400).');
      // The other files never answer: only cancelling them ends the run (else the test times out).
      // A call started after the failure is cancelled at once, and counted.
      return new Promise<ScriptedAnswer>((_, reject) => {
        const cancel = () => {
          cancelled += 1;
          reject(new EngineError('alpha', 'aborted', 'Engine alpha call was cancelled.'));
        };
        if (req.signal?.aborted) return cancel();
        req.signal?.addEventListener('abort', cancel);
      });
    });
    const run = collect({ idea: 'Parts', engines: [engine], buildConcurrency: 5 });
    await expect(run).rejects.toThrow(/^No engine could complete Building\. Engine alpha refused the request as invalid \(400\)\.$/);
    // The run fails only once every lane has stopped, so nothing can start after this point.
    const building = () => engine.calls.filter((c) => /Building engine/.test(systemOf(c.messages))).length;
    expect(building()).toBe(5);
    expect(cancelled).toBe(4);
    expect(engine.inFlight).toBe(0);
  });

  it('resumes after a checkpoint without calling engines for finished stages', async () => {
    const checkpoints: PipelineCheckpoint[] = [];
    const first = demo('alpha');
    await collect({ idea: 'Notes app', engines: [first], onCheckpoint: (cp) => void checkpoints.push(cp) });
    const afterBuilding = checkpoints[1]!;
    expect(afterBuilding.completedStages).toBe(2);
    const second = demo('alpha');
    const { events, outcome } = await collect({ idea: 'Notes app', engines: [second], checkpoint: afterBuilding });
    expect(stages(events)[0]).toMatchObject({ role: 'Checking', ok: false });
    expect(second.calls.some((c) => /Planning engine|Building engine/.test(systemOf(c.messages)))).toBe(false);
    expect(outcome.stages.map((s) => s.role)).toEqual([...PIPELINE_STAGES]);
    expect(outcome.files).toEqual(afterBuilding.files);
  });

  it('gives a continued project\'s files to Planning, most relevant first', async () => {
    const engine = demo('alpha');
    await collect({
      idea: 'Add dark mode to the recipe page',
      engines: [engine],
      existingFiles: { 'index.html': '<!doctype html><html><body>recipes</body></html>', 'notes/old.txt': 'unrelated' },
    });
    const planning = engine.calls.find((c) => /Planning engine/.test(systemOf(c.messages)))!;
    const user = userOf(planning.messages);
    expect(user).toContain('This continues an existing project');
    expect(user.indexOf('index.html')).toBeLessThan(user.indexOf('notes/old.txt'));
  });

  it('does only the stages it is given: a repair run is Proven Code alone on the existing files', async () => {
    const broken = { 'index.html': '<!doctype html><html><body><script src="app.js"></script></body></html>', 'app.js': 'const total = (1 + ;\n' };
    const fixed = 'const total = 1 + 2;\nconsole.log(total);\n';
    const engine = scriptedEngine('alpha', (req) => {
      const system = systemOf(req.messages);
      if (!/Automated checks found problems/.test(system)) throw new Error(`a repair run asked for something else: ${system.slice(0, 80)}`);
      return formatFileBlock('app.js', fixed);
    });
    const { events, outcome } = await collect({ idea: 'A counter', engines: [engine], existingFiles: broken, stages: ['Proven Code'] });
    const s = stages(events);
    expect(s.map((e) => `${e.role}:${e.ok}`)).toEqual(['Proven Code:false', 'Proven Code:true']);
    expect(s.at(-1)!.progress).toMatchObject({ current: 1, total: 1, percent: 100 });
    expect(engine.calls).toHaveLength(1);
    expect(outcome.stages.map((r) => r.role)).toEqual(['Proven Code']);
    expect(outcome.files['app.js']).toBe(fixed);
    expect(outcome.files['index.html']).toBe(broken['index.html']);
    expect(outcome.verification.passed).toBe(true);
  });

  it('refuses a run with no stage to do', async () => {
    await expect(collect({ idea: 'x', engines: [demo('alpha')], stages: [] })).rejects.toThrow('A run must do at least one stage.');
  });
});
