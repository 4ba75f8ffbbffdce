import { encodeComment, encodeJsonEvent, type PipelineEvent, type RunInfo } from '@wolfpack/core';
import { describe, expect, it } from 'vitest';
import { PipelineRunner, type RunnerNotice } from './pipeline-runner';
import type { RunEffect } from './pipeline-state';

type Numbered = [id: number, event: PipelineEvent];

const progress = (current: number) => ({
  current,
  total: 5,
  percent: current * 20,
  elapsedSeconds: current,
  estimatedRemainingSeconds: 5 - current,
});

const runEvent: Numbered = [1, { type: 'run', runId: 'run-1', conversationId: 'run-1' }];
const stage = (id: number, role: 'Planning' | 'Building', ok: boolean, current: number): Numbered => [
  id,
  { type: 'stage', role, ok, executionTime: 1, progress: progress(current) },
];
const complete: Numbered = [9, { type: 'complete', projectId: 'project-1', filesGenerated: 4, executionSeconds: 10 }];

/**
 * An event-stream response. With `drop`, the connection breaks after the events (a network
 * error mid-body); otherwise the body simply ends.
 */
function sse(events: Numbered[], options: { drop?: boolean } = {}): Response {
  const encoder = new TextEncoder();
  const chunks = [encodeComment('heartbeat'), ...events.map(([id, event]) => encodeJsonEvent(event, { id: String(id) }))];
  // One chunk per pull: an error raised while chunks are still queued would discard them.
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const chunk = chunks.shift();
      if (chunk !== undefined) controller.enqueue(encoder.encode(chunk));
      else if (options.drop) controller.error(new TypeError('network error'));
      else controller.close();
    },
  });
  return new Response(body, { status: 200, headers: { 'Content-Type': 'text/event-stream' } });
}

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

function runInfo(status: RunInfo['status'], lastEventId = 3): Response {
  return json(200, {
    run: { id: 'run-1', conversationId: 'run-1', idea: 'x', status, projectId: null, lastEventId, createdAt: '2026-11-20T10:00:00Z', error: null },
  });
}

interface Call {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: unknown;
}

/** A fetch that answers from a script of responses, one per call, and records every call. */
function scriptedFetch(script: Array<Response | Error | ((call: Call) => Response)>) {
  const calls: Call[] = [];
  const fetch = (async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const call: Call = {
      method: init.method ?? 'GET',
      url: String(input),
      headers: { ...(init.headers as Record<string, string> | undefined) },
      body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined,
    };
    calls.push(call);
    const next = script.shift();
    if (next === undefined) throw new Error(`unexpected call ${call.method} ${call.url}`);
    if (next instanceof Error) throw next;
    return typeof next === 'function' ? next(call) : next;
  }) as typeof globalThis.fetch;
  return { fetch, calls };
}

function makeRunner(script: Parameters<typeof scriptedFetch>[0], delays: number[] | null = [10, 20, 40]) {
  const { fetch, calls } = scriptedFetch(script);
  const effects: RunEffect[] = [];
  const notices: RunnerNotice[] = [];
  const sleeps: number[] = [];
  const runner = new PipelineRunner({
    fetch,
    onEffect: (effect) => effects.push(effect),
    notify: (notice) => notices.push(notice),
    sleep: async (ms) => void sleeps.push(ms),
    ...(delays ? { backoff: (attempt: number) => delays[attempt - 1] ?? 0, maxReconnects: delays.length } : {}),
  });
  return { runner, calls, effects, notices, sleeps };
}

const request = { idea: 'A todo app', modelOrder: ['Engine A'], cycles: 1 };

describe('PipelineRunner', () => {
  it('posts the idea and follows the stream to completion', async () => {
    const { runner, calls, effects } = makeRunner([
      sse([runEvent, stage(2, 'Planning', false, 0), stage(3, 'Planning', true, 1), complete]),
    ]);
    await runner.start({ kind: 'build', request });
    expect(calls).toEqual([
      {
        method: 'POST',
        url: '/api/wolfpack/stream',
        headers: { 'Content-Type': 'application/json', Accept: 'text/event-stream' },
        body: request,
      },
    ]);
    const state = runner.getState();
    expect(state.phase).toBe('complete');
    expect(state.stages[0]?.status).toBe('complete');
    expect(state.result?.projectId).toBe('project-1');
    expect(effects.map((e) => e.type)).toEqual(['run-started', 'progress', 'progress', 'completed']);
  });

  it("logs 'Failed to start pipeline stream' and toasts the server's sentence for a non-ok answer", async () => {
    const { runner, notices } = makeRunner([
      json(400, { success: false, error: 'Please enter an idea or speak.', code: 'BAD_REQUEST' }),
    ]);
    await runner.start({ kind: 'build', request: { ...request, idea: ' ' } });
    const state = runner.getState();
    expect(state.phase).toBe('failed');
    expect(state.feed.map((item) => item.message)).toEqual(['Failed to start pipeline stream']);
    expect(notices).toEqual([{ title: 'Pipeline Failed', description: 'Please enter an idea or speak.', variant: 'destructive' }]);
  });

  it('asks a signed-out user to sign in instead of failing', async () => {
    const { runner, notices } = makeRunner([json(401, { error: 'Please sign in.', code: 'UNAUTHORIZED' })]);
    await runner.start({ kind: 'build', request });
    expect(runner.getState().phase).toBe('unauthorized');
    expect(notices).toEqual([]);
  });

  it('reports a server that cannot be reached', async () => {
    const { runner, notices } = makeRunner([new TypeError('Failed to fetch')]);
    await runner.start({ kind: 'build', request });
    expect(runner.getState().phase).toBe('failed');
    expect(runner.getState().feed.at(-1)?.message).toBe('Failed to start pipeline stream');
    expect(notices[0]).toMatchObject({ title: 'Pipeline Failed', variant: 'destructive' });
  });

  it('reattaches with Last-Event-ID after the connection drops mid-run', async () => {
    const { runner, calls, sleeps } = makeRunner([
      sse([runEvent, stage(2, 'Planning', false, 0), stage(3, 'Planning', true, 1)], { drop: true }),
      runInfo('running'),
      sse([stage(4, 'Building', false, 1), complete]),
    ]);
    await runner.start({ kind: 'build', request });
    expect(calls.slice(1).map((c) => `${c.method} ${c.url}`)).toEqual([
      'GET /api/wolfpack/runs/run-1',
      'GET /api/wolfpack/runs/run-1/events',
    ]);
    expect(calls[2]?.headers['Last-Event-ID']).toBe('3');
    expect(sleeps).toEqual([10]);
    const state = runner.getState();
    expect(state.phase).toBe('complete');
    expect(state.stages[1]?.status).toBe('running');
    expect(state.feed.map((i) => i.message)).toContain('Connection lost. Reconnecting…');
  });

  it('treats a stream that ends without complete or error as a drop', async () => {
    const { runner, calls } = makeRunner([sse([runEvent]), runInfo('running'), sse([complete])]);
    await runner.start({ kind: 'build', request });
    expect(calls[2]?.headers['Last-Event-ID']).toBe('1');
    expect(runner.getState().phase).toBe('complete');
  });

  it('retries with backoff and gives up as disconnected, then reconnects on request', async () => {
    const { runner, sleeps, calls } = makeRunner([
      sse([runEvent], { drop: true }),
      new TypeError('Failed to fetch'),
      json(502, {}),
      new TypeError('Failed to fetch'),
      runInfo('completed', 9),
      sse([complete]),
    ]);
    await runner.start({ kind: 'build', request });
    expect(sleeps).toEqual([10, 20, 40]);
    expect(runner.getState().phase).toBe('disconnected');
    await runner.reconnect();
    expect(runner.getState().phase).toBe('complete');
    expect(calls.at(-1)?.headers['Last-Event-ID']).toBe('1');
  });

  it('waits 1 s doubling by default, each wait between half of that and all of it at random', async () => {
    const failures = () => Array.from({ length: 5 }, () => new TypeError('Failed to fetch'));
    const waits: number[][] = [];
    for (let page = 0; page < 20; page++) {
      const { runner, sleeps } = makeRunner([sse([runEvent], { drop: true }), ...failures()], null);
      await runner.start({ kind: 'build', request });
      expect(runner.getState().phase).toBe('disconnected');
      waits.push(sleeps);
    }
    const steps = [1000, 2000, 4000, 8000, 16000];
    for (const sleeps of waits) {
      expect(sleeps).toHaveLength(steps.length);
      sleeps.forEach((ms, i) => {
        expect(ms).toBeGreaterThanOrEqual(steps[i]! / 2);
        expect(ms).toBeLessThanOrEqual(steps[i]!);
      });
    }
    // Twenty pages that lost the same server do not all come back in the same instant.
    expect(new Set(waits.map((sleeps) => sleeps[0])).size).toBeGreaterThan(10);
  });

  it('reattaches after a page load, replaying the whole run without Last-Event-ID', async () => {
    const { runner, calls, sleeps, effects } = makeRunner([
      runInfo('running'),
      sse([runEvent, stage(2, 'Planning', true, 1), complete]),
    ]);
    await runner.reattach('run-1');
    // A page load reattaches at once: nothing dropped yet, so nothing to wait for.
    expect(sleeps).toEqual([]);
    expect(calls[1]?.headers['Last-Event-ID']).toBeUndefined();
    expect(runner.getState().phase).toBe('complete');
    expect(effects.at(-1)?.type).toBe('completed');
  });

  it('forgets quietly a stored run the server does not know', async () => {
    const { runner, effects, notices } = makeRunner([json(404, { error: 'Run not found', code: 'NOT_FOUND' })]);
    await runner.reattach('run-1');
    expect(runner.getState().phase).toBe('idle');
    expect(effects).toEqual([{ type: 'run-forgotten' }]);
    expect(notices).toEqual([]);
  });

  it('offers Resume for an interrupted run and resumes from the last event seen', async () => {
    const { runner, calls } = makeRunner([
      runInfo('interrupted'),
      sse([runEvent, stage(2, 'Planning', false, 0), stage(3, 'Planning', true, 1)]),
      sse([stage(4, 'Building', false, 1), complete]),
    ]);
    await runner.reattach('run-1');
    expect(runner.getState().phase).toBe('interrupted');
    expect(runner.getState().stages[0]?.status).toBe('complete');
    await runner.resume();
    const resume = calls[2];
    expect(`${resume?.method} ${resume?.url}`).toBe('POST /api/wolfpack/runs/run-1/resume');
    expect(resume?.headers['Last-Event-ID']).toBe('3');
    expect(runner.getState().phase).toBe('complete');
  });

  it('turns an error event into a failed run', async () => {
    const { runner, effects } = makeRunner([sse([runEvent, [2, { type: 'error', error: 'Engines are busy.' }]])]);
    await runner.start({ kind: 'build', request });
    expect(runner.getState().phase).toBe('failed');
    expect(runner.getState().feed.at(-1)?.message).toBe('Error: Engines are busy.');
    expect(effects.at(-1)).toEqual({ type: 'failed', error: 'Engines are busy.' });
  });

  it('keeps a run that ran out of credits resumable, then resumes it after a top-up', async () => {
    const sentence = 'Not enough credits: this stage needs about $0.60 and your balance is $0.10. Add credits in Settings.';
    const stop: Numbered = [4, { type: 'error', error: sentence, code: 'PAYMENT_REQUIRED' }];
    const { runner, calls, effects } = makeRunner([
      sse([runEvent, stage(2, 'Planning', false, 0), stage(3, 'Planning', true, 1), stop]),
      sse([stage(5, 'Building', false, 1), complete]),
    ]);
    await runner.start({ kind: 'build', request });
    let state = runner.getState();
    expect(state.phase).toBe('interrupted');
    expect(state.paymentRequired).toBe(true);
    expect(state.error).toBe(sentence);
    expect(state.feed.at(-1)?.message).toBe(`Error: ${sentence}`);
    expect(effects.at(-1)).toEqual({ type: 'payment-required', error: sentence });
    expect(calls).toHaveLength(1); // the end of the stream after the stop is not a dropped connection

    await runner.resume();
    expect(`${calls[1]?.method} ${calls[1]?.url}`).toBe('POST /api/wolfpack/runs/run-1/resume');
    expect(calls[1]?.headers['Last-Event-ID']).toBe('4');
    state = runner.getState();
    expect(state.phase).toBe('complete');
    expect(state.paymentRequired).toBe(false);
    expect(state.error).toBeNull();
  });

  it('stays resumable with the link to Settings when the resume is refused for credits', async () => {
    const stop: Numbered = [4, { type: 'error', error: 'Not enough credits.', code: 'PAYMENT_REQUIRED' }];
    const { runner, notices } = makeRunner([
      sse([runEvent, stop]),
      json(402, { success: false, error: 'Not enough credits: still short.', code: 'PAYMENT_REQUIRED' }),
    ]);
    await runner.start({ kind: 'build', request });
    await runner.resume();
    const state = runner.getState();
    expect(state.phase).toBe('interrupted');
    expect(state.paymentRequired).toBe(true);
    expect(state.error).toBe('Not enough credits: still short.');
    expect(notices.at(-1)).toEqual({ title: 'Not Enough Credits', description: 'Not enough credits: still short.', variant: 'destructive' });
  });

  it('replays a run that was resumed after a payment stop through to its end', async () => {
    const stop: Numbered = [4, { type: 'error', error: 'Not enough credits.', code: 'PAYMENT_REQUIRED' }];
    const { runner } = makeRunner([
      runInfo('running', 6),
      sse([runEvent, stage(2, 'Planning', false, 0), stage(3, 'Planning', true, 1), stop, stage(5, 'Building', false, 1), complete]),
    ]);
    await runner.reattach('run-1');
    expect(runner.getState().phase).toBe('complete');
    expect(runner.getState().paymentRequired).toBe(false);
  });

  it('ignores a second start while a run is under way', async () => {
    let release!: (r: Response) => void;
    const pending = new Promise<Response>((resolve) => (release = resolve));
    const { fetch, calls } = scriptedFetch([]);
    let first = true;
    const runner = new PipelineRunner({
      fetch: ((input: RequestInfo | URL, init?: RequestInit) => {
        if (first) {
          first = false;
          return pending;
        }
        return fetch(input, init);
      }) as typeof globalThis.fetch,
    });
    const started = runner.start({ kind: 'build', request });
    await runner.start({ kind: 'build', request });
    expect(calls).toEqual([]);
    release(sse([runEvent, complete]));
    await started;
    expect(runner.getState().phase).toBe('complete');
  });

  describe('Repair again', () => {
    const repairRun: Numbered = [1, { type: 'run', runId: 'run-1', conversationId: 'run-1', stages: ['Proven Code'] }];
    const one = (current: number) => ({ current, total: 1, percent: current * 100, elapsedSeconds: current, estimatedRemainingSeconds: 1 - current });
    const gate = (id: number, ok: boolean, current: number): Numbered => [
      id,
      { type: 'stage', role: 'Proven Code', ok, executionTime: current, progress: one(current) },
    ];
    const failedAgain: Numbered = [
      5,
      {
        type: 'complete',
        projectId: 'project-1',
        filesGenerated: 4,
        executionSeconds: 3,
        verification: { passed: false, checkedFiles: 3, problems: [{ path: 'app.js', check: 'syntax', message: 'Unexpected token' }], verdict: 'failed', proven: '', notProven: 'syntax failed.' },
      },
    ];

    it("posts to the project's repair route and follows the run like a build, Proven Code alone", async () => {
      const { runner, calls, effects } = makeRunner([sse([repairRun, gate(2, false, 0), gate(3, false, 1), failedAgain])]);
      const done = runner.start({ kind: 'repair', projectId: 'project 1', request: { modelOrder: ['Engine A'] } });
      // Before the server answers, the stages it will not do already read as not in this run.
      expect(runner.getState().stages.map((s) => s.status)).toEqual(['skipped', 'skipped', 'skipped', 'skipped', 'pending']);
      await done;
      expect(calls).toEqual([
        {
          method: 'POST',
          url: '/api/projects/project%201/repair',
          headers: { 'Content-Type': 'application/json', Accept: 'text/event-stream' },
          body: { modelOrder: ['Engine A'] },
        },
      ]);
      const state = runner.getState();
      expect(state.phase).toBe('complete');
      expect(state.stages.map((s) => s.status)).toEqual(['skipped', 'skipped', 'skipped', 'skipped', 'failed']);
      expect(state.progress).toMatchObject({ current: 1, total: 1, percent: 100 });
      expect(state.result).toMatchObject({ projectId: 'project-1', onlyStages: ['Proven Code'], verification: { verdict: 'failed' } });
      expect(effects.map((e) => e.type)).toEqual(['run-started', 'progress', 'progress', 'completed']);
    });

    it("shows the server's refusal as it came, worded as a repair that did not start", async () => {
      const sentence = 'This project passed Proven Code: there is nothing to repair.';
      const { runner, notices } = makeRunner([json(409, { error: sentence, code: 'CONFLICT' })]);
      await runner.start({ kind: 'repair', projectId: 'project-1', request: {} });
      const state = runner.getState();
      expect(state).toMatchObject({ phase: 'failed', error: sentence, paymentRequired: false });
      expect(state.feed.map((item) => item.message)).toEqual(['Failed to start the repair run']);
      expect(notices).toEqual([{ title: 'Repair Not Started', description: sentence, variant: 'destructive' }]);
    });

    it('keeps a refusal for credits with the way to Settings', async () => {
      const sentence = 'Not enough credits: this stage needs about $0.40 and your balance is $0.10. Add credits in Settings.';
      const { runner } = makeRunner([json(402, { error: sentence, code: 'PAYMENT_REQUIRED' })]);
      await runner.start({ kind: 'repair', projectId: 'project-1', request: {} });
      expect(runner.getState()).toMatchObject({ phase: 'failed', error: sentence, paymentRequired: true });
    });

    it('reattaches to a repair run after a reload and shows it as Proven Code alone again', async () => {
      const { runner, calls } = makeRunner([runInfo('running'), sse([repairRun, gate(2, false, 0)], { drop: true }), runInfo('running'), sse([gate(3, true, 1), failedAgain])]);
      await runner.reattach('run-1');
      expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual([
        'GET /api/wolfpack/runs/run-1',
        'GET /api/wolfpack/runs/run-1/events',
        'GET /api/wolfpack/runs/run-1',
        'GET /api/wolfpack/runs/run-1/events',
      ]);
      expect(calls[3]?.headers['Last-Event-ID']).toBe('2');
      const state = runner.getState();
      expect(state.phase).toBe('complete');
      expect(state.stages.map((s) => s.status)).toEqual(['skipped', 'skipped', 'skipped', 'skipped', 'complete']);
      expect(state.result?.onlyStages).toEqual(['Proven Code']);
    });
  });
});
