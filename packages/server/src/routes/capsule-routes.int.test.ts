import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CAPSULE_EVENT_TYPES, capsuleDetailReply, capsulesReply, decodeEventStream, enhancementEvent, trendingScore, verificationReply, type Capsule } from '@wolfpack/core';
import { CapsuleService } from '../services/community/capsule-service.js';
import { TestClient } from '../testing/http-client.js';
import { readEvents } from '../testing/sse-client.js';
import { startTestServer, testDatabases, type TestServer } from '../testing/test-server.js';

const NOT_FOUND = "This capsule doesn't exist or is private.";
const HOUR = 3_600_000;

async function signedIn(server: TestServer, username: string): Promise<TestClient> {
  const client = new TestClient(server.url);
  const res = await client.post('/api/auth/register', { username, password: 'correct-horse' });
  expect(res.status).toBe(201);
  return client;
}

/** Runs the pipeline to completion (demo engines) and answers the run id and project id. */
async function completeRun(server: TestServer, client: TestClient, idea: string): Promise<{ runId: string; projectId: string }> {
  const { events } = await readEvents(`${server.url}/api/wolfpack/stream`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: client.cookieHeader() },
    body: JSON.stringify({ idea, modelOrder: [], cycles: 1 }),
  });
  const first = events[0]!.event;
  const last = events.at(-1)!.event;
  expect(last.type).toBe('complete');
  return { runId: first.type === 'run' ? first.runId : '', projectId: last.type === 'complete' ? last.projectId : '' };
}

async function myCapsules(client: TestClient): Promise<Capsule[]> {
  const res = await client.get('/api/capsules/user/my-capsules');
  expect(res.status).toBe(200);
  return capsulesReply.parse(res.json).capsules;
}

/** An anonymous visitor: its own user agent, and an address the server sees through X-Forwarded-For. */
function visitor(server: TestServer, ip: string, userAgent: string): TestClient {
  return new TestClient(server.url, { 'user-agent': userAgent, 'x-forwarded-for': ip });
}

// Every test completes real runs; PGlite under a busy machine needs more than the default 30 s.
describe.each(testDatabases())('capsules on %s', { timeout: 120_000 }, (kind) => {
  const servers: TestServer[] = [];
  const dirs: string[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => s.dispose()));
    await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
  });
  let now = new Date('2026-05-04T10:00:00Z');
  const start = async ({ env, ...options }: { webDir?: string; env?: NodeJS.ProcessEnv } = {}) => {
    now = new Date('2026-05-04T10:00:00Z');
    const server = await startTestServer(kind, { clock: () => now, env: { WOLFPACK_TRUST_PROXY: 'true', ...env }, ...options });
    servers.push(server);
    return server;
  };

  it('records every completed run once, privately, with the events and metrics of that run', async () => {
    const server = await start();
    const owner = await signedIn(server, 'owner');
    const { runId, projectId } = await completeRun(server, owner, 'A recipe tracker\nWith shopping lists.');
    const [capsule, ...others] = await myCapsules(owner);
    expect(others).toEqual([]);
    expect(capsule).toMatchObject({ title: 'A recipe tracker', projectName: 'A recipe tracker', description: 'With shopping lists.', isPublic: false, viewCount: 0, shareCount: 0 });
    expect(capsule!.slug).toMatch(/^a-recipe-tracker-[a-z2-7]{16}$/);
    expect(capsule!.shareSlug).toBe(capsule!.slug);
    // The wire form of isPublic is the string "false".
    const raw = (await owner.get('/api/capsules/user/my-capsules')).json as { capsules: Array<Record<string, unknown>> };
    expect(raw.capsules[0]!.isPublic).toBe('false');

    const detail = capsuleDetailReply.parse((await owner.get(`/api/capsules/${capsule!.slug}`)).json);
    const files = (await owner.get(`/api/projects/${projectId}`)).json.project as { fsIndex: Record<string, string> };
    const paths = Object.keys(files.fsIndex);
    expect(detail.capsule.finalCode).toBe(paths.map((p) => `// ${p}\n${files.fsIndex[p]}${files.fsIndex[p]!.endsWith('\n') ? '' : '\n'}`).join('\n'));
    expect(detail.capsule.originalPrompt).toBe('A recipe tracker\nWith shopping lists.');
    const types = detail.events.map((e) => e.eventType);
    expect(types[0]).toBe('prompt_received');
    expect(types[1]).toBe('enhancement_selected');
    expect(types.filter((t) => t === 'code_refined').length).toBeGreaterThanOrEqual(5);
    expect(types.at(-1)).toBe('session_complete');
    expect(types.every((t) => (CAPSULE_EVENT_TYPES as readonly string[]).includes(t))).toBe(true);
    const body = JSON.stringify(detail);
    expect(body).not.toMatch(/demo-alpha|wolfpack-demo|openai|anthropic|127\.0\.0\.1/);
    // Metrics are this run's: its tokens from engine usage, its file text length, and Proven
    // Code's own record (this test server has no sandbox: not proven, and the files no check
    // covered do not count towards consensus).
    const conn = server.db.orm.em.getConnection();
    const [usage] = await conn.execute(`select coalesce(sum(total_tokens), 0)::int as tokens from engine_usage where conversation_id = ?`, [runId]);
    const record = verificationReply.parse((await owner.get(`/api/projects/${projectId}/verification`)).json).verification!;
    expect(record.verdict).toBe('unproven');
    expect(detail.metrics).toMatchObject({
      totalTokens: usage!.tokens,
      outputLength: detail.capsule.finalCode!.length,
      consensusScore: Math.round((record.coveredFiles.length / paths.length) * 1000) / 1000,
      verdict: 'unproven',
      modelVotes: expect.stringMatching(/^Engine \d+(, Engine \d+)*$/),
    });
    expect(detail.metrics!.consensusScore).toBeLessThan(1);
    // The no-sandbox reason once and whole, the check it stopped, and the file no check covered.
    expect(detail.events.at(-1)!.data.reason).toBe(
      `${paths.length} files generated; not proven: not executed: no sandbox on this server (the sandbox is turned off (WOLFPACK_SANDBOX=off)), so page-load did not run; 1 file not covered by any check (README.md)`,
    );
    expect(detail.metrics!.totalDuration).toBeGreaterThan(0);
    expect(detail.shareCount).toBe(0);

    // Reporting the same run again records nothing new.
    const [{ n }] = (await conn.execute(`select count(*)::int as n from capsules where conversation_id = ?`, [runId])) as [{ n: number }];
    expect(n).toBe(1);
  });

  it('records a run reported twice once, and never throws into the run when recording fails', async () => {
    const server = await start();
    const owner = await signedIn(server, 'owner');
    const { runId, projectId } = await completeRun(server, owner, 'Reported twice');
    const warnings: string[] = [];
    const service = new CapsuleService(server.db.orm, { info: () => {}, warn: (m) => warnings.push(m), error: () => {} }, () => now);
    const [user] = await server.db.orm.em.getConnection().execute(`select user_id from conversations where id = ?`, [runId]);
    const run = { userId: String(user!.user_id), idea: 'Reported twice', conversationId: runId, projectId };
    await service.recordRun(run);
    expect(await service.record(run)).toBeNull();
    expect((await myCapsules(owner)).map((c) => c.title)).toEqual(['Reported twice']);
    expect(warnings).toEqual([]);
    // Two reports racing past the check for an existing capsule: one capsule, one timeline.
    const conn = server.db.orm.em.getConnection();
    const [{ n: timeline }] = (await conn.execute(`select count(*)::int as n from capsule_events e join capsules c on c.id = e.capsule_id where c.conversation_id = ?`, [runId])) as [{ n: number }];
    await conn.execute(`delete from capsule_events where capsule_id in (select id from capsules where conversation_id = ?)`, [runId]);
    await conn.execute(`delete from capsules where conversation_id = ?`, [runId]);
    const raced = await Promise.all([service.record(run), service.record(run)]);
    expect(raced.filter((id) => id !== null)).toHaveLength(1);
    const rows = (await conn.execute(
      `select count(distinct c.id)::int as capsules, count(e.id)::int as events, count(distinct e.seq)::int as seqs from capsules c join capsule_events e on e.capsule_id = c.id where c.conversation_id = ?`,
      [runId],
    )) as [{ capsules: number; events: number; seqs: number }];
    expect(rows[0]).toEqual({ capsules: 1, events: timeline, seqs: timeline });
    expect(timeline).toBeGreaterThan(3);
    // A run that is not there (the insert breaks a foreign key): a warning, not an exception.
    await expect(service.recordRun({ ...run, conversationId: '00000000-0000-4000-8000-000000000001' })).resolves.toBeUndefined();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/not recorded/);
  });

  it('records the enhancement the run came from as model_enhanced steps and the selection', async () => {
    const server = await start();
    const owner = await signedIn(server, 'enhancer');
    const res = await fetch(`${server.url}/api/multi-pass-enhancements`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: owner.cookieHeader() },
      body: JSON.stringify({ prompt: 'A habit tracker', attachments: [] }),
    });
    let finalPrompt = '';
    for await (const { data } of decodeEventStream(res.body!, enhancementEvent)) if (data.type === 'complete') finalPrompt = data.finalPrompt;
    await completeRun(server, owner, finalPrompt);
    const [capsule] = await myCapsules(owner);
    const detail = capsuleDetailReply.parse((await owner.get(`/api/capsules/${capsule!.slug}`)).json);
    expect(detail.capsule.originalPrompt).toBe('A habit tracker');
    expect(detail.capsule.enhancedPrompt).toBe(finalPrompt);
    const enhanced = detail.events.filter((e) => e.eventType === 'model_enhanced');
    expect(enhanced).toHaveLength(8);
    expect(enhanced.every((e) => /^Engine \d$/.test(String(e.data.model)))).toBe(true);
    expect(detail.events.find((e) => e.eventType === 'enhancement_selected')!.data.enhanced).toBe(true);
  });

  it('keeps private capsules from others and anonymous visitors; the owner publishes and unpublishes', async () => {
    const server = await start();
    const owner = await signedIn(server, 'owner');
    const stranger = await signedIn(server, 'stranger');
    const anonymous = visitor(server, '203.0.113.7', 'Browser/1');
    await completeRun(server, owner, 'A private diary');
    const [capsule] = await myCapsules(owner);
    const path = `/api/capsules/${capsule!.slug}`;

    for (const client of [stranger, anonymous]) {
      const res = await client.get(path);
      expect(res.status).toBe(404);
      expect(res.json).toMatchObject({ error: NOT_FOUND, code: 'NOT_FOUND' });
    }
    // Missing and malformed look exactly like private.
    for (const missing of ['/api/capsules/no-such-capsule-aaaaaaaaaaaaaaaa', '/api/capsules/%E0%A4%A', '/api/capsules/UPPER_and$']) {
      const res = await anonymous.get(missing);
      expect(res.status).toBe(404);
      expect(res.json.error).toBe(NOT_FOUND);
    }
    expect((await owner.get(path)).status).toBe(200);
    expect((await stranger.post(`/api/capsules/${capsule!.id}/share`, { shareMethod: 'copy' })).status).toBe(404);

    // Only the owner publishes; anyone else is told it does not exist.
    const hijack = await stranger.post(`/api/capsules/${capsule!.id}/publish`, { isPublic: true });
    expect(hijack.status).toBe(404);
    expect(hijack.json.error).toBe(NOT_FOUND);
    expect((await anonymous.post(`/api/capsules/${capsule!.id}/publish`, { isPublic: true })).status).toBe(401);
    expect((await owner.post('/api/capsules/not-a-uuid/publish', { isPublic: true })).status).toBe(404);
    expect((await owner.post(`/api/capsules/${capsule!.id}/publish`, { isPublic: 'yes' })).status).toBe(400);

    const published = await owner.post(`/api/capsules/${capsule!.id}/publish`, { isPublic: true });
    expect(published.status).toBe(200);
    expect((published.json.capsule as Record<string, unknown>).isPublic).toBe('true');
    expect((await anonymous.get(path)).status).toBe(200);
    expect((await stranger.get(path)).status).toBe(200);

    const hidden = await owner.post(`/api/capsules/${capsule!.id}/publish`, { isPublic: false });
    expect((hidden.json.capsule as Record<string, unknown>).isPublic).toBe('false');
    expect((await anonymous.get(path)).status).toBe(404);
    expect((await owner.get(path)).status).toBe(200);
  });

  it('needs a sign-in for My capsules and lists only the owner\'s, newest first', async () => {
    const server = await start();
    const anonymous = await new TestClient(server.url).get('/api/capsules/user/my-capsules');
    expect(anonymous.status).toBe(401);
    expect(anonymous.json).toMatchObject({ error: expect.any(String), code: 'UNAUTHORIZED' });
    const owner = await signedIn(server, 'owner');
    const other = await signedIn(server, 'other');
    await completeRun(server, owner, 'First idea');
    now = new Date(now.getTime() + 60_000);
    await completeRun(server, owner, 'Second idea');
    await completeRun(server, other, 'Not mine');
    expect((await myCapsules(owner)).map((c) => c.title)).toEqual(['Second idea', 'First idea']);
    expect((await myCapsules(other)).map((c) => c.title)).toEqual(['Not mine']);
  });

  it('counts a view once per viewer per day, never the owner\'s, anonymous visitors by address whatever their browser says', async () => {
    const server = await start();
    const owner = await signedIn(server, 'owner');
    const reader = await signedIn(server, 'reader');
    await completeRun(server, owner, 'A counted capsule');
    const [capsule] = await myCapsules(owner);
    await owner.post(`/api/capsules/${capsule!.id}/publish`, { isPublic: true });
    const path = `/api/capsules/${capsule!.slug}`;
    const views = async (client: TestClient) => capsuleDetailReply.parse((await client.get(path)).json).capsule.viewCount;

    expect(await views(owner)).toBe(0);
    expect(await views(owner)).toBe(0);
    expect(await views(reader)).toBe(1);
    now = new Date(now.getTime() + 20 * 60_000);
    now = new Date(now.getTime() + 2 * HOUR);
    expect(await views(reader)).toBe(1); // same viewer, same day
    now = new Date(now.getTime() + 24 * HOUR);
    expect(await views(reader)).toBe(2); // the next day

    const a = visitor(server, '198.51.100.1', 'Browser/1');
    expect(await views(a)).toBe(3);
    expect(await views(visitor(server, '198.51.100.1', 'Browser/1'))).toBe(3); // same address and browser
    // Another User-Agent from the same address is the same visitor (it fed Trending).
    for (const agent of ['Browser/2', 'curl/8.0', 'Bot/3']) expect(await views(visitor(server, '198.51.100.1', agent))).toBe(3);
    expect(await views(visitor(server, '198.51.100.2', 'Browser/1'))).toBe(4); // another address
    expect(await views(owner)).toBe(4);

    // No raw address is stored: viewer keys are salted hashes.
    const rows = await server.db.orm.em.getConnection().execute(`select viewer_key from capsule_views`);
    expect(rows.length).toBe(4);
    for (const row of rows) expect(row.viewer_key).toMatch(/^[0-9a-f]{64}$/);
  });

  it('counts views and shares once per period the operator sets (WOLFPACK_CAPSULE_COUNT_HOURS)', async () => {
    const server = await start({ env: { WOLFPACK_CAPSULE_COUNT_HOURS: '1' } });
    const owner = await signedIn(server, 'owner');
    await completeRun(server, owner, 'An hourly capsule');
    const [capsule] = await myCapsules(owner);
    await owner.post(`/api/capsules/${capsule!.id}/publish`, { isPublic: true });
    const fan = visitor(server, '203.0.113.7', 'Browser/1');
    const views = async () => capsuleDetailReply.parse((await fan.get(`/api/capsules/${capsule!.slug}`)).json).capsule.viewCount;
    const share = async () => (await fan.post(`/api/capsules/${capsule!.id}/share`, { shareMethod: 'copy' })).json;
    expect(await views()).toBe(1);
    expect(await share()).toEqual({ shareCount: 1 });
    now = new Date(now.getTime() + 30 * 60_000);
    expect(await views()).toBe(1);
    expect(await share()).toEqual({ shareCount: 1 });
    now = new Date(now.getTime() + HOUR);
    expect(await views()).toBe(2);
    expect(await share()).toEqual({ shareCount: 2 });
  });

  it('counts shares, validates the share method, and hides others\' private capsules', async () => {
    const server = await start();
    const owner = await signedIn(server, 'owner');
    const fan = visitor(server, '192.0.2.9', 'Browser/9');
    await completeRun(server, owner, 'A shared capsule');
    const [capsule] = await myCapsules(owner);
    const share = (client: TestClient, body: unknown) => client.post(`/api/capsules/${capsule!.id}/share`, body);

    // The owner may share a private capsule (to try the link); nobody else can. Like the owner's
    // views, the owner's shares are logged but never counted.
    expect((await share(owner, { shareMethod: 'copy' })).json).toEqual({ shareCount: 0 });
    const hidden = await share(fan, { shareMethod: 'twitter' });
    expect(hidden.status).toBe(404);
    expect(hidden.json.error).toBe(NOT_FOUND);

    await owner.post(`/api/capsules/${capsule!.id}/publish`, { isPublic: true });
    expect((await share(owner, { shareMethod: 'twitter' })).json).toEqual({ shareCount: 0 });
    expect((await owner.get(`/api/capsules/${capsule!.slug}`)).json).toMatchObject({ shareCount: 0, capsule: { viewCount: 0, shareCount: 0 } });
    expect((await share(fan, { shareMethod: 'twitter', referralCode: 'WPABC123' })).json).toEqual({ shareCount: 1 });
    // Sharing again the same day, another way or the same, from another browser, is logged but
    // not counted; the next day it is.
    expect((await share(fan, { shareMethod: 'linkedin' })).json).toEqual({ shareCount: 1 });
    expect((await share(visitor(server, '192.0.2.9', 'Other/1'), { shareMethod: 'linkedin' })).json).toEqual({ shareCount: 1 });
    now = new Date(now.getTime() + 24 * HOUR);
    expect((await share(fan, { shareMethod: 'linkedin' })).json).toEqual({ shareCount: 2 });
    // A day on, the owner's share still does not count.
    expect((await share(owner, { shareMethod: 'copy' })).json).toEqual({ shareCount: 2 });
    const bad = await share(fan, { shareMethod: 'email' });
    expect(bad.status).toBe(400);
    expect(bad.json.error).toMatch(/shareMethod/);
    expect((await share(fan, { shareMethod: 'copy', referralCode: '<script>' })).status).toBe(400);
    expect((await fan.post('/api/capsules/not-a-uuid/share', { shareMethod: 'copy' })).status).toBe(404);

    const detail = capsuleDetailReply.parse((await fan.get(`/api/capsules/${capsule!.slug}`)).json);
    expect(detail.shareCount).toBe(2);
    expect(detail.capsule.shareCount).toBe(2);
    const stored: Array<{ method: string; referral_code: string | null; counted: boolean }> = await server.db.orm.em.getConnection().execute(`select method, referral_code, counted from capsule_shares order by created_at, method`);
    expect(stored.map((r) => r.method).sort()).toEqual(['copy', 'copy', 'linkedin', 'linkedin', 'linkedin', 'twitter', 'twitter']);
    expect(stored.filter((r) => r.counted)).toHaveLength(2);
    expect(stored.map((r) => r.referral_code)).toContain('WPABC123');
  });

  it('orders trending by views and shares decayed by age (the clock\'s time), latest by creation; public only', async () => {
    const server = await start();
    const owner = await signedIn(server, 'owner');
    const publish = async (title: string) => {
      await completeRun(server, owner, title);
      const capsule = (await myCapsules(owner)).find((c) => c.title === title)!;
      await owner.post(`/api/capsules/${capsule.id}/publish`, { isPublic: true });
      return capsule;
    };
    const view = async (slug: string, n: number) => {
      for (let i = 0; i < n; i++) expect((await visitor(server, `10.0.0.${i + 1}`, 'Browser').get(`/api/capsules/${slug}`)).status).toBe(200);
    };
    const old = await publish('Old and popular');
    await view(old.slug, 3);
    now = new Date(now.getTime() + 24 * HOUR);
    const fresh = await publish('Fresh and quiet');
    await view(fresh.slug, 1);
    now = new Date(now.getTime() + HOUR);
    await completeRun(server, owner, 'Still private'); // never listed

    const trending = capsulesReply.parse((await new TestClient(server.url).get('/api/capsules/discover/trending')).json).capsules;
    expect(trending.map((c) => c.title)).toEqual(['Fresh and quiet', 'Old and popular']);
    // The consequence of the formula, not a hard-coded number: more views, yet older, ranks lower.
    const byFormula = [...trending].sort((a, b) => trendingScore(b.viewCount, b.shareCount, b.createdAt, now) - trendingScore(a.viewCount, a.shareCount, a.createdAt, now));
    expect(trending.map((c) => c.id)).toEqual(byFormula.map((c) => c.id));
    expect(trending[1]!.viewCount).toBeGreaterThan(trending[0]!.viewCount);

    // Shares weigh more than views: share the old one until the formula puts it ahead, then it leads.
    const oldNow = trending[1]!;
    const freshScore = trendingScore(trending[0]!.viewCount, trending[0]!.shareCount, trending[0]!.createdAt, now);
    let shares = 0;
    while (trendingScore(oldNow.viewCount, shares, oldNow.createdAt, now) <= freshScore) shares += 1;
    expect(shares).toBeLessThan(oldNow.viewCount * 20); // each share counts several views
    for (let i = 0; i < shares; i++) await visitor(server, `10.1.${Math.floor(i / 250)}.${i % 250}`, 'B').post(`/api/capsules/${old.id}/share`, { shareMethod: 'copy' });
    const again = capsulesReply.parse((await new TestClient(server.url).get('/api/capsules/discover/trending')).json).capsules;
    expect(again[0]!.title).toBe('Old and popular');

    const latest = capsulesReply.parse((await new TestClient(server.url).get('/api/capsules/discover/latest')).json).capsules;
    expect(latest.map((c) => c.title)).toEqual(['Fresh and quiet', 'Old and popular']);
    expect(latest.every((c) => c.isPublic)).toBe(true);
    expect(capsulesReply.parse((await new TestClient(server.url).get('/api/capsules/discover/latest?limit=1')).json).capsules).toHaveLength(1);
    for (const bad of ['limit=0', 'limit=51', 'limit=abc']) {
      const res = await new TestClient(server.url).get(`/api/capsules/discover/trending?${bad}`);
      expect(res.status).toBe(400);
      expect(res.json.error).toMatch(/limit/);
    }
  });

  it('serves Open Graph tags for public capsule pages only, escaped', async () => {
    const webDir = await mkdtemp(join(tmpdir(), 'wolfpack-web-'));
    dirs.push(webDir);
    await writeFile(join(webDir, 'index.html'), '<!doctype html><html><head><meta name="description" content="Wolfpack" /><title>Wolfpack</title></head><body></body></html>');
    const server = await start({ webDir });
    const owner = await signedIn(server, 'owner');
    const { projectId } = await completeRun(server, owner, 'Tags <script>alert("x")</script> & co\nA "quoted" description');
    const [capsule] = await myCapsules(owner);
    const page = `/capsules/${capsule!.slug}`;

    const privatePage = await new TestClient(server.url).get(page);
    expect(privatePage.status).toBe(200);
    expect(privatePage.text).not.toContain('og:title');
    expect(privatePage.text).toContain('<title>Wolfpack</title>');

    await owner.post(`/api/capsules/${capsule!.id}/publish`, { isPublic: true });
    const publicPage = await new TestClient(server.url).get(page);
    expect(publicPage.headers.get('content-type')).toMatch(/text\/html/);
    expect(publicPage.text).toContain('<meta property="og:title" content="Tags &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; co" />');
    expect(publicPage.text).toContain('<meta property="og:description" content="A &quot;quoted&quot; description" />');
    expect(publicPage.text).toContain('<meta property="og:type" content="article" />');
    expect(publicPage.text).toContain(`<meta property="og:url" content="${server.url}${page}" />`);
    expect(publicPage.text).toContain('<meta name="twitter:card" content="summary" />');
    expect(publicPage.text).not.toContain('<script>alert');
    // Looking at the preview is not a view.
    expect((await myCapsules(owner))[0]!.viewCount).toBe(0);

    const unknownListing = await new TestClient(server.url).get('/showcase/00000000-0000-4000-8000-000000000000');
    expect(unknownListing.status).toBe(200);
    expect(unknownListing.text).not.toContain('og:title');

    // A live listing previews with its title and summary; once deleted, as the plain app.
    const created = await owner.post('/api/listings', { projectId, title: 'Recipes & <more>', summary: 'Plan "meals".', visibility: 'free' });
    expect(created.status, created.text).toBe(201);
    const listingId = (created.json.listing as { id: string }).id;
    const listingPage = `/showcase/${listingId}`;
    const live = await new TestClient(server.url).get(listingPage);
    expect(live.text).toContain('<meta property="og:title" content="Recipes &amp; &lt;more&gt;" />');
    expect(live.text).toContain('<meta property="og:description" content="Plan &quot;meals&quot;." />');
    expect(live.text).toContain('<meta property="og:type" content="product" />');
    expect((await owner.request('DELETE', `/api/listings/${listingId}`)).status).toBe(204);
    expect((await new TestClient(server.url).get(listingPage)).text).not.toContain('og:title');
  });
});
