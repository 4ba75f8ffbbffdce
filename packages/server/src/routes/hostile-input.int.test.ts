/**
 * Hostile input against every route the routers serve, generated with fast-check: any JSON body,
 * any path parameter and query string, bodies that are not JSON, too big or nested absurdly deep.
 * The server must answer each with a sentence (4xx), never a 500, and stay up for the next one.
 * Requests come from a signed-in user, so they get past authentication into the parsing and the
 * services; routes that end the session or the account are left out (the matrix test has them).
 */
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppRoute } from '../app.js';
import { ProjectService } from '../services/projects/project-service.js';
import { TestClient } from '../testing/http-client.js';
import { startTestServer, testDatabases, type TestServer } from '../testing/test-server.js';

/** Routes that would sign the fuzzing user out, switch it or close its account. */
const SESSION_CHANGING = new Set(['POST /api/auth/register', 'POST /api/auth/login', 'POST /api/auth/logout', 'DELETE /api/auth/tokens/current', 'DELETE /api/account', 'POST /api/account/sign-out-everywhere']);
const RUNS = Number(process.env.WOLFPACK_FUZZ_RUNS ?? 150);

/** Path parameters as an attacker would send them: traversal, NULs, unicode, huge, or a real id. */
const hostileSegment = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom('..', '../..', '.', '%', '%00', '\u0000', 'null', 'undefined', '-1', '1e309', 'NaN', ' ', '\u202e', 'ＡＢＣ', '{}', '[]', '__proto__', 'constructor'),
  fc.string({ minLength: 2000, maxLength: 5000 }),
  fc.uuid(),
);

const hostileQuery = fc.dictionary(fc.constantFrom('q', 'page', 'pageSize', 'sort', 'type', 'projectId', 'apiKey', 'userId', 'limit', 'v', '__proto__'), fc.oneof(fc.string({ unit: 'binary', maxLength: 30 }), fc.constantFrom('-1', '0', '1e9', 'NaN', '9'.repeat(40), '')));

describe.each(testDatabases())('hostile input on %s', (kind) => {
  let server: TestServer;
  let client: TestClient;
  let projectId: string;
  let routes: AppRoute[];

  beforeAll(async () => {
    server = await startTestServer(kind);
    client = new TestClient(server.url);
    const username = `fuzzer-${kind}`;
    expect((await client.post('/api/auth/register', { username, password: 'correct-horse' })).status).toBe(201);
    const [row] = await (server.db.orm.em.fork() as unknown as { execute(sql: string, params: unknown[]): Promise<Array<{ id: string }>> }).execute('select id from users where username = ?', [username]);
    const userId = row!.id;
    projectId = await new ProjectService(server.db.orm).saveRunResult({
      userId,
      conversationId: randomUUID(),
      idea: 'Fuzz target\nA project to aim at.',
      projectId: null,
      files: { 'index.html': '<!doctype html><p>hi</p>\n', 'src/app.ts': 'export const a = 1;\n' },
      processingMs: 1,
      costMillicents: 0,
    });
    routes = server.routes.filter((r) => !SESSION_CHANGING.has(`${r.method} ${r.path}`));
  }, 60_000);
  afterAll(() => server?.dispose());

  /** The route's path with each parameter replaced by `segment(name)`, URL-encoded. */
  const pathOf = (route: AppRoute, segment: (name: string) => string) =>
    route.path.replace(/\{\*(\w+)\}|:(\w+)/g, (_, wild: string | undefined, name: string | undefined) => encodeURIComponent(segment(wild ?? name ?? '')));

  async function send(route: AppRoute, path: string, init: { body?: string; contentType?: string; query?: Record<string, string> } = {}): Promise<{ status: number; text: string }> {
    const query = init.query && Object.keys(init.query).length > 0 ? `?${new URLSearchParams(init.query).toString()}` : '';
    const controller = new AbortController();
    const res = await fetch(`${server.url}${path}${query}`, {
      method: route.method,
      headers: { cookie: client.cookieHeader(), ...(init.body === undefined ? {} : { 'content-type': init.contentType ?? 'application/json' }) },
      redirect: 'manual',
      signal: controller.signal,
      ...(init.body === undefined || route.method === 'GET' ? {} : { body: init.body }),
    });
    if (res.headers.get('content-type')?.startsWith('text/event-stream')) {
      controller.abort();
      return { status: res.status, text: '(event stream)' };
    }
    return { status: res.status, text: (await res.text()).slice(0, 200) };
  }

  const expectHandled = (route: AppRoute, reply: { status: number; text: string }) => {
    // 503 is this server saying what it lacks (no Stripe keys here), with a sentence: not a failure.
    const unavailable = reply.status === 503 && reply.text.includes('"code":"SERVICE_UNAVAILABLE"');
    if (!unavailable) expect(reply.status, `${route.method} ${route.path}: ${reply.text}`).toBeLessThan(500);
    // An API refusal is a sentence the client can show, not an empty page or a stack trace.
    if (reply.status >= 400 && route.path.startsWith('/api/')) expect(reply.text, `${route.method} ${route.path}`).toMatch(/"error":"[^"]+/);
  };

  it('answers any JSON body on any route without a 500', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 10_000 }), fc.jsonValue({ maxDepth: 4 }), fc.boolean(), async (pick, body, ownProject) => {
        const route = routes[pick % routes.length]!;
        const path = pathOf(route, (name) => (name === 'id' && ownProject ? projectId : randomUUID()));
        expectHandled(route, await send(route, path, { body: JSON.stringify(body) }));
      }),
      { numRuns: RUNS * 2 },
    );
  }, 180_000);

  it('answers hostile path parameters and query strings on every route without a 500', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 10_000 }), hostileSegment, hostileQuery, async (pick, segment, query) => {
        const route = routes[pick % routes.length]!;
        expectHandled(route, await send(route, pathOf(route, () => segment), { query }));
      }),
      { numRuns: RUNS * 2 },
    );
  }, 180_000);

  it('refuses bodies that are not JSON, too big or nested too deep with a sentence, and stays up', async () => {
    const writes = routes.filter((r) => r.method !== 'GET');
    const bodies: Array<{ body: string; contentType?: string }> = [
      { body: '{"idea": "unterminated' },
      { body: "{'single': 'quotes'}" },
      { body: 'idea=a&cycles=1', contentType: 'application/x-www-form-urlencoded' },
      { body: '<xml/>', contentType: 'text/xml' },
      { body: `${'['.repeat(100_000)}${']'.repeat(100_000)}` },
      { body: JSON.stringify({ idea: 'x'.repeat(3_000_000) }) },
      { body: '\u0000\u0001\u0002' },
    ];
    for (const route of writes) {
      for (const { body, contentType } of bodies) {
        const path = pathOf(route, () => projectId);
        expectHandled(route, await send(route, path, { body, ...(contentType ? { contentType } : {}) }));
      }
    }
    expect((await client.get('/api/health')).status).toBe(200);
    // Still the same user, still signed in.
    expect((await client.get('/api/projects')).status).toBe(200);
  }, 180_000);
});
