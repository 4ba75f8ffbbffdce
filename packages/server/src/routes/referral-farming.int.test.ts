import { afterEach, describe, expect, it } from 'vitest';
import { balanceReply, checkoutReply, referralStatsReply, subscriptionStatusReply, type ChatMessage } from '@wolfpack/core';
import { demoReply } from '@wolfpack/core/demo';
import { startFakeOpenAIServer } from '@wolfpack/core/engines/testing';
import { TestClient } from '../testing/http-client.js';
import { startPaidTestServer, type PaidTestServer } from '../testing/paid-test-server.js';
import { completeBuild } from '../testing/sse-client.js';
import { testDatabases, type TestServer } from '../testing/test-server.js';

const PASSWORD = 'correct-horse';
const DAY_MS = 86_400_000;

interface Member {
  client: TestClient;
  id: string;
  code: string;
}

/** Throwaway accounts earn their referrer nothing; real users earn what the spec says. */
describe.each(testDatabases())('referral farming on %s', (kind) => {
  const cleanup: Array<() => Promise<void>> = [];
  afterEach(async () => {
    await Promise.all(cleanup.splice(0).map((dispose) => dispose()));
  });
  const start = async (options: Parameters<typeof startPaidTestServer>[1] = {}) => {
    const paid = await startPaidTestServer(kind, options);
    cleanup.push(() => paid.dispose());
    return paid;
  };
  const sql = (server: TestServer, query: string, params: unknown[] = []) => server.db.orm.em.fork().getConnection().execute<Array<Record<string, unknown>>>(query, params);

  const register = (client: TestClient, username: string, referralCode?: string) =>
    client.post('/api/auth/register', { username, password: PASSWORD, ...(referralCode ? { referralCode } : {}) });
  const join = async (server: TestServer, username: string, referralCode?: string): Promise<Member> => {
    const client = new TestClient(server.url);
    const res = await register(client, username, referralCode);
    expect(res.status, res.text).toBe(201);
    const code = subscriptionStatusReply.parse((await client.get('/api/subscription/status')).json).referralCode!;
    const [row] = await sql(server, 'select id from users where username_key = ?', [username]);
    return { client, id: String(row!.id), code };
  };
  const build = (server: TestServer, member: { client: TestClient }, idea: string) => completeBuild(server.url, member.client.cookieHeader(), idea);
  const buy = async (paid: PaidTestServer, member: Member) => {
    const res = await member.client.post('/api/billing/top-up', { amountDollars: 10 });
    expect(res.status, res.text).toBe(200);
    const session = paid.fake.sessionByUrl(checkoutReply.parse(res.json).checkoutUrl)!;
    expect((await paid.deliver(paid.fake.completeSession(session.id))).status).toBe(200);
  };
  const balance = async (member: Member) => balanceReply.parse((await member.client.get('/api/billing/balance')).json).balanceCents;
  const stats = async (member: Member) => referralStatsReply.parse((await member.client.get('/api/referrals')).json);

  it('pays nothing for 20 throwaway sign-ups that build on their free credit, and $5 + $15 for one real user', async () => {
    const { server, ...paid } = await start();
    const referrer = await join(server, 'farmer');
    const throwaways = await Promise.all(Array.from({ length: 20 }, (_, i) => join(server, `throwaway${i}`, referrer.code)));
    for (let i = 0; i < throwaways.length; i += 5) await Promise.all(throwaways.slice(i, i + 5).map((t, j) => build(server, t, `Free demo ${i + j}`)));
    expect(await balance(referrer)).toBe(1500);
    expect(await stats(referrer)).toMatchObject({ totalReferrals: 20, activeReferrals: 0, pendingReferrals: 20, creditsEarnedDollars: 0 });
    expect(await sql(server, 'select id from referral_rewards')).toHaveLength(0);

    const friend = await join(server, 'real-friend', referrer.code);
    await build(server, friend, 'A real project');
    await buy({ server, ...paid }, friend);
    expect(await balance(referrer)).toBe(1500 + 500 + 1500);
    expect(await stats(referrer)).toMatchObject({ totalReferrals: 21, activeReferrals: 1, pendingReferrals: 20, creditsEarnedDollars: 20 });
    // Buying again or building again pays nothing more.
    await buy({ server, ...paid }, friend);
    await build(server, friend, 'Another real project');
    expect(await balance(referrer)).toBe(1500 + 2000);
  }, 240_000);

  it('says on the Referrals reply when rewards are paid, as the operator set it', async () => {
    const { server } = await start({ env: { WOLFPACK_REFERRAL_QUALIFYING_SPEND_CENTS: '250', WOLFPACK_REFERRAL_DAILY_CAP_CENTS: '5000' } });
    expect((await stats(await join(server, 'reader'))).rules).toEqual({ qualifyingSpendDollars: 2.5, dailyCapDollars: 50 });
    const { server: plain } = await start();
    expect((await stats(await join(plain, 'plain-reader'))).rules).toEqual({ qualifyingSpendDollars: null, dailyCapDollars: 100 });
  });

  it('counts a referral as real once its billed usage reaches the operator\'s amount', async () => {
    // A priced engine (at the network boundary) that answers like the demo engines.
    const engine = await startFakeOpenAIServer({ fallback: (request) => ({ kind: 'stream', deltas: [demoReply((request.body as { messages: ChatMessage[] }).messages)] }) });
    const engines = JSON.stringify([{ key: 'alpha', provider: 'openai', model: 'gpt-test', baseURL: engine.baseURL, apiKey: 'sk-test', pricePer1kTokensCents: 5 }]);
    const { server } = await start({ env: { WOLFPACK_ENGINES: engines, WOLFPACK_REFERRAL_QUALIFYING_SPEND_CENTS: '1' } });
    cleanup.push(() => engine.close());
    const referrer = await join(server, 'spend-referrer');
    const friend = await join(server, 'spend-friend', referrer.code);
    await build(server, friend, 'A billed build');
    const [spent] = await sql(server, `select -sum(amount_cents) as spent from ledger_entries where user_id = ? and kind = 'engine_usage'`, [friend.id]);
    expect(Number(spent!.spent)).toBeGreaterThan(0);
    expect(await balance(referrer)).toBe(1500 + 500 + 1500);
  }, 120_000);

  it('pays one referrer at most the daily cap in 24 hours; a reward past it is not paid', async () => {
    let now = new Date('2026-03-02T09:00:00Z');
    const paid = await start({ clock: () => now, env: { WOLFPACK_REFERRAL_DAILY_CAP_CENTS: '1000' } });
    const referrer = await join(paid.server, 'capped');
    for (const name of ['cap-a', 'cap-b', 'cap-c']) await buy(paid, await join(paid.server, name, referrer.code));
    expect(await balance(referrer)).toBe(1500 + 1000);
    const rows = await sql(paid.server, 'select referred_user_id from referral_rewards where beneficiary_id = ?', [referrer.id]);
    expect(rows).toHaveLength(2);
    now = new Date(now.getTime() + DAY_MS + 1000);
    await buy(paid, await join(paid.server, 'cap-d', referrer.code));
    expect(await balance(referrer)).toBe(1500 + 1500);
  }, 120_000);

  it('lets one address create a few accounts an hour, then says when to try again', async () => {
    const { server } = await start({ env: { WOLFPACK_SIGNUPS_PER_HOUR: '3' } });
    const client = new TestClient(server.url);
    // A form that does not validate uses up nothing.
    expect((await client.post('/api/auth/register', { username: 'x', password: '' })).status).toBe(400);
    for (const name of ['addr-a', 'addr-b', 'addr-c']) expect((await register(new TestClient(server.url), name)).status).toBe(201);
    const refused = await register(new TestClient(server.url), 'addr-d');
    expect(refused.status).toBe(429);
    expect(refused.json).toMatchObject({ code: 'TOO_MANY_REQUESTS' });
    expect(String(refused.json.error)).toMatch(/^Too many accounts were created from your address\. Try again in \d+ minute\(s\)\.$/);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await sql(server, 'select id from users where username_key = ?', ['addr-d'])).toHaveLength(0);
  });
});
