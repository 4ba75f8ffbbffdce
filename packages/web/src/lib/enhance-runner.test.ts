import { encodeJsonEvent, type EnhancementEvent } from '@wolfpack/core';
import { describe, expect, it } from 'vitest';
import { ENHANCE_FAILURES, ENHANCE_URL, EnhanceRunner } from './enhance-runner';
import type { EnhanceEffect } from './enhance-state';

function sse(events: EnhancementEvent[], options: { drop?: boolean; raw?: string } = {}): Response {
  const encoder = new TextEncoder();
  const chunks = events.map((event, i) => encodeJsonEvent(event, { id: String(i + 1) }));
  if (options.raw) chunks.push(options.raw);
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

const steps: EnhancementEvent[] = Array.from({ length: 8 }, (_, i) => ({
  type: 'step',
  passNumber: i < 4 ? 1 : 2,
  engineOrder: (i % 4) + 1,
  progress: { current: i + 1, total: 8, percent: ((i + 1) / 8) * 100 },
  estimatedRemainingSeconds: 8 - i,
}));

function setup(answer: Response | Error | (() => Response)) {
  const calls: Array<{ url: string; init: RequestInit | undefined }> = [];
  const effects: EnhanceEffect[] = [];
  const runner = new EnhanceRunner({
    fetch: async (input, init) => {
      calls.push({ url: String(input), init });
      if (answer instanceof Error) throw answer;
      return typeof answer === 'function' ? answer() : answer;
    },
    onEffect: (effect) => effects.push(effect),
  });
  const logs = () => effects.flatMap((e) => (e.type === 'log' ? [e.item.message] : []));
  return { runner, calls, effects, logs };
}

describe('EnhanceRunner', () => {
  it('posts the prompt and attachments, follows 8 steps and replaces the prompt', async () => {
    const { runner, calls, effects } = setup(sse([...steps, { type: 'complete', finalPrompt: 'Better prompt' }]));
    const seen: string[] = [];
    runner.subscribe(() => seen.push(`${runner.getState().phase}:${runner.getState().percent}`));
    const attachment = { filename: 'notes.md', content: '# notes', mimeType: 'text/markdown', size: 7 };
    await runner.enhance('A habit tracker', [attachment]);

    expect(calls).toHaveLength(1);
    expect(calls[0]!.url).toBe(ENHANCE_URL);
    expect(calls[0]!.init).toMatchObject({ method: 'POST', credentials: 'include' });
    expect(JSON.parse(String(calls[0]!.init!.body))).toEqual({ prompt: 'A habit tracker', attachments: [attachment] });
    expect(seen).toEqual([
      'enhancing:0',
      'enhancing:13',
      'enhancing:25',
      'enhancing:38',
      'enhancing:50',
      'enhancing:63',
      'enhancing:75',
      'enhancing:88',
      'enhancing:100',
      'finished:100',
    ]);
    expect(runner.getState().outcome).toBe('enhanced');
    expect(effects).toContainEqual({ type: 'replace-prompt', prompt: 'Better prompt' });
  });

  it("reads the server's sentence from a JSON error before the stream", async () => {
    const res = new Response(JSON.stringify({ success: false, error: 'Please enter a prompt to enhance.', code: 'VALIDATION' }), {
      status: 400,
      headers: { 'Content-Type': 'application/json' },
    });
    const { runner, effects, logs } = setup(res);
    await runner.enhance('x');
    expect(logs().at(-1)).toBe('Failed to enhance prompt');
    expect(effects.at(-1)).toEqual({ type: 'failed', description: 'Please enter a prompt to enhance.' });
    expect(runner.getState()).toMatchObject({ phase: 'finished', outcome: 'failed' });
  });

  it("says 'No reader available' for an answer without a body", async () => {
    const { runner, effects, logs } = setup(new Response(null, { status: 200 }));
    await runner.enhance('x');
    expect(logs().at(-1)).toBe('No reader available');
    expect(effects.at(-1)).toEqual({ type: 'failed', description: undefined });
  });

  it('fails when the server cannot be reached or the stream stops before the end', async () => {
    const offline = setup(new TypeError('Failed to fetch'));
    await offline.runner.enhance('x');
    expect(offline.effects.at(-1)).toEqual({ type: 'failed', description: ENHANCE_FAILURES.unreachable });

    const dropped = setup(sse(steps.slice(0, 3), { drop: true }));
    await dropped.runner.enhance('x');
    expect(dropped.logs().at(-1)).toBe('Failed to enhance prompt');
    expect(dropped.effects.at(-1)).toEqual({ type: 'failed', description: ENHANCE_FAILURES.dropped });

    const ended = setup(sse(steps.slice(0, 3)));
    await ended.runner.enhance('x');
    expect(ended.effects.at(-1)).toEqual({ type: 'failed', description: ENHANCE_FAILURES.dropped });
  });

  it('names an unreadable event instead of hiding it', async () => {
    const { runner, effects } = setup(sse([steps[0]!], { raw: 'data: {"type":"mystery"}\n\n' }));
    await runner.enhance('x');
    const last = effects.at(-1);
    expect(last?.type).toBe('failed');
    expect(last?.type === 'failed' ? last.description : '').toMatch(/Wolfpack server|type/);
  });

  it('ignores a blank prompt and a second click while enhancing; cancel goes back to idle', async () => {
    let release: (() => void) | undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { runner, calls } = setup(
      () =>
        new Response(
          new ReadableStream<Uint8Array>({
            async pull(controller) {
              await gate;
              controller.close();
            },
          }),
          { status: 200, headers: { 'Content-Type': 'text/event-stream' } },
        ),
    );
    await runner.enhance('   ');
    expect(calls).toHaveLength(0);
    const first = runner.enhance('idea');
    await runner.enhance('idea again');
    expect(calls).toHaveLength(1);
    expect(runner.getState().phase).toBe('enhancing');
    runner.cancel();
    expect(runner.getState().phase).toBe('idle');
    release?.();
    await first;
    expect(runner.getState().phase).toBe('idle');
  });
});
