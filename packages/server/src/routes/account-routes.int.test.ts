import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { accountReply, runSavings, savingsReply } from '@wolfpack/core';
import { Conversation, Enhancement, PaymentCard, UserSecret } from '../entities/index.js';
import { LedgerService } from '../services/billing/ledger-service.js';
import { TestClient } from '../testing/http-client.js';
import { readEvents } from '../testing/sse-client.js';
import { startTestServer, testDatabases, type TestServer } from '../testing/test-server.js';

const PASSWORD = 'correct-horse';
type Row = Record<string, unknown>;

describe.each(testDatabases())('account and savings on %s', (kind) => {
  const servers: TestServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => s.dispose()));
  });
  const start = async (options: { clock?: () => Date; env?: Record<string, string> } = {}) => {
    const server = await startTestServer(kind, options);
    servers.push(server);
    return server;
  };
  const sql = (server: TestServer, query: string, params: unknown[] = []) => server.db.orm.em.fork().getConnection().execute<Row[]>(query, params);
  const count = async (server: TestServer, query: string, params: unknown[]) => Number((await sql(server, query, params))[0]!.n);

  const signUp = async (server: TestServer, username: string) => {
    const client = new TestClient(server.url);
    expect((await client.post('/api/auth/register', { username, password: PASSWORD })).status).toBe(201);
    const [row] = await sql(server, 'select id from users where username_key = ?', [username.toLowerCase()]);
    return { client, id: String(row!.id) };
  };
  const build = async (server: TestServer, client: TestClient, idea: string) => {
    const { events } = await readEvents(`${server.url}/api/wolfpack/stream`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: client.cookieHeader() },
      body: JSON.stringify({ idea }),
    });
    const last = events.at(-1)!.event;
    expect(last.type).toBe('complete');
    return last.type === 'complete' ? last.projectId : '';
  };

  it('answers the Account page: status, created date, billing cycle, card and the latest 10 ledger entries', async () => {
    const server = await start();
    expect((await new TestClient(server.url).get('/api/account')).status).toBe(401);
    const signedUpFrom = Date.now();
    const { client, id } = await signUp(server, 'Holder');
    const signedUpBy = Date.now();

    const fresh = accountReply.parse((await client.get('/api/account')).json);
    expect(fresh).toMatchObject({ username: 'Holder', status: 'active', billingCycle: 'Pay-as-you-go', card: null });
    // Created during the sign-up request: between the clock readings on either side of it.
    expect(Date.parse(fresh.createdAt)).toBeGreaterThanOrEqual(signedUpFrom);
    expect(Date.parse(fresh.createdAt)).toBeLessThanOrEqual(signedUpBy);

    // The first read opens the wallet, so the page opened before any balance read already shows
    // the welcome bonus and this month's grant, once, whichever read comes next.
    expect(fresh.recentActivity.map((e) => [e.kind, e.amountCents, e.balanceAfterCents])).toEqual([
      ['monthly_grant', 500, 1500],
      ['welcome_bonus', 1000, 1000],
    ]);
    await client.get('/api/billing/balance');
    const opened = accountReply.parse((await client.get('/api/account')).json);
    expect(opened.recentActivity).toEqual(fresh.recentActivity);

    const ledger = new LedgerService(server.db.orm);
    for (let i = 1; i <= 12; i++) await ledger.post(id, { kind: 'adjustment', amountCents: -i, reference: `test-adjust:${id}:${i}` });
    const em = server.db.orm.em.fork();
    em.create(PaymentCard, { userId: id, brand: 'visa', last4: '4242', expMonth: 12, expYear: 2031, updatedAt: new Date() });
    await em.flush();
    const full = accountReply.parse((await client.get('/api/account')).json);
    expect(full.card).toEqual({ brand: 'visa', last4: '4242', expMonth: 12, expYear: 2031 });
    expect(full.recentActivity).toHaveLength(10);
    expect(full.recentActivity.map((e) => e.amountCents)).toEqual([-12, -11, -10, -9, -8, -7, -6, -5, -4, -3]);
    expect(full.recentActivity[0]).toMatchObject({ label: 'Adjustment', amountDollars: -0.12, balanceAfterCents: 1500 - 78 });
  });

  it('closes an account: signed out everywhere, name free, personal data gone, ledger kept', async () => {
    const server = await start();
    const { client, id } = await signUp(server, 'Leaver');
    const projectId = await build(server, client, 'A project to delete');
    expect((await client.post('/api/folders', { name: 'Work' })).status).toBe(201);
    const token = await client.post('/api/auth/tokens', { username: 'Leaver', password: PASSWORD, name: 'cli' });
    expect(token.status).toBe(201);
    const em = server.db.orm.em.fork();
    em.create(PaymentCard, { userId: id, brand: 'visa', last4: '4242', expMonth: 1, expYear: 2030, updatedAt: new Date() });
    em.create(UserSecret, { userId: id, githubTokenCipher: 'cipher', githubLogin: 'leaver', updatedAt: new Date() });
    em.create(Enhancement, { id: randomUUID(), userId: id, sourcePrompt: 'p', finalPrompt: 'p2', cyclesRun: 1, projectId, conversationId: null, createdAt: new Date() });
    await em.flush();
    await client.get('/api/billing/balance');
    const ledgerBefore = await count(server, 'select count(*) as n from ledger_entries where user_id = ?', [id]);
    expect(ledgerBefore).toBeGreaterThanOrEqual(2);
    const otherSession = new TestClient(server.url);
    otherSession.setCookieHeader(client.cookieHeader());
    const bearer = new TestClient(server.url, { authorization: `Bearer ${String(token.json.token)}` });
    expect((await bearer.get('/api/auth/me')).status).toBe(200);

    const closed = await client.request('DELETE', '/api/account');
    expect(closed.status).toBe(200);
    expect(closed.json).toEqual({ success: true });
    expect(closed.headers.getSetCookie().join('\n')).toMatch(/wolfpack\.sid=;/);

    // Every session and token of the account is over.
    expect((await client.get('/api/auth/me')).status).toBe(401);
    expect((await otherSession.get('/api/auth/me')).status).toBe(401);
    expect((await otherSession.get('/api/account')).status).toBe(401);
    expect((await bearer.get('/api/auth/me')).status).toBe(401);
    expect((await otherSession.request('DELETE', '/api/account')).status).toBe(401);
    // The old name no longer signs in, and is free for someone new.
    const login = await new TestClient(server.url).post('/api/auth/login', { username: 'Leaver', password: PASSWORD });
    expect(login.status).toBe(401);
    const newcomer = await signUp(server, 'leaver');
    expect(newcomer.id).not.toBe(id);
    expect(accountReply.parse((await newcomer.client.get('/api/account')).json)).toMatchObject({ username: 'leaver', status: 'active' });
    expect((await newcomer.client.get('/api/projects')).json).toEqual({ projects: [], nextCursor: null });

    // The row stays, anonymised; the personal records are gone; the books are kept.
    const [user] = await sql(server, 'select username, username_key, status, closed_at, referral_code, password_hash from users where id = ?', [id]);
    expect(user).toMatchObject({ username: `closed-${id.slice(0, 8)}`, username_key: `closed:${id}`, status: 'closed', referral_code: null });
    expect(user!.closed_at).not.toBeNull();
    expect(String(user!.password_hash)).not.toMatch(/^scrypt\$/);
    for (const table of ['sessions', 'api_tokens', 'user_secrets', 'payment_cards', 'projects', 'folders', 'conversations', 'enhancements']) {
      expect(await count(server, `select count(*) as n from ${table} where user_id = ?`, [id]), table).toBe(0);
    }
    expect(await count(server, 'select count(*) as n from project_files where project_id = ?', [projectId])).toBe(0);
    expect(await count(server, 'select count(*) as n from project_versions where project_id = ?', [projectId])).toBe(0);
    expect(await count(server, 'select count(*) as n from ledger_entries where user_id = ?', [id])).toBe(ledgerBefore);
    expect(await count(server, 'select count(*) as n from wallets where user_id = ?', [id])).toBe(1);
  });

  it('refuses to close an account while one of its builds is still running', async () => {
    const server = await start({ env: { WOLFPACK_DEMO_DELAY_MS: '200' } });
    const { client, id } = await signUp(server, 'busy');
    const started = await readEvents(`${server.url}/api/wolfpack/stream`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: client.cookieHeader() },
      body: JSON.stringify({ idea: 'Slow idea' }),
      stopAfter: (_, all) => all.length === 1,
    });
    expect(started.events[0]!.event.type).toBe('run');
    const refused = await client.request('DELETE', '/api/account');
    expect(refused.status).toBe(409);
    expect(refused.json.error).toBe('A build is still running. Wait for it to finish, then close the account.');
    const [user] = await sql(server, 'select status from users where id = ?', [id]);
    expect(user!.status).toBe('active');
    expect((await client.get('/api/auth/me')).status).toBe(200);
  });

  it('computes savings from completed runs: all time, this month, per run and the last six months', async () => {
    const now = new Date('2026-03-15T10:00:00Z');
    const server = await start({ clock: () => now });
    const { client, id } = await signUp(server, 'saver');
    const empty = savingsReply.parse((await client.get('/api/savings')).json);
    expect(empty.allTime).toEqual({ timeSavedHours: 0, costSavedDollars: 0, runs: 0 });
    expect(empty.perRun).toEqual({ timeSavedHours: 0, costSavedDollars: 0, seconds: 0 });
    expect(empty.months.map((m) => m.month)).toEqual(['2025-10', '2025-11', '2025-12', '2026-01', '2026-02', '2026-03']);

    const em = server.db.orm.em.fork();
    const run = (status: string, executionMs: number, completedAt: string | null) =>
      em.create(Conversation, {
        id: randomUUID(), userId: id, idea: 'x', modelOrder: [], cycles: 1, attachments: [], projectId: null, status: status as 'completed',
        stages: [], executionMs, createdAt: new Date(completedAt ?? now), updatedAt: new Date(), completedAt: completedAt ? new Date(completedAt) : null,
        // The running one is another live server's (its lease is fresh): this server must not take it over.
        instanceId: 'another-server', heartbeatAt: new Date(Date.now() + 3600_000),
      });
    run('completed', 60_000, '2026-03-02T00:00:00Z');
    run('completed', 120_000, '2026-01-31T23:59:59Z');
    run('completed', 30_000, '2025-09-30T23:00:00Z'); // before the chart's six months
    run('failed', 500_000, null);
    run('running', 500_000, null);
    await em.flush();
    // Another user's run never counts.
    const other = await signUp(server, 'other');
    em.create(Conversation, { id: randomUUID(), userId: other.id, idea: 'y', modelOrder: [], cycles: 1, attachments: [], projectId: null, status: 'completed', stages: [], executionMs: 999_000, createdAt: now, updatedAt: now, completedAt: now });
    await em.flush();

    const savings = savingsReply.parse((await client.get('/api/savings')).json);
    expect(savings.allTime).toEqual({ ...runSavings(210), runs: 3 });
    expect(savings.allTime.timeSavedHours).toBeCloseTo(8.75);
    expect(savings.allTime.costSavedDollars).toBeCloseTo(10.5);
    expect(savings.thisMonth).toEqual({ ...runSavings(60), runs: 1 });
    expect(savings.perRun).toEqual({ ...runSavings(70), seconds: 70 });
    expect(savings.months).toEqual([
      { month: '2025-10', ...runSavings(0), runs: 0 },
      { month: '2025-11', ...runSavings(0), runs: 0 },
      { month: '2025-12', ...runSavings(0), runs: 0 },
      { month: '2026-01', ...runSavings(120), runs: 1 },
      { month: '2026-02', ...runSavings(0), runs: 0 },
      { month: '2026-03', ...runSavings(60), runs: 1 },
    ]);
    expect((await new TestClient(server.url).get('/api/savings')).status).toBe(401);
  });

  it('counts a real completed build in the savings', async () => {
    const server = await start();
    const { client, id } = await signUp(server, 'builder');
    await build(server, client, 'A recipe tracker');
    const [row] = await sql(server, 'select execution_ms from conversations where user_id = ?', [id]);
    const seconds = Number(row!.execution_ms) / 1000;
    const savings = savingsReply.parse((await client.get('/api/savings')).json);
    expect(savings.allTime).toEqual({ ...runSavings(seconds), runs: 1 });
    expect(savings.thisMonth.runs).toBe(1);
    expect(savings.months.at(-1)!.runs).toBe(1);
  });
});
