/**
 * The reconnecting event source against a local server that speaks the real wire format but
 * misbehaves on cue: streams that end early, go silent, replay events already sent, or belong to
 * a run that was interrupted. (The real server, killed mid-run, is in the CLI's reconnect.int.test.ts
 * and the web's reconnect e2e.) Waits between attempts go through an injected sleep that returns
 * at once, so no test races a clock.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { PipelineEvent } from '../schemas/events.js';
import type { RunStatus } from '../schemas/runs.js';
import { encodeComment, encodeJsonEvent } from '../sse/sse.js';
import { DEFAULT_MAX_RECONNECTS, followRun as follow, RunFollowError, type FollowRunOptions, type RunItem as RunStreamItem, type RunSource } from './follow-run.js';
import { fetchTransport } from './run-transport.js';

const RUN = '11111111-2222-4333-8444-555555555555';

/** Event n of a five-event run: run, two logs, a stage, complete; or the scenario's pause for credits. */
function eventNumber(n: number): PipelineEvent {
  if (n === 1) return { type: 'run', runId: RUN, conversationId: RUN };
  if (n === scenario.paymentRequiredAt) return { type: 'error', error: 'Not enough credits: this stage needs about $19.40 and your balance is $15.00. Add credits in Settings.', code: 'PAYMENT_REQUIRED' };
  if (n === 5) return { type: 'complete', projectId: 'p1', filesGenerated: 1 };
  return { type: 'log', id: `l${n}`, level: 'info', message: `event ${n}`, timestamp: '2026-11-22T10:00:00.000Z' };
}

interface Scenario {
  /** Per request to a stream: which events to send (numbers), and then whether to hang. */
  streams: Array<{ events: number[]; hang?: boolean; unnumberedError?: string; live?: { id: number; message: string } }>;
  status: RunStatus;
  /** The run's newest stored event, as GET /runs/{id} says. @default 5 */
  lastEventId?: number;
  /** This event is the `error` a run paused for lack of credits ends with. */
  paymentRequiredAt?: number;
  /** POST /api/projects/p1/repair answers 409 with this sentence. */
  refuse?: string;
}

let scenario: Scenario;
let requests: Array<{ method: string; url: string; lastEventId: string | undefined }>;
let server: Server;
let base: string;

function sse(res: ServerResponse, plan: Scenario['streams'][number] | undefined) {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  res.write('retry: 3000\n\n');
  for (const n of plan?.events ?? []) {
    res.write(encodeJsonEvent(eventNumber(n), { id: String(n) }));
    if (plan?.live?.id === n) res.write(encodeJsonEvent({ type: 'log', id: 'live', level: 'warning', message: plan.live.message, timestamp: 'now', live: true }, { id: String(n) }));
  }
  if (plan?.unnumberedError) res.write(encodeJsonEvent({ type: 'error', error: plan.unnumberedError }, { id: '0' }));
  if (plan?.hang) res.write(encodeComment('heartbeat'));
  else res.end();
}

beforeAll(async () => {
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const lastEventId = req.headers['last-event-id'] as string | undefined;
    requests.push({ method: req.method ?? '', url: req.url ?? '', lastEventId });
    req.resume();
    if (req.method === 'POST' && req.url === '/api/wolfpack/stream') return sse(res, scenario.streams.shift());
    if (req.method === 'POST' && req.url === '/api/projects/p1/repair') {
      if (scenario.refuse) return res.writeHead(409, { 'content-type': 'application/json' }).end(JSON.stringify({ error: scenario.refuse, code: 'CONFLICT' }));
      return sse(res, scenario.streams.shift());
    }
    if (req.url === `/api/wolfpack/runs/${RUN}`) {
      const run = { id: RUN, conversationId: RUN, idea: 'x', status: scenario.status, projectId: null, lastEventId: scenario.lastEventId ?? 5, createdAt: 'now', error: null };
      return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ run }));
    }
    if (req.url === `/api/wolfpack/runs/${RUN}/events`) return sse(res, scenario.streams.shift());
    if (req.method === 'POST' && req.url === `/api/wolfpack/runs/${RUN}/resume`) {
      scenario.status = 'running';
      return sse(res, scenario.streams.shift());
    }
    res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ success: false, error: 'Run not found', code: 'NOT_FOUND' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});
beforeEach(() => {
  requests = [];
  waits.length = 0;
});

async function collect(items: AsyncIterable<RunStreamItem>): Promise<RunStreamItem[]> {
  const out: RunStreamItem[] = [];
  for await (const item of items) out.push(item);
  return out;
}

const waits: number[] = [];
/** followRun over the real fetch, its waits recorded instead of slept. */
const followRun = (options: Omit<FollowRunOptions, 'transport'>) =>
  follow({ transport: fetchTransport(fetch, { baseUrl: base }), sleep: async (ms) => void waits.push(ms), ...options });
const start: RunSource = { kind: 'open', path: '/api/wolfpack/stream', body: { idea: 'x', modelOrder: [], cycles: 1 } };
const ids = (items: RunStreamItem[]) => items.flatMap((item) => (item.type === 'event' ? [item.id] : []));

describe('followRun', () => {
  it('reattaches with Last-Event-ID after a stream ends early, and drops events it has seen', async () => {
    scenario = { status: 'running', streams: [{ events: [1, 2, 3] }, { events: [2, 3, 4, 5] }] };
    const items = await collect(followRun({ source: start, backoff: () => 5 }));
    expect(ids(items)).toEqual([1, 2, 3, 4, 5]);
    expect(items.filter((item) => item.type === 'reconnecting')).toEqual([
      { type: 'reconnecting', attempt: 1, maxAttempts: DEFAULT_MAX_RECONNECTS, delayMs: 5, reason: 'the server closed the event stream before the run ended' },
    ]);
    expect(requests.map((r) => `${r.method} ${r.url} ${r.lastEventId ?? '-'}`)).toEqual([
      'POST /api/wolfpack/stream -',
      `GET /api/wolfpack/runs/${RUN} -`,
      `GET /api/wolfpack/runs/${RUN}/events 3`,
    ]);
  });

  it('gives up on a silent stream, and treats the server’s unnumbered error as a broken stream', async () => {
    scenario = { status: 'running', streams: [{ events: [1], hang: true }, { events: [2], unnumberedError: 'The event stream failed. Reconnect to continue.' }, { events: [3, 4, 5] }] };
    const items = await collect(followRun({ source: start, backoff: () => 5, idleTimeoutMs: 300 }));
    expect(ids(items)).toEqual([1, 2, 3, 4, 5]);
    const reasons = items.flatMap((item) => (item.type === 'reconnecting' ? [item.reason] : []));
    expect(reasons).toEqual(['no data from the server for 1 second', 'The event stream failed. Reconnect to continue.']);
  });

  it('shows a line the server could not store (numbered as the event before it) without taking it for a replay', async () => {
    const message = "The database is unreachable; retrying for up to 2 minutes. The run's work so far is kept.";
    scenario = { status: 'running', streams: [{ events: [1, 2, 3, 4, 5], live: { id: 2, message } }] };
    const items = await collect(followRun({ source: start, backoff: () => 5 }));
    expect(ids(items)).toEqual([1, 2, 2, 3, 4, 5]);
    expect(items[2]).toMatchObject({ type: 'event', id: 2, event: { type: 'log', message, live: true } });
  });

  it('resumes an interrupted run once, from the last event it has', async () => {
    scenario = { status: 'interrupted', streams: [{ events: [3, 4, 5] }] };
    const items = await collect(followRun({ source: { kind: 'attach', runId: RUN, after: 2 }, backoff: () => 5 }));
    expect(items[0]).toEqual({ type: 'resuming', runId: RUN });
    expect(ids(items)).toEqual([3, 4, 5]);
    expect(requests.at(-1)).toEqual({ method: 'POST', url: `/api/wolfpack/runs/${RUN}/resume`, lastEventId: '2' });
  });

  it('ends at a pause for credits, and after resuming such a run treats that error as history', async () => {
    scenario = { status: 'running', streams: [{ events: [1, 2, 3] }], paymentRequiredAt: 3 };
    expect(ids(await collect(followRun({ source: start })))).toEqual([1, 2, 3]);

    // Paused at event 3, resumed: the server replays 1-3, then the run goes on to complete.
    scenario = { status: 'interrupted', lastEventId: 3, streams: [{ events: [1, 2, 3, 4, 5] }], paymentRequiredAt: 3 };
    const items = await collect(followRun({ source: { kind: 'attach', runId: RUN, after: 0 } }));
    expect(items[0]).toEqual({ type: 'resuming', runId: RUN });
    expect(ids(items)).toEqual([1, 2, 3, 4, 5]);

    // Resumed by someone else and finished since: attaching replays past the old error too.
    scenario = { status: 'completed', lastEventId: 5, streams: [{ events: [1, 2, 3, 4, 5] }], paymentRequiredAt: 3 };
    expect(ids(await collect(followRun({ source: { kind: 'attach', runId: RUN, after: 0 } })))).toEqual([1, 2, 3, 4, 5]);
  });

  it("starts Repair again at the project's repair route and reconnects exactly like a start", async () => {
    const repair: RunSource = { kind: 'open', path: '/api/projects/p1/repair', body: { modelOrder: [] } };
    scenario = { status: 'running', streams: [{ events: [1, 2] }, { events: [3, 4, 5] }] };
    const items = await collect(followRun({ source: repair, backoff: () => 5 }));
    expect(ids(items)).toEqual([1, 2, 3, 4, 5]);
    expect(requests.map((r) => `${r.method} ${r.url} ${r.lastEventId ?? '-'}`)).toEqual([
      'POST /api/projects/p1/repair -',
      `GET /api/wolfpack/runs/${RUN} -`,
      `GET /api/wolfpack/runs/${RUN}/events 2`,
    ]);
  });

  it("fails at once with the server's sentence when a repair is refused", async () => {
    const repair: RunSource = { kind: 'open', path: '/api/projects/p1/repair', body: { modelOrder: [] } };
    scenario = { status: 'running', streams: [], refuse: 'This project passed Proven Code: there is nothing to repair.' };
    await expect(collect(followRun({ source: repair }))).rejects.toThrow('This project passed Proven Code: there is nothing to repair.');
    expect(requests).toHaveLength(1);
  });

  it('stops after a few attempts in a row without a new event, naming the run to reattach to', async () => {
    scenario = { status: 'running', streams: [{ events: [1] }] };
    await expect(collect(followRun({ source: start, backoff: () => 1, maxReconnects: 2 }))).rejects.toThrow(
      `Lost the connection to ${base} and could not reconnect (the server closed the event stream before the run ended). The run may still be going.`,
    );
    expect(waits).toEqual([1, 1]);
  });

  it('fails at once for a run that does not exist', async () => {
    await expect(collect(followRun({ source: { kind: 'attach', runId: 'nope', after: 0 } }))).rejects.toThrow(
      `There is no run nope of yours on ${base}.`,
    );
    expect(requests).toHaveLength(1);
  });

  it('ends with the abort reason when the person detaches', async () => {
    scenario = { status: 'running', streams: [{ events: [1, 2], hang: true }] };
    const detach = new AbortController();
    const seen: number[] = [];
    const reason = new Error('detached');
    const run = (async () => {
      for await (const item of followRun({ source: start, signal: detach.signal })) {
        if (item.type === 'event') seen.push(item.id);
        if (seen.length === 2) detach.abort(reason);
      }
    })();
    await expect(run).rejects.toBe(reason);
    expect(seen).toEqual([1, 2]);
  });

  it('without autoResume replays an interrupted run and reports it instead of resuming it', async () => {
    scenario = { status: 'interrupted', lastEventId: 3, streams: [{ events: [1, 2, 3] }] };
    const items = await collect(followRun({ source: { kind: 'attach', runId: RUN }, autoResume: false }));
    expect(items.map((item) => (item.type === 'event' ? item.id : item.type))).toEqual(['connected', 1, 2, 3, 'interrupted']);
    expect(requests.map((r) => `${r.method} ${r.url}`)).toEqual([`GET /api/wolfpack/runs/${RUN}`, `GET /api/wolfpack/runs/${RUN}/events`]);
  });

  it('resumes a run on request from the last event it has, and says when a reattach answered', async () => {
    scenario = { status: 'interrupted', streams: [{ events: [3] }, { events: [4, 5] }] };
    const items = await collect(followRun({ source: { kind: 'resume', runId: RUN, after: 2 }, backoff: () => 7 }));
    expect(items.map((item) => (item.type === 'event' ? item.id : item.type))).toEqual([3, 'reconnecting', 'connected', 4, 5]);
    expect(requests[0]).toEqual({ method: 'POST', url: `/api/wolfpack/runs/${RUN}/resume`, lastEventId: '2' });
    expect(waits).toEqual([7]);
  });

  it('names the failure, so each client can say what to do next', async () => {
    const error = await collect(followRun({ source: { kind: 'attach', runId: 'nope' } })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RunFollowError);
    expect(error).toMatchObject({ failure: 'not-found', runId: 'nope', code: 'NOT_FOUND' });
  });

  it('passes a refusal of the start on as the server worded it, with the code of its status', async () => {
    scenario = { status: 'running', streams: [], refuse: 'Nothing to repair.' };
    const repair: RunSource = { kind: 'open', path: '/api/projects/p1/repair', body: {} };
    await expect(collect(followRun({ source: repair }))).rejects.toMatchObject({ code: 'CONFLICT', message: 'Nothing to repair.' });
  });
});
