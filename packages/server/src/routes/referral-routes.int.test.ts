import { afterEach, describe, expect, it } from 'vitest';
import { balanceReply, checkoutReply, referralCodeCheckReply, referralStatsReply, subscriptionStatusReply } from '@wolfpack/core';
import { silentLogger } from '../logger.js';
import { AuthService } from '../services/accounts/auth-service.js';
import { LedgerService } from '../services/billing/ledger-service.js';
import { ReferralService } from '../services/accounts/referral-service.js';
import { TestClient } from '../testing/http-client.js';
import { completeBuild } from '../testing/sse-client.js';
import { startPaidTestServer, type PaidTestServer } from '../testing/paid-test-server.js';
import { testDatabases, type TestServer } from '../testing/test-server.js';

const DAY_MS = 86_400_000;
const PASSWORD = 'correct-horse';

interface Member {
  client: TestClient;
  id: string;
  code: string;
}

type Row = Record<string, unknown>;

describe.each(testDatabases())('referrals on %s', (kind) => {
  // Paid servers: a referral is paid for once the referred account buys credit.
  const servers = new Map<TestServer, PaidTestServer>();
  afterEach(async () => {
    await Promise.all([...servers.values()].map((s) => s.dispose()));
    servers.clear();
  });
  const start = async (options: { clock?: () => Date } = {}) => {
    const paid = await startPaidTestServer(kind, options);
    servers.set(paid.server, paid);
    return paid.server;
  };
  const sql = (server: TestServer, query: string, params: unknown[] = []) => server.db.orm.em.fork().getConnection().execute<Row[]>(query, params);

  const join = async (server: TestServer, username: string, referralCode?: unknown): Promise<Member> => {
    const client = new TestClient(server.url);
    const res = await client.post('/api/auth/register', { username, password: PASSWORD, ...(referralCode === undefined ? {} : { referralCode }) });
    expect(res.status, res.text).toBe(201);
    const status = subscriptionStatusReply.parse((await client.get('/api/subscription/status')).json);
    expect(status.referralCode).toMatch(/^WP[A-Z0-9]{6}$/);
    const [row] = await sql(server, 'select id from users where username_key = ?', [username]);
    return { client, id: String(row!.id), code: status.referralCode! };
  };
  /** Shows the member is a real user: a $10 credit pack bought and paid through (fake) Stripe. */
  const real = async (server: TestServer, member: { client: TestClient }) => {
    const paid = servers.get(server)!;
    const res = await member.client.post('/api/billing/top-up', { amountDollars: 10 });
    expect(res.status, res.text).toBe(200);
    const session = paid.fake.sessionByUrl(checkoutReply.parse(res.json).checkoutUrl)!;
    expect((await paid.deliver(paid.fake.completeSession(session.id))).status).toBe(200);
  };
  const realJoin = async (server: TestServer, username: string, referralCode?: unknown): Promise<Member> => {
    const member = await join(server, username, referralCode);
    await real(server, member);
    return member;
  };
  const referredBy = async (server: TestServer, member: Member) =>
    (await sql(server, 'select referred_by from users where id = ?', [member.id]))[0]!.referred_by ?? null;
  /** The referral_reward entries caused by one user's event, as beneficiary id -> cents. */
  const rewardsFor = async (server: TestServer, referred: { id: string }, event: 'signup' | 'first_build') => {
    const rows = await sql(server, `select user_id, amount_cents from ledger_entries where kind = 'referral_reward' and reference like ?`, [`referral:${referred.id}:${event}:%`]);
    return new Map(rows.map((r: Row) => [String(r.user_id), Number(r.amount_cents)]));
  };
  const build = (server: TestServer, member: { client: TestClient }, idea: string) => completeBuild(server.url, member.client.cookieHeader(), idea);

  // Nine registrations cost nine scrypt hashes: slow on a loaded machine, hence the longer timeout.
  it('pays the sign-up reward seven generations up a chain: 500, 225, 100, 45, 20, 10, 5 cents, nothing to the 8th', async () => {
    const server = await start();
    const chain: Member[] = [await join(server, 'gen0')];
    for (let i = 1; i <= 8; i++) chain.push(await realJoin(server, `gen${i}`, chain[i - 1]!.code));
    const newest = chain[8]!;
    expect(await referredBy(server, newest)).toBe(chain[7]!.id);

    const paid = await rewardsFor(server, newest, 'signup');
    const expected = [500, 225, 100, 45, 20, 10, 5];
    expected.forEach((cents, i) => expect(paid.get(chain[7 - i]!.id), `generation ${i + 1}`).toBe(cents));
    expect(paid.has(chain[0]!.id)).toBe(false); // the 8th generation up
    expect(paid.size).toBe(7);
    const rows = await sql(server, 'select level, amount_cents, beneficiary_id from referral_rewards where referred_user_id = ? order by level', [newest.id]);
    expect(rows.map((r: Row) => [Number(r.level), Number(r.amount_cents), r.beneficiary_id])).toEqual(expected.map((c, i) => [i + 1, c, chain[7 - i]!.id]));

    // The top of the chain earned from gen1..gen7's sign-ups (levels 1..7), not from gen8's.
    const stats = referralStatsReply.parse((await chain[0]!.client.get('/api/referrals')).json);
    expect(stats).toMatchObject({
      referralCode: chain[0]!.code,
      referralLink: `${server.url}/?ref=${chain[0]!.code}`,
      totalReferrals: 1,
      activeReferrals: 0,
      pendingReferrals: 1,
      creditsEarnedDollars: 9.05,
      creditsValueDollars: 9.05,
    });
    expect(stats.byLevel.map((l) => [l.level, l.referrals, l.earnedDollars])).toEqual(expected.map((c, i) => [i + 1, 1, c / 100]));
    const raw = (await chain[0]!.client.get('/api/referrals')).json;
    expect(raw.creditsEarnedDollars).toBe('9.05');

    const balance = balanceReply.parse((await chain[0]!.client.get('/api/billing/balance')).json);
    expect(balance).toMatchObject({ referralCode: chain[0]!.code, totalReferrals: 1, referralEarningsDollars: 9.05, balanceCents: 1500 + 905 });
    const middle = balanceReply.parse((await chain[7]!.client.get('/api/billing/balance')).json);
    expect(middle).toMatchObject({ totalReferrals: 1, referralEarningsDollars: 5, balanceCents: 1500 + 1000 + 500 });
  }, 120_000);

  it('pays $15 up the chain when the referred user first builds, and never again', async () => {
    const server = await start();
    const top = await join(server, 'top');
    const referrer = await realJoin(server, 'referrer', top.code);
    const builder = await join(server, 'builder', referrer.code);
    const before = referralStatsReply.parse((await referrer.client.get('/api/referrals')).json);
    expect(before).toMatchObject({ totalReferrals: 1, activeReferrals: 0, pendingReferrals: 1 });

    // Built on the free credit alone: not yet a real user, so nothing is paid for it.
    await build(server, builder, 'A recipe tracker');
    expect((await rewardsFor(server, builder, 'first_build')).size).toBe(0);
    expect((await rewardsFor(server, builder, 'signup')).size).toBe(0);
    // Its first purchase pays both rewards at once.
    await real(server, builder);
    let paid = await rewardsFor(server, builder, 'first_build');
    expect(Object.fromEntries(paid)).toEqual({ [referrer.id]: 1500, [top.id]: 675 });

    await build(server, builder, 'A second idea');
    paid = await rewardsFor(server, builder, 'first_build');
    expect(Object.fromEntries(paid)).toEqual({ [referrer.id]: 1500, [top.id]: 675 });
    const [count] = await sql(server, `select count(*) as n from referral_rewards where event = 'first_build'`);
    expect(Number(count!.n)).toBe(2);

    const after = referralStatsReply.parse((await referrer.client.get('/api/referrals')).json);
    expect(after).toMatchObject({ totalReferrals: 1, activeReferrals: 1, pendingReferrals: 0, creditsEarnedDollars: 20 });
    const topStats = referralStatsReply.parse((await top.client.get('/api/referrals')).json);
    expect(topStats).toMatchObject({ totalReferrals: 1, activeReferrals: 0, creditsEarnedDollars: 5 + 2.25 + 6.75 });
    expect(topStats.byLevel.slice(0, 2)).toEqual([
      { level: 1, referrals: 1, earnedDollars: 5 },
      { level: 2, referrals: 1, earnedDollars: 9 },
    ]);

    // A user nobody referred builds: nothing is paid to anyone.
    await build(server, top, 'Unreferred build');
    const [all] = await sql(server, `select count(*) as n from ledger_entries where kind = 'referral_reward'`);
    expect(Number(all!.n)).toBe(2 + 1 + 2); // referrer's sign-up, builder's sign-up (2), first build (2)
  });

  it('ignores unknown and malformed codes and accepts a code in any case', async () => {
    const server = await start();
    const owner = await join(server, 'owner');
    for (const [name, code] of [['unknown', 'WPZZZZZZ'], ['malformed', 'not a code!'], ['numeric', 12345], ['empty', ''], ['long', 'WP'.repeat(100)], ['nulled', null]] as const) {
      const member = await join(server, name, code);
      expect(await referredBy(server, member), name).toBeNull();
    }
    const lower = await realJoin(server, 'lower', owner.code.toLowerCase());
    expect(await referredBy(server, lower)).toBe(owner.id);
    expect(referralStatsReply.parse((await owner.client.get('/api/referrals')).json).totalReferrals).toBe(1);
    expect((await rewardsFor(server, lower, 'signup')).get(owner.id)).toBe(500);
  }, 120_000);

  it('makes self-referral impossible: a code only ever refers a brand-new account to an older one', async () => {
    const server = await start();
    const alice = await join(server, 'alice');
    // Alice, signed in, registers again with her own code: that makes a new account (her referral),
    // never one referring itself, and her own referrer stays unset.
    const res = await alice.client.post('/api/auth/register', { username: 'alice2', password: PASSWORD, referralCode: alice.code });
    expect(res.status).toBe(201);
    const [second] = await sql(server, 'select id, referred_by, referral_code from users where username_key = ?', ['alice2']);
    expect(second!.referred_by).toBe(alice.id);
    expect(second!.referral_code).not.toBe(alice.code);
    expect(await referredBy(server, alice)).toBeNull();
    const [selfReferred] = await sql(server, 'select count(*) as n from users where referred_by = id');
    expect(Number(selfReferred!.n)).toBe(0);
    // Registering Alice's own name again (with her code) is refused, not a way to refer herself.
    const again = await new TestClient(server.url).post('/api/auth/register', { username: 'alice', password: PASSWORD, referralCode: alice.code });
    expect(again.status).toBe(409);
  });

  it('pays each reward once when a real user\'s rewards are settled many times at once', async () => {
    const server = await start();
    const referrer = await join(server, 'referrer');
    // Registered without the route, and built before buying: no reward has been paid yet.
    const auth = new AuthService(server.db.orm);
    const quiet = await auth.register({ username: 'quiet', password: PASSWORD, referralCode: referrer.code });
    const quietClient = new TestClient(server.url);
    expect((await quietClient.post('/api/auth/login', { username: 'quiet', password: PASSWORD })).status).toBe(200);
    await build(server, { client: quietClient }, 'A quiet build');
    expect((await rewardsFor(server, quiet, 'first_build')).size).toBe(0);
    // A purchase recorded without its webhook, so nothing has settled the rewards yet.
    const ledger = new LedgerService(server.db.orm);
    await ledger.post(quiet.id, { kind: 'top_up', amountCents: 1000, reference: `test-topup:${quiet.id}` });
    const referrals = new ReferralService(server.db.orm, ledger, { log: silentLogger });
    await Promise.all(Array.from({ length: 10 }, () => referrals.settle(quiet.id)));
    const paid = await rewardsFor(server, quiet, 'signup');
    expect(Object.fromEntries(paid)).toEqual({ [referrer.id]: 500 });
    const [rows] = await sql(server, 'select count(*) as n from referral_rewards where referred_user_id = ?', [quiet.id]);
    expect(Number(rows!.n)).toBe(2);
    expect(Object.fromEntries(await rewardsFor(server, quiet, 'first_build'))).toEqual({ [referrer.id]: 1500 });
    expect(balanceReply.parse((await referrer.client.get('/api/billing/balance')).json).balanceCents).toBe(1500 + 500 + 1500);
  });

  it('draws another code when a new code collides with an existing one', async () => {
    const server = await start();
    const taken = await join(server, 'taken');
    const codes = [taken.code, 'WPFRESH1'];
    const auth = new AuthService(server.db.orm, Date.now, () => codes.shift()!);
    const user = await auth.register({ username: 'collider', password: PASSWORD });
    const [row] = await sql(server, 'select referral_code from users where id = ?', [user.id]);
    expect(row!.referral_code).toBe('WPFRESH1');
  });

  it('gives an account made before codes existed its code on first read, and keeps it', async () => {
    const server = await start();
    const old = await join(server, 'old');
    await sql(server, 'update users set referral_code = null where id = ?', [old.id]);
    const first = subscriptionStatusReply.parse((await old.client.get('/api/subscription/status')).json);
    expect(first).toEqual({ referralCode: expect.stringMatching(/^WP[A-Z0-9]{6}$/), plan: 'Free', status: 'active' });
    const [second, third] = await Promise.all([old.client.get('/api/referrals'), old.client.get('/api/subscription/status')]);
    expect(second.json.referralCode).toBe(first.referralCode);
    expect(third.json.referralCode).toBe(first.referralCode);
    expect((await new TestClient(server.url).get('/api/referrals')).status).toBe(401);
    expect((await new TestClient(server.url).get('/api/subscription/status')).status).toBe(401);
  });

  it('skips closed accounts in the chain but still pays the generations above them', async () => {
    const server = await start();
    const a = await join(server, 'chain-a');
    const b = await join(server, 'chain-b', a.code);
    const c = await join(server, 'chain-c', b.code);
    expect((await b.client.request('DELETE', '/api/account')).status).toBe(200);
    const d = await realJoin(server, 'chain-d', c.code);
    expect(Object.fromEntries(await rewardsFor(server, d, 'signup'))).toEqual({ [c.id]: 500, [a.id]: 100 });
    // The closed account's code is gone: it refers nobody any more.
    const e = await join(server, 'chain-e', b.code);
    expect(await referredBy(server, e)).toBeNull();
  });

  it('tells a visitor whether a referral code is known (any case), without an account, a few dozen times a minute', async () => {
    const server = await start();
    const owner = await join(server, 'code-owner');
    const closing = await join(server, 'code-closing');
    expect((await closing.client.request('DELETE', '/api/account')).status).toBe(200);
    const visitor = new TestClient(server.url);
    const check = async (code: string) => {
      const res = await visitor.get(`/api/referrals/code/${encodeURIComponent(code)}`);
      return { status: res.status, json: res.json };
    };
    expect(referralCodeCheckReply.parse((await check(owner.code)).json)).toEqual({ valid: true });
    expect((await check(owner.code.toLowerCase())).json).toEqual({ valid: true });
    expect((await check('WPBOGUS1')).json).toEqual({ valid: false });
    // A closed account's code credits nobody, so it is not known either.
    expect((await check(closing.code)).json).toEqual({ valid: false });
    // Codes are "WP" plus 6 letters or digits: anything else is named as malformed, never looked up.
    const malformed = await check('WP-BOGUS');
    expect(malformed.status).toBe(400);
    expect(malformed.json).toMatchObject({ error: 'The invitation code "WP-BOGUS" is malformed: a referral code is WP followed by 6 letters or digits, such as WP4K7Q2Z.', code: 'BAD_REQUEST' });
    expect((await check('WP🙂🙂')).json).toMatchObject({ error: 'The invitation code "WP🙂🙂" is malformed: a referral code is WP followed by 6 letters or digits, such as WP4K7Q2Z.' });
    expect((await check('W'.repeat(300))).json).toMatchObject({ error: `The invitation code "${'W'.repeat(24)}…" (300 characters) is malformed: a referral code is WP followed by 6 letters or digits, such as WP4K7Q2Z.` });

    // 30 lookups a minute per address: the next one is refused with when to try again.
    const used = 7;
    for (let i = used; i < 30; i++) expect((await check('WPBOGUS1')).status).toBe(200);
    const refused = await visitor.get('/api/referrals/code/WPBOGUS1');
    expect(refused.status).toBe(429);
    expect(refused.json).toMatchObject({ code: 'TOO_MANY_REQUESTS' });
    expect(String(refused.json.error)).toMatch(/^Too many lookups from your address\. Try again in \d+ second\(s\)\.$/);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('takes back expired referral credit month by month, never below a zero balance', async () => {
    let now = new Date('2026-01-10T12:00:00Z');
    const clock = () => now;
    const server = await start({ clock });
    const referrer = await join(server, 'decay-referrer');
    await realJoin(server, 'decay-referred', referrer.code);
    const balance = async () => balanceReply.parse((await referrer.client.get('/api/billing/balance')).json);
    const decayEntries = async () =>
      (await sql(server, `select amount_cents, balance_after_cents from ledger_entries where user_id = ? and kind = 'referral_decay' order by id`, [referrer.id])).map((r: Row) => [
        Number(r.amount_cents),
        Number(r.balance_after_cents),
      ]);
    const decayed = async () => Number((await sql(server, 'select decayed_cents from referral_rewards where beneficiary_id = ?', [referrer.id]))[0]!.decayed_cents);
    const stats = async () => referralStatsReply.parse((await referrer.client.get('/api/referrals')).json);

    // Full value through 90 days active and the 30-day grace.
    now = new Date(now.getTime() + 149 * DAY_MS);
    await balance();
    expect(await decayEntries()).toEqual([]);
    expect((await stats()).creditsValueDollars).toBe(5);

    // Day 150: one month of decay, 10 % of $5. The balance was spent down to zero first, so
    // nothing can be taken back, yet the reward's value drops all the same.
    now = new Date(new Date('2026-01-10T12:00:00Z').getTime() + 150 * DAY_MS);
    const ledger = new LedgerService(server.db.orm, clock);
    await ledger.post(referrer.id, { kind: 'adjustment', amountCents: -1_000_000, reference: `test-spend:${referrer.id}` }, { clamp: true });
    expect((await balance()).balanceCents).toBe(0);
    expect(await decayEntries()).toEqual([]);
    expect(await decayed()).toBe(50);
    expect(await stats()).toMatchObject({ creditsEarnedDollars: 5, creditsValueDollars: 4.5 });

    // Day 300: six months of decay leave 264 of 500; the 186 more is taken from the new month's grant.
    now = new Date(new Date('2026-01-10T12:00:00Z').getTime() + 300 * DAY_MS);
    const later = await balance();
    expect(await decayEntries()).toEqual([[-186, later.balanceCents]]);
    expect(later.balanceCents).toBeGreaterThanOrEqual(0);
    expect(await decayed()).toBe(236);
    expect((await stats()).creditsValueDollars).toBe(2.64);

    // Asking again in the same month changes nothing, also when asked many times at once.
    await Promise.all([balance(), balance(), balance()]);
    expect(await decayEntries()).toHaveLength(1);
    expect((await balance()).balanceCents).toBe(later.balanceCents);
  });
});
