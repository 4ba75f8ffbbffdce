/** The enhancement follower over a fetch that answers as the server would, or breaks on cue. */
import { describe, expect, it } from 'vitest';
import type { EnhancementEvent } from '../schemas/events.js';
import { encodeJsonEvent } from '../sse/sse.js';
import { EnhancementLostError, followEnhancement, type EnhanceItem } from './follow-enhancement.js';
import { EmptyStreamError, fetchTransport, ServerRefusal } from './run-transport.js';

const step: EnhancementEvent = { type: 'step', passNumber: 1, engineOrder: 1, progress: { current: 1, total: 8, percent: 13 }, estimatedRemainingSeconds: 7 };

/** An event stream of `events`, numbered from 1, that ends, breaks (`drop`) or never ends (`hang`). */
function sse(events: EnhancementEvent[], end: 'close' | 'drop' | 'hang' = 'close'): Response {
  const chunks = events.map((event, i) => new TextEncoder().encode(encodeJsonEvent(event, { id: String(i + 1) })));
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const chunk = chunks.shift();
      if (chunk !== undefined) controller.enqueue(chunk);
      else if (end === 'drop') controller.error(new TypeError('network error'));
      else if (end === 'close') controller.close();
    },
  });
  return new Response(body, { status: 200, headers: { 'Content-Type': 'text/event-stream' } });
}

function follow(reply: Response | Error, options: { signal?: AbortSignal; idleTimeoutMs?: number } = {}) {
  const calls: Array<{ url: string; init: RequestInit }> = [];
  const fetchFn = (async (url: string, init: RequestInit) => {
    calls.push({ url, init });
    if (reply instanceof Error) throw reply;
    return reply;
  }) as unknown as typeof fetch;
  const items = (async () => {
    const out: EnhanceItem[] = [];
    for await (const item of followEnhancement({ transport: fetchTransport(fetchFn, { baseUrl: 'http://wolfpack.test' }), request: { prompt: 'A habit tracker' }, ...options })) out.push(item);
    return out;
  })();
  return { calls, items };
}

describe('followEnhancement', () => {
  it('posts the prompt and yields the numbered events up to complete', async () => {
    const { calls, items } = follow(sse([step, { type: 'complete', finalPrompt: 'Better' }, step]));
    expect((await items).map((item) => [item.id, item.event.type])).toEqual([
      [1, 'step'],
      [2, 'complete'],
    ]);
    expect(calls[0]?.url).toBe('http://wolfpack.test/api/multi-pass-enhancements');
    expect(JSON.parse(String(calls[0]?.init.body))).toEqual({ prompt: 'A habit tracker' });
  });

  it('ends with the error event the server sends', async () => {
    const { items } = follow(sse([step, { type: 'error', error: 'No engine answered.', code: 'BAD_GATEWAY' }]));
    expect((await items).at(-1)?.event).toEqual({ type: 'error', error: 'No engine answered.', code: 'BAD_GATEWAY' });
  });

  it('names a broken, silent or short stream as lost, and a refusal in the server’s words', async () => {
    await expect(follow(sse([step], 'drop')).items).rejects.toMatchObject({ reason: 'the connection broke' });
    await expect(follow(sse([step], 'hang'), { idleTimeoutMs: 50 }).items).rejects.toMatchObject({ reason: 'no data from the server for 1 second' });
    const short = await follow(sse([step])).items.catch((error: unknown) => error);
    expect(short).toBeInstanceOf(EnhancementLostError);
    expect((short as Error).message).toBe('The server at http://wolfpack.test ended the enhancement stream without a result. Try again.');
    const refusal = new Response(JSON.stringify({ error: 'Please enter a prompt to enhance.' }), { status: 400 });
    await expect(follow(refusal).items).rejects.toEqual(new ServerRefusal(400, 'Please enter a prompt to enhance.'));
    await expect(follow(new Response(null, { status: 200 })).items).rejects.toBeInstanceOf(EmptyStreamError);
  });

  it('stops with the abort reason when the person cancels', async () => {
    const stop = new AbortController();
    const reason = new Error('cancelled');
    stop.abort(reason);
    await expect(follow(sse([step], 'hang'), { signal: stop.signal }).items).rejects.toBe(reason);
  });
});
