import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { njinIterateReply, njinKeyCreatedReply, njinNoPassingReply, type ChatMessage } from '@wolfpack/core';
import { startFakeOpenAIServer, type OpenAIFakeServer } from '@wolfpack/core/engines/testing';
import { TestClient } from '../testing/http-client.js';
import { startTestServer, testDatabases, type TestServer } from '../testing/test-server.js';
import type { Sql } from '../db/plain-sql.js';

const FILES = {
  'src/math.js': 'export function add(a, b) {\n  return a + b;\n}\n',
  'src/index.js': "import { add } from './math.js';\n\nconsole.log(add(1, 2));\n",
};
const GOOD = '```js src/math.js\nexport function add(a, b) {\n  return a + b;\n}\n\nexport function subtract(a, b) {\n  return a - b;\n}\n```\n';
const BROKEN_SYNTAX = '```js src/math.js\nexport function add(a, b) {\n  return a + b;\n}\n\nexport function subtract(a, b) {\n  return a - ;\n}\n```\n';
const BROKEN_IMPORT = "```js src/index.js\nimport { add } from './math.js';\nimport { subtract } from './subtract.js';\n\nconsole.log(add(1, 2), subtract(3, 1));\n```\n";

/** Three scripted engines behind one fake: the model name says how each one proposes. */
function scriptedEngines(answers: Record<string, string>): Promise<OpenAIFakeServer> {
  return startFakeOpenAIServer({
    fallback: (request) => {
      const body = request.body as { model: string; messages: ChatMessage[] };
      const system = String(body.messages.find((m) => m.role === 'system')?.content ?? '');
      if (system.includes('VOTE')) {
        // Every voter picks the first proposal on its ballot: with one passing candidate it is that one.
        return { kind: 'stream', deltas: ['Looks right.\nVOTE: A'] };
      }
      return { kind: 'stream', deltas: [answers[body.model] ?? GOOD] };
    },
  });
}

const engineEnv = (fake: OpenAIFakeServer, models: string[]) => ({
  WOLFPACK_ENGINES: JSON.stringify(models.map((model, i) => ({ key: `engine${i}`, provider: 'openai', model, baseURL: fake.baseURL, apiKey: 'sk-test', pricePer1kTokensCents: 2 }))),
});

describe.each(testDatabases())('njin iteration API on %s', (kind) => {
  let fake: OpenAIFakeServer;
  let server: TestServer;
  let users = 0;
  beforeAll(async () => {
    fake = await scriptedEngines({ good: GOOD, syntax: BROKEN_SYNTAX, import: BROKEN_IMPORT, syntax2: BROKEN_SYNTAX });
    server = await startTestServer(kind, { env: engineEnv(fake, ['syntax', 'good', 'import']) });
  });
  afterAll(async () => {
    await server?.dispose();
    await fake?.close();
  });
  const sql = <T = Array<Record<string, unknown>>>(text: string, params: unknown[] = []) => (server.db.orm.em.fork() as Sql).execute<T>(text, params);

  async function keyHolder(licensed = true): Promise<{ client: TestClient; userId: string; apiKey: string }> {
    const client = new TestClient(server.url);
    const username = `iterator${(users += 1)}`;
    expect((await client.post('/api/auth/register', { username, password: 'correct-horse' })).status).toBe(201);
    const [row] = await sql<Array<{ id: string }>>('select id from users where username = ?', [username]);
    if (licensed) {
      await sql(`insert into njin_licences (user_id, status, current_period_end, cancel_at_period_end, usage_count, created_at, updated_at) values (?, 'active', ?, false, 0, now(), now())`, [row!.id, new Date(Date.now() + 86_400_000)]);
    }
    const { apiKey } = njinKeyCreatedReply.parse((await client.post('/api/njin/keys')).json);
    return { client, userId: row!.id, apiKey };
  }
  const iterate = (apiKey: string | null, body: unknown) =>
    new TestClient(server.url).post('/api/njin/iterate', body, apiKey === null ? {} : { Authorization: `Bearer ${apiKey}` });
  const request = { files: FILES, instruction: 'Add a subtract(a, b) function to src/math.js', mode: 'consensus' };

  it('refuses a missing, mistyped or unknown key with 401, and a key without a licence with 402', async () => {
    const { apiKey } = await keyHolder(false);
    expect((await iterate(null, request)).status).toBe(401);
    const typo = `${apiKey.slice(0, -1)}${apiKey.endsWith('a') ? 'b' : 'a'}`;
    const mistyped = await iterate(typo, request);
    expect(mistyped.status).toBe(401);
    expect(mistyped.json.error).toMatch(/typo/);
    const noLicence = await iterate(apiKey, request);
    expect(noLicence.status).toBe(402);
    expect(noLicence.json.error).toMatch(/no active njin licence/);
  });

  it('answers the one patch that passes the checks, counts it, records usage and a private capsule, moves no credits', async () => {
    const { userId, apiKey } = await keyHolder();
    const res = await iterate(apiKey, request);
    expect(res.status, res.text).toBe(200);
    const reply = njinIterateReply.parse(res.json);
    expect(reply.mode).toBe('consensus');
    expect(reply.patch).toContain('+export function subtract(a, b) {');
    expect(reply.files['src/math.js']).toContain('return a - b;');
    expect(reply.candidates.map((c) => c.passed)).toEqual([false, true, false]);
    expect(reply.candidates[0]!.failedChecks.length).toBeGreaterThan(0);
    expect(reply.candidates[2]!.failedChecks.length).toBeGreaterThan(0);
    expect(reply.usageCount).toBe(1);
    // Generic labels only: never an engine key or a vendor key.
    expect(JSON.stringify(reply)).not.toMatch(/engine[0-9]|sk-test/);
    const usage = await sql<Array<{ purpose: string; billed_cents: number }>>('select purpose, billed_cents from engine_usage where user_id = ?', [userId]);
    expect(usage.length).toBeGreaterThanOrEqual(3);
    expect(usage.every((u) => u.purpose === 'njin' && Number(u.billed_cents) === 0)).toBe(true);
    const spent = await sql<Array<{ n: number }>>(`select count(*)::int as n from ledger_entries where user_id = ? and kind = 'engine_usage'`, [userId]);
    expect(Number(spent[0]!.n)).toBe(0);
    const capsules = await sql<Array<{ is_public: boolean; final_code: string }>>('select is_public, final_code from capsules where user_id = ?', [userId]);
    expect(capsules).toHaveLength(1);
    expect(capsules[0]!.is_public).toBe(false);
    expect(capsules[0]!.final_code).toContain('subtract');
    const [key] = await sql<Array<{ usage_count: number }>>('select usage_count from njin_api_keys where user_id = ?', [userId]);
    expect(Number(key!.usage_count)).toBe(1);
  });

  it('answers 422 with every candidate and why it failed when none passes', async () => {
    const broken = await scriptedEngines({ syntax: BROKEN_SYNTAX, import: BROKEN_IMPORT, syntax2: BROKEN_SYNTAX });
    const other = await startTestServer(kind, { env: engineEnv(broken, ['syntax', 'import', 'syntax2']) });
    try {
      const client = new TestClient(other.url);
      expect((await client.post('/api/auth/register', { username: 'allbroken', password: 'correct-horse' })).status).toBe(201);
      const [row] = await (other.db.orm.em.fork() as Sql).execute<Array<{ id: string }>>(`select id from users where username = 'allbroken'`);
      await (other.db.orm.em.fork() as Sql).execute(`insert into njin_licences (user_id, status, current_period_end, cancel_at_period_end, usage_count, created_at, updated_at) values (?, 'active', ?, false, 0, now(), now())`, [row!.id, new Date(Date.now() + 86_400_000)]);
      const { apiKey } = njinKeyCreatedReply.parse((await client.post('/api/njin/keys')).json);
      const res = await new TestClient(other.url).post('/api/njin/iterate', request, { Authorization: `Bearer ${apiKey}` });
      expect(res.status, res.text).toBe(422);
      const reply = njinNoPassingReply.parse(res.json);
      expect(reply.candidates).toHaveLength(3);
      expect(reply.candidates.every((c) => !c.passed && c.failedChecks.length > 0)).toBe(true);
    } finally {
      await other.dispose();
      await broken.close();
    }
  });

  it('rate limits each key: the 11th call in a minute is a 429 with Retry-After; another key is not affected', async () => {
    const { apiKey } = await keyHolder();
    // An invalid body still spends a token: the limit is checked before the body is read.
    for (let i = 0; i < 10; i += 1) expect((await iterate(apiKey, { files: {} })).status).toBe(400);
    const limited = await iterate(apiKey, { files: {} });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(limited.json.error).toMatch(/Wait \d+ s/);
    const other = await keyHolder();
    expect((await iterate(other.apiKey, { files: {} })).status).toBe(400);
  });
});
