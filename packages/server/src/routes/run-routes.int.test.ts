import { afterEach, describe, expect, it } from 'vitest';
import { PIPELINE_STAGES, conversationsReply, runInfoReply, statsReply } from '@wolfpack/core';
import { TestClient } from '../testing/http-client.js';
import { readEvents, type ReceivedEvent } from '../testing/sse-client.js';
import { startTestServer, testDatabases, type TestServer } from '../testing/test-server.js';

async function signedIn(server: TestServer, username = 'runner'): Promise<TestClient> {
  const client = new TestClient(server.url);
  const res = await client.post('/api/auth/register', { username, password: 'correct-horse' });
  expect(res.status).toBe(201);
  return client;
}

function streamInit(client: TestClient, body: unknown, extra: Record<string, string> = {}): RequestInit {
  return {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: client.cookieHeader(), ...extra },
    body: JSON.stringify(body),
  };
}

const types = (events: ReceivedEvent[]) => events.map((e) => e.event.type);

describe.each(testDatabases())('runs on %s', (kind) => {
  const servers: TestServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => s.dispose()));
  });
  const start = async (env: Record<string, string> = {}) => {
    const server = await startTestServer(kind, { env });
    servers.push(server);
    return server;
  };

  it('streams numbered events: run first, five stages, complete with the project', async () => {
    const server = await start();
    const client = await signedIn(server);
    const { status, headers, events } = await readEvents(`${server.url}/api/wolfpack/stream`, streamInit(client, { idea: 'A recipe tracker', modelOrder: [], cycles: 1 }));
    expect(status).toBe(200);
    expect(headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(headers.get('cache-control')).toContain('no-transform');
    expect(headers.get('x-accel-buffering')).toBe('no');
    expect(events.map((e) => e.id)).toEqual(events.map((_, i) => i + 1));
    expect(events[0]!.event.type).toBe('run');
    const stageEvents = events.flatMap((e) => (e.event.type === 'stage' ? [`${e.event.role}:${e.event.ok}`] : []));
    expect(stageEvents).toEqual(PIPELINE_STAGES.flatMap((r) => [`${r}:false`, `${r}:true`]));
    const last = events.at(-1)!.event;
    expect(last.type).toBe('complete');
    if (last.type !== 'complete') return;
    expect(last.filesGenerated).toBe(4);
    expect(last.verification?.passed).toBe(true);
    const project = await client.get(`/api/projects/${last.projectId}`);
    expect(project.status).toBe(200);
    expect(project.json.files).toEqual(['README.md', 'app.js', 'index.html', 'styles.css']);
    const code = await client.get(`/api/projects/${last.projectId}/replit-code`);
    expect(code.json).toMatchObject({ success: true, fileCount: 4, error: '' });
    const fsIndex = (project.json.project as { fsIndex: Record<string, string> }).fsIndex;
    for (const [path, content] of Object.entries(fsIndex)) {
      expect(code.json.code as string).toContain(`FILE: ${path}\n${'='.repeat(72)}\n${content}`);
    }
    const convs = conversationsReply.parse((await client.get('/api/conversations')).json).conversations;
    expect(convs).toHaveLength(1);
    expect(convs[0]).toMatchObject({ idea: 'A recipe tracker', projectId: last.projectId });
    expect(convs[0]!.stages.map((s) => s.ok)).toEqual([true, true, true, true, true]);
    const stats = statsReply.parse((await client.get('/api/stats')).json);
    expect(stats).toMatchObject({ totalRuns: 1, successRate: 100, pipelineStages: 5 });
  });

  it('sends a retry hint and heartbeat comments on an idle stream', async () => {
    const server = await start({ WOLFPACK_DEMO_DELAY_MS: '300', WOLFPACK_SSE_HEARTBEAT_MS: '100' });
    const client = await signedIn(server);
    const res = await fetch(`${server.url}/api/wolfpack/stream`, streamInit(client, { idea: 'Slow idea' }));
    const reader = res.body!.getReader();
    let text = '';
    const decoder = new TextDecoder();
    while (!/: heartbeat[\s\S]*: heartbeat/.test(text)) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
    await reader.cancel();
    expect(text.startsWith('retry: 3000\n\n')).toBe(true);
    expect(text.match(/^: heartbeat$/gm)?.length).toBeGreaterThanOrEqual(2);
  });

  it('keeps running when the client leaves; Last-Event-ID replays the rest without loss or duplicates', async () => {
    const server = await start({ WOLFPACK_DEMO_DELAY_MS: '150' });
    const client = await signedIn(server);
    const first = await readEvents(`${server.url}/api/wolfpack/stream`, {
      ...streamInit(client, { idea: 'A chess clock' }),
      stopAfter: (_, all) => all.length === 4,
    });
    expect(first.events).toHaveLength(4);
    const runId = first.events[0]!.event.type === 'run' ? first.events[0]!.event.runId : '';
    const rest = await readEvents(`${server.url}/api/wolfpack/runs/${runId}/events`, {
      headers: { cookie: client.cookieHeader(), 'last-event-id': '4' },
    });
    const ids = [...first.events, ...rest.events].map((e) => e.id);
    expect(ids).toEqual(ids.map((_, i) => i + 1));
    expect(types(rest.events).at(-1)).toBe('complete');
    const replay = await readEvents(`${server.url}/api/wolfpack/runs/${runId}/events`, { headers: { cookie: client.cookieHeader() } });
    expect(replay.events.map((e) => e.event)).toEqual([...first.events, ...rest.events].map((e) => e.event));
    const info = runInfoReply.parse((await client.get(`/api/wolfpack/runs/${runId}`)).json).run;
    expect(info).toMatchObject({ status: 'completed', lastEventId: ids.length });
  });

  it('refuses bad requests with clear errors before any stream starts', async () => {
    const server = await start();
    const anonymous = await fetch(`${server.url}/api/wolfpack/stream`, streamInit(new TestClient(server.url), { idea: 'x' }));
    expect(anonymous.status).toBe(401);
    const client = await signedIn(server);
    const blank = await client.post('/api/wolfpack/stream', { idea: '   ', modelOrder: [], cycles: 1 });
    expect(blank.status).toBe(400);
    expect(blank.json.error).toBe('Please enter an idea or speak.');
    const engine = await client.post('/api/wolfpack/stream', { idea: 'x', modelOrder: ['gpt-9'] });
    expect(engine.status).toBe(400);
    expect(engine.json.error).toMatch(/Unknown engine "gpt-9"\. Available engines: demo-alpha/);
    const tooMany = await client.post('/api/wolfpack/stream', {
      idea: 'x',
      attachments: Array.from({ length: 6 }, (_, i) => ({ filename: `f${i}.txt`, content: 'hi', mimeType: 'text/plain', size: 2 })),
    });
    expect(tooMany.status).toBe(400);
    expect(tooMany.json.error).toBe('Maximum 5 files allowed');
    const missing = await client.post('/api/wolfpack/stream', { idea: 'x', projectId: '00000000-0000-4000-8000-000000000000' });
    expect(missing.status).toBe(404);
    expect((await client.get('/api/conversations')).json).toEqual({ conversations: [] });
  });

  it('keeps every run and project to its owner: another user gets 404', async () => {
    const server = await start();
    const owner = await signedIn(server, 'owner');
    const { events } = await readEvents(`${server.url}/api/wolfpack/stream`, streamInit(owner, { idea: 'Private idea' }));
    const runId = events[0]!.event.type === 'run' ? events[0]!.event.runId : '';
    const complete = events.at(-1)!.event;
    const projectId = complete.type === 'complete' ? complete.projectId : '';
    const intruder = await signedIn(server, 'intruder');
    expect((await intruder.get(`/api/wolfpack/runs/${runId}`)).status).toBe(404);
    expect((await intruder.get(`/api/wolfpack/runs/${runId}/events`)).status).toBe(404);
    expect((await intruder.post(`/api/wolfpack/runs/${runId}/resume`)).status).toBe(404);
    expect((await intruder.get(`/api/projects/${projectId}`)).status).toBe(404);
    expect((await intruder.get(`/api/projects/${projectId}/replit-code`)).status).toBe(404);
    expect((await intruder.post('/api/wolfpack/stream', { idea: 'steal', projectId })).status).toBe(404);
    expect((await intruder.get('/api/projects')).json).toEqual({ projects: [], nextCursor: null });
    expect((await intruder.get('/api/projects/not-a-uuid')).status).toBe(404);
  });

  it('keeps a running run to its owner too: another user gets 404 while it runs here, the owner its events', async () => {
    // A run this process runs answers "is it yours?" from memory (no query): the same answers.
    const server = await start({ WOLFPACK_DEMO_DELAY_MS: '400' });
    const owner = await signedIn(server, 'owner');
    const first = await readEvents(`${server.url}/api/wolfpack/stream`, { ...streamInit(owner, { idea: 'Private idea' }), stopAfter: (_, all) => all.length === 2 });
    const runId = first.events[0]!.event.type === 'run' ? first.events[0]!.event.runId : '';
    expect(runInfoReply.parse((await owner.get(`/api/wolfpack/runs/${runId}`)).json).run.status).toBe('running');
    const intruder = await signedIn(server, 'intruder');
    const refused = await intruder.get(`/api/wolfpack/runs/${runId}/events`);
    expect(refused.status).toBe(404);
    expect(refused.json.error).toBe('Run not found');
    const followed = await readEvents(`${server.url}/api/wolfpack/runs/${runId}/events`, { headers: { cookie: owner.cookieHeader() } });
    expect(followed.status).toBe(200);
    expect(followed.events.map((e) => e.id)).toEqual(followed.events.map((_, i) => i + 1));
    expect(followed.events.slice(0, 2).map((e) => e.event)).toEqual(first.events.map((e) => e.event));
    expect(types(followed.events).at(-1)).toBe('complete');
  });

  it('continues a project and keeps the earlier version', async () => {
    const server = await start();
    const client = await signedIn(server);
    const first = await readEvents(`${server.url}/api/wolfpack/stream`, streamInit(client, { idea: 'Photo gallery' }));
    const done = first.events.at(-1)!.event;
    const projectId = done.type === 'complete' ? done.projectId : '';
    const second = await readEvents(`${server.url}/api/wolfpack/stream`, streamInit(client, { idea: 'Add captions', projectId }));
    const again = second.events.at(-1)!.event;
    expect(again).toMatchObject({ type: 'complete', projectId });
    // Both versions are kept: the build's and the one the Continue run made, each with its run.
    const runOf = (events: typeof first.events) => events.flatMap((e) => (e.event.type === 'run' ? [e.event.runId] : []))[0];
    const versions = await server.db.orm.em.getConnection().execute('select version, source, conversation_id from project_versions where project_id = ? order by version', [projectId]);
    expect(versions.map((v: { version: number; source: unknown; conversation_id: string }) => ({ ...v, source: typeof v.source === 'string' ? JSON.parse(v.source) : v.source }))).toEqual([
      { version: 1, source: { kind: 'build' }, conversation_id: runOf(first.events) },
      { version: 2, source: { kind: 'continue', idea: 'Add captions' }, conversation_id: runOf(second.events) },
    ]);
    // Files the second run left as they were are still the project's (none lost to the re-save).
    const detail = (await client.get(`/api/projects/${projectId}`)).json as { files: string[] };
    expect(detail.files.sort()).toEqual(['README.md', 'app.js', 'index.html', 'styles.css']);
    const list = (await client.get('/api/projects')).json.projects as Array<{ sessionCount: number }>;
    expect(list).toHaveLength(1);
    expect(list[0]!.sessionCount).toBe(2);
  });
});
