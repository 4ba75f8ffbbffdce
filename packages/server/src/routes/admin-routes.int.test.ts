import { randomUUID } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { adminMetricsReply } from '@wolfpack/core';
import { TestClient } from '../testing/http-client.js';
import { startTestServer, testDatabases, type TestServer } from '../testing/test-server.js';
import type { Sql } from '../db/plain-sql.js';

const SECRET = 'admin-secret-for-tests-0123456789';
/** One configured engine at 200 cents per 1k tokens; never called, only priced. */
const ENGINES = JSON.stringify([{ key: 'alpha', provider: 'openai', model: 'm', baseURL: 'http://127.0.0.1:9/v1', pricePer1kTokensCents: 200 }]);

const sqlOf = (server: TestServer): Sql => server.db.orm.em.fork() as unknown as Sql;

function metrics(server: TestServer, secret?: string) {
  return new TestClient(server.url).get('/api/admin/metrics', secret === undefined ? {} : { 'X-Admin-Secret': secret });
}

describe.each(testDatabases())('admin metrics on %s', { timeout: 60_000 }, (kind) => {
  const servers: TestServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => s.dispose()));
  });
  async function start(env: NodeJS.ProcessEnv = { WOLFPACK_ADMIN_SECRET: SECRET }, clock?: () => Date): Promise<TestServer> {
    const server = await startTestServer(kind, { env, ...(clock ? { clock } : {}) });
    servers.push(server);
    return server;
  }

  it('answers the metrics for the right secret and 401 Unauthorized for a wrong or missing one', async () => {
    const lines: string[] = [];
    const server = await startTestServer(kind, { env: { WOLFPACK_ADMIN_SECRET: SECRET }, logger: { info: (m: string) => lines.push(m), warn: () => {}, error: () => {} } });
    servers.push(server);
    expect(lines.filter((line) => line.includes('admin secret'))).toEqual(['Admin metrics (/admin/metrics): the admin secret is WOLFPACK_ADMIN_SECRET.']);
    const ok = await metrics(server, SECRET);
    expect(ok.status).toBe(200);
    expect(ok.headers.get('cache-control')).toBe('no-store');
    adminMetricsReply.parse(ok.json);
    for (const res of [await metrics(server, 'wrong'), await metrics(server), await metrics(server, `${SECRET}x`), await metrics(server, '')]) {
      expect(res.status).toBe(401);
      expect(res.json).toMatchObject({ error: 'Unauthorized', code: 'UNAUTHORIZED' });
    }
  });

  it('lets the right secret in after 10 wrong ones from the same address (one proxy, many administrators)', async () => {
    const server = await start();
    for (let i = 0; i < 10; i += 1) expect((await metrics(server, `guess-${i}`)).status).toBe(401);
    expect((await metrics(server, SECRET)).status).toBe(200);
  });

  it('slows guessing down to one new secret every 30 s per address after 10, with Retry-After; the right secret waits only for that', async () => {
    let now = Date.parse('2026-05-04T10:00:00Z');
    // Behind a trusted proxy, so that another address can be named (X-Forwarded-For).
    const server = await start({ WOLFPACK_ADMIN_SECRET: SECRET, WOLFPACK_TRUST_PROXY: 'true' }, () => new Date(now));
    for (let i = 0; i < 10; i += 1) expect((await metrics(server, `guess-${i}`)).status).toBe(401);
    // The next new guess is still checked (and wrong); the one after it waits 30 seconds, unchecked,
    // and so does the right secret sent in the same 30 seconds.
    expect((await metrics(server, 'guess-10')).status).toBe(401);
    for (const secret of ['guess-11', SECRET]) {
      const res = await metrics(server, secret);
      expect(res.status).toBe(429);
      expect(res.json).toMatchObject({ code: 'TOO_MANY_REQUESTS', error: 'Too many wrong admin secrets from this address. Try again in 30 second(s).' });
      expect(res.headers.get('retry-after')).toBe('30');
    }
    now += 10_000;
    expect((await metrics(server, 'guess-12')).headers.get('retry-after')).toBe('20');
    now += 20_000;
    expect((await metrics(server, SECRET)).status).toBe(200);
    // Guessing goes on at one new secret per 30 s at most.
    for (let i = 0; i < 10; i += 1) expect((await metrics(server, `again-${i}`)).status).toBe(401);
    expect((await metrics(server, 'again-10')).status).toBe(401);
    expect((await metrics(server, 'again-11')).status).toBe(429);
    now += 30_000;
    expect((await metrics(server, 'again-12')).status).toBe(401);
    expect((await metrics(server, 'again-13')).status).toBe(429);
    // Another address is not slowed down by this one.
    const elsewhere = (secret: string) => new TestClient(server.url).get('/api/admin/metrics', { 'X-Admin-Secret': secret, 'X-Forwarded-For': '198.51.100.7' });
    expect((await elsewhere('guess-0')).status).toBe(401);
    expect((await elsewhere(SECRET)).status).toBe(200);
  });

  it('refuses a stale secret repeated from one address without slowing down the right one', async () => {
    const server = await start();
    for (let i = 0; i < 10; i += 1) expect((await metrics(server, 'last-years-secret')).status).toBe(401);
    const stuck = await metrics(server, 'last-years-secret');
    expect(stuck.status).toBe(429);
    expect(stuck.json.error).toBe(
      'This admin secret is wrong and was sent 11 times. Check the secret (WOLFPACK_ADMIN_SECRET, or "adminSecret" in the server\'s secrets.json) instead of retrying.',
    );
    expect(Number(stuck.headers.get('retry-after'))).toBeGreaterThan(14 * 60);
    expect((await metrics(server, 'a-typo')).status).toBe(401);
    expect((await metrics(server, SECRET)).status).toBe(200);
    // A request without a secret guesses nothing and counts for nothing.
    for (let i = 0; i < 20; i += 1) expect((await metrics(server)).status).toBe(401);
    expect((await metrics(server, SECRET)).status).toBe(200);
  });

  it('a success clears earlier failures', async () => {
    const server = await start();
    for (let i = 0; i < 9; i += 1) expect((await metrics(server, 'nope')).status).toBe(401);
    expect((await metrics(server, SECRET)).status).toBe(200);
    for (let i = 0; i < 9; i += 1) expect((await metrics(server, 'nope')).status).toBe(401);
    expect((await metrics(server, SECRET)).status).toBe(200);
  });

  it('generates a secret into secrets.json when WOLFPACK_ADMIN_SECRET is unset, and keeps it', async () => {
    const lines: string[] = [];
    const logger = { info: (m: string) => lines.push(m), warn: () => {}, error: () => {} };
    const server = await startTestServer(kind, { env: {}, logger });
    servers.push(server);
    const stored = JSON.parse(await readFile(join(server.dataDir, 'secrets.json'), 'utf8')) as { adminSecret?: string; secretKey?: string };
    expect(stored.adminSecret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // One start-up line says where the secret is kept, never the secret itself.
    const said = lines.filter((line) => line.includes('admin secret'));
    expect(said).toHaveLength(1);
    expect(said[0]).toContain(join(server.dataDir, 'secrets.json'));
    expect(said[0]).toContain('"adminSecret"');
    expect(lines.join('\n')).not.toContain(stored.adminSecret);
    expect((await metrics(server, stored.adminSecret)).status).toBe(200);
    expect((await metrics(server, 'wrong')).status).toBe(401);

    // A secrets file without an adminSecret gets one added; its other keys stay.
    const { adminSecret: _gone, ...older } = stored;
    await writeFile(join(server.dataDir, 'secrets.json'), JSON.stringify(older));
    const { dataDir, databaseUrl } = server;
    await server.close();
    servers.splice(servers.indexOf(server), 1);
    const restarted = await startTestServer(kind, { env: {}, reuse: { dataDir, databaseUrl } });
    try {
      const again = JSON.parse(await readFile(join(dataDir, 'secrets.json'), 'utf8')) as { adminSecret?: string; secretKey?: string };
      expect(again.secretKey).toBe(stored.secretKey);
      expect(again.adminSecret).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(again.adminSecret).not.toBe(stored.adminSecret);
      expect((await metrics(restarted, again.adminSecret)).status).toBe(200);
    } finally {
      await restarted.close();
      // The database and directory are thrown away by the first server's dispose.
      await server.dispose();
    }
  });

  it('equals the sums computed from the ledger, checkouts, sales and usage rows', async () => {
    const server = await start({ WOLFPACK_ADMIN_SECRET: SECRET, WOLFPACK_ENGINES: ENGINES });
    // A registered user gets a welcome bonus: credit given, so not revenue.
    const client = new TestClient(server.url);
    expect((await client.post('/api/auth/register', { username: 'buyer', password: 'correct-horse' })).status).toBe(201);
    const sql = sqlOf(server);
    const [{ id: userId }] = await sql.execute<Array<{ id: string }>>(`select id from users where username = 'buyer'`) as [{ id: string }];
    const now = new Date();

    const ledger = [
      { kind: 'top_up', cents: 2500 },
      { kind: 'top_up', cents: 1000 },
      { kind: 'pack_bonus', cents: 50 },
      { kind: 'engine_usage', cents: -300 },
    ];
    for (const [i, e] of ledger.entries()) {
      await sql.execute(
        `insert into ledger_entries (user_id, kind, amount_cents, balance_after_cents, reference, created_at) values (?, ?, ?, 0, ?, ?)`,
        [userId, e.kind, e.cents, `fixture:${i}`, now],
      );
    }
    // Licence revenue is the paid invoices (first month and a renewal), not the checkouts.
    for (const [i, cents] of [2900, 2900].entries()) {
      await sql.execute(
        `insert into njin_payments (invoice_id, user_id, subscription_id, amount_cents, currency, period_end, paid_at) values (?, ?, 'sub_fixture', ?, 'usd', ?, ?)`,
        [`in_fixture_${i}`, userId, cents, now, now],
      );
    }
    const checkouts = [
      { purpose: 'njin', status: 'paid', cents: 2900 },
      { purpose: 'njin', status: 'open', cents: 2900 },
      { purpose: 'top_up', status: 'paid', cents: 2500 },
    ];
    for (const [i, c] of checkouts.entries()) {
      await sql.execute(
        `insert into stripe_checkouts (id, user_id, purpose, amount_cents, status, created_at) values (?, ?, ?, ?, ?, ?)`,
        [`cs_fixture_${i}`, userId, c.purpose, c.cents, c.status, now],
      );
    }

    const projects = [
      { id: randomUUID(), repo: 'me/todo' },
      { id: randomUUID(), repo: null },
    ];
    for (const p of projects) {
      await sql.execute(
        `insert into projects (id, user_id, idea, file_count, github_repo, created_at, updated_at) values (?, ?, 'p', 0, ?, ?, ?)`,
        [p.id, userId, p.repo, now, now],
      );
    }
    const listingId = randomUUID();
    await sql.execute(
      `insert into listings (id, user_id, title, summary, visibility, price_cents, created_at, updated_at) values (?, ?, 't', 's', 'commercial', 1000, ?, ?)`,
      [listingId, userId, now, now],
    );
    const sale = { amount: 1000, seller: 800 };
    await sql.execute(
      `insert into listing_purchases (id, listing_id, buyer_id, checkout_id, status, amount_cents, seller_id, seller_cents, created_at) values (?, ?, ?, 'cs_sale', 'completed', ?, ?, ?, ?)`,
      [randomUUID(), listingId, userId, sale.amount, userId, sale.seller, now],
    );

    const conversations = [
      { id: randomUUID(), idea: 'todo app', at: new Date(now.getTime() - 2000) },
      { id: randomUUID(), idea: 'blog', at: new Date(now.getTime() - 1000) },
    ];
    for (const c of conversations) {
      await sql.execute(
        `insert into conversations (id, user_id, idea, model_order, cycles, attachments, status, stages, created_at, updated_at) values (?, ?, ?, '[]', 1, '[]', 'completed', '[]', ?, ?)`,
        [c.id, userId, c.idea, c.at, c.at],
      );
    }
    const [todo, blog] = conversations as [typeof conversations[0], typeof conversations[0]];
    const usage = [
      { conv: todo.id, engine: 'alpha', tokens: 1500, billed: 300, recorded: 300_000 },
      { conv: todo.id, engine: 'alpha', tokens: 500, billed: 100, recorded: 100_000 },
      { conv: blog.id, engine: 'alpha', tokens: 250, billed: 50, recorded: 50_000 },
      // An engine since removed from the configuration: costed at what was recorded.
      { conv: blog.id, engine: 'retired', tokens: 1000, billed: 400, recorded: 333_333 },
    ];
    for (const u of usage) {
      await sql.execute(
        `insert into engine_usage (user_id, conversation_id, cycle, stage, engine_key, provider, model, input_tokens, output_tokens, total_tokens, duration_ms, attempts, cost_millicents, billed_cents, created_at)
         values (?, ?, 1, 'draft', ?, 'openai', 'm', 0, ?, ?, 1, 1, ?, ?, ?)`,
        [userId, u.conv, u.engine, u.tokens, u.tokens, u.recorded, u.billed, now],
      );
    }

    const res = await metrics(server, SECRET);
    expect(res.status).toBe(200);
    const reply = adminMetricsReply.parse(res.json);

    // Computed here from the fixtures, independently of the implementation.
    const revenue = 2500 + 1000 + 2900 * 2 + (sale.amount - sale.seller);
    const alphaTokens = 1500 + 500 + 250;
    const costMillicents = alphaTokens * 200 + 333_333; // 200 cents per 1k = 200 millicents per token
    const costs = Math.round(costMillicents / 1000);
    expect(reply.overview).toEqual({
      totalRevenue: revenue,
      totalCosts: costs,
      totalProfit: revenue - costs,
      profitPercentage: Math.round(((revenue - costs) / revenue) * 10000) / 100,
      activeProjects: 2,
      totalConversations: 2,
    });
    expect(reply.aiMetrics.providerBreakdown).toEqual({
      alpha: { calls: 3, totalTokens: alphaTokens, totalRevenue: 450, totalCost: alphaTokens * 200 / 1000 },
      retired: { calls: 1, totalTokens: 1000, totalRevenue: 400, totalCost: 333 },
    });
    expect(reply.deploymentMetrics).toEqual({ deployedProjects: 1, estimatedMonthlyCost: 0, revenue: 0 });
    // Newest first.
    expect(reply.projects).toEqual([
      { conversationId: blog.id, idea: 'blog', aiCostCents: 50 + 333, aiRevenueCents: 450, deploymentCostCents: 0, deploymentRevenueCents: 0, profitCents: 450 - 383, tokenCount: 1250 },
      { conversationId: todo.id, idea: 'todo app', aiCostCents: 400, aiRevenueCents: 400, deploymentCostCents: 0, deploymentRevenueCents: 0, profitCents: 0, tokenCount: 2000 },
    ]);
  });
});
