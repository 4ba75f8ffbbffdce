/**
 * Every route × every kind of caller: a visitor, the admin secret without a session, another
 * signed-in user, and the owner of the resources the route names. The route list comes from the
 * server's own routers, so a new route fails this test until it says who may call it.
 *
 * What it proves: a visitor gets 401 wherever an account is needed; another user never reads or
 * changes the owner's project, run, folder, listing, capsule, experiment or key (403/404, and the
 * owner's requests afterwards still find everything as the owner left it); the admin secret opens
 * the admin metrics and nothing else; and no caller ever gets a 500.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capsulesReply, folderReply, listingReply, newApiTokenReply, njinKeyCreatedReply, startExperimentReply } from '@wolfpack/core';
import { TestClient } from '../testing/http-client.js';
import { readEvents } from '../testing/sse-client.js';
import { startTestServer, testDatabases, type TestServer } from '../testing/test-server.js';

const ADMIN_SECRET = 'matrix-admin-secret-0123456789';

type Caller = 'visitor' | 'admin' | 'other' | 'owner';

/** The owner's resources, put into paths and bodies. */
interface Ids {
  projectId: string;
  runId: string;
  folderId: string;
  listingId: string;
  capsuleId: string;
  capsuleSlug: string;
  experimentId: string;
  keyId: string;
  apiKey: string;
  apiTokenId: string;
  previewToken: string;
}

interface RouteCase {
  /** Statuses each caller may get; `owner` defaults to `other`, `admin` to `visitor`. */
  visitor: number[];
  other: number[];
  owner?: number[];
  admin?: number[];
  body?: (ids: Ids, caller: Caller) => unknown;
  headers?: (ids: Ids, caller: Caller) => Record<string, string>;
  /**
   * Runs after the caller's other requests, in this order: 1 deletes one of the owner's resources,
   * 2 closes the account, 3 ends the session, 4 signs in as somebody else.
   */
  last?: 1 | 2 | 3 | 4;
}

const NEED_ACCOUNT = [401];
const HIDDEN = [403, 404];
const OK = [200, 201, 204];

/** Who may call what. Keys are `METHOD path` exactly as the routers declare them. */
const MATRIX: Record<string, RouteCase> = {
  'GET /api/health': { visitor: [200], other: [200] },
  'POST /api/auth/register': { visitor: [201], other: [201], body: (_, who) => ({ username: `fresh-${who}-${Date.now()}`, password: 'correct-horse' }), last: 4 },
  'POST /api/auth/login': { visitor: [401], other: [401], body: () => ({ username: 'nobody-at-all', password: 'wrong-password' }) },
  'POST /api/auth/logout': { visitor: [200, 204], other: [200, 204], last: 3 },
  'GET /api/auth/me': { visitor: [200, 401], other: [200] },
  // The CLI's sign-in: credentials, not a session.
  'POST /api/auth/tokens': { visitor: [401], other: [401], body: () => ({ username: 'nobody-at-all', password: 'wrong-password' }) },
  'DELETE /api/auth/tokens/current': { visitor: [400, 401], other: [400, 401], last: 3 },
  // Named personal access tokens: each user sees and revokes their own only.
  'GET /api/tokens': { visitor: NEED_ACCOUNT, other: [200] },
  'POST /api/tokens': { visitor: NEED_ACCOUNT, other: [201], body: () => ({ name: 'matrix' }) },
  'DELETE /api/tokens/:id': { visitor: NEED_ACCOUNT, other: [404], owner: [204], last: 1 },
  // The CLI's npm tarball is public, like the CLI.
  'GET /cli/wolfpack-cli.tgz': { visitor: [200], other: [200] },

  // Starting builds and enhancements is covered elsewhere; an empty body shows who gets past authentication.
  'POST /api/wolfpack/stream': { visitor: NEED_ACCOUNT, other: [400], body: () => ({}) },
  // An estimate of a run that continues a project reads the project's files: the owner's only.
  'POST /api/wolfpack/estimate': { visitor: NEED_ACCOUNT, other: HIDDEN, owner: [200], body: (ids) => ({ idea: 'A todo list', projectId: ids.projectId }) },
  'GET /api/wolfpack/runs/:id': { visitor: NEED_ACCOUNT, other: HIDDEN, owner: [200] },
  'GET /api/wolfpack/runs/:id/events': { visitor: NEED_ACCOUNT, other: HIDDEN, owner: [200] },
  'POST /api/wolfpack/runs/:id/resume': { visitor: NEED_ACCOUNT, other: HIDDEN, owner: [409] },
  'POST /api/multi-pass-enhancements': { visitor: NEED_ACCOUNT, other: [400], body: () => ({}) },
  'GET /api/projects/:id/prompt-history': { visitor: NEED_ACCOUNT, other: HIDDEN, owner: [200] },

  'GET /api/engines': { visitor: NEED_ACCOUNT, other: [200] },
  'GET /api/stats': { visitor: NEED_ACCOUNT, other: [200] },
  'GET /api/conversations': { visitor: NEED_ACCOUNT, other: [200] },
  'GET /api/projects': { visitor: NEED_ACCOUNT, other: [200] },
  'GET /api/projects/:id': { visitor: NEED_ACCOUNT, other: HIDDEN, owner: [200] },
  'GET /api/projects/:id/verification': { visitor: NEED_ACCOUNT, other: HIDDEN, owner: [200] },
  'POST /api/projects/:id/verification': { visitor: NEED_ACCOUNT, other: HIDDEN, owner: [200], body: () => ({}) },
  // The owner's project was built on a server without a sandbox: not proven, so nothing to repair.
  'POST /api/projects/:id/repair': { visitor: NEED_ACCOUNT, other: HIDDEN, owner: [409], body: () => ({}) },
  'DELETE /api/projects/:id': { visitor: NEED_ACCOUNT, other: HIDDEN, owner: OK, last: 1 },
  'PUT /api/projects/:id/folder': { visitor: NEED_ACCOUNT, other: HIDDEN, owner: OK, body: (ids) => ({ folderId: ids.folderId }) },
  'GET /api/projects/:id/export': { visitor: NEED_ACCOUNT, other: HIDDEN, owner: [200] },
  'GET /api/projects/:id/versions': { visitor: NEED_ACCOUNT, other: HIDDEN, owner: [200] },
  'GET /api/projects/:id/versions/:n': { visitor: NEED_ACCOUNT, other: HIDDEN, owner: [200] },
  'GET /api/projects/:id/versions/:n/diff': { visitor: NEED_ACCOUNT, other: HIDDEN, owner: [200] },
  // Version 1 is current until the owner's edit below makes version 2; the order of the two is not fixed.
  'POST /api/projects/:id/versions/:n/restore': { visitor: NEED_ACCOUNT, other: HIDDEN, owner: [201, 409], body: () => ({}) },
  'PUT /api/projects/:id/files/*path': { visitor: NEED_ACCOUNT, other: HIDDEN, owner: [201, 409], body: () => ({ content: 'Written by the matrix.\n', expectedVersion: 1 }) },
  'DELETE /api/projects/:id/files/*path': { visitor: NEED_ACCOUNT, other: HIDDEN, owner: [200, 404, 409] },
  // The caller's own account: without a saved GitHub token the import is refused with a sentence.
  'POST /api/projects/import': { visitor: NEED_ACCOUNT, other: [400], body: () => ({ github: 'octocat/hello-world' }) },
  'GET /api/projects/:id/preview': { visitor: NEED_ACCOUNT, other: HIDDEN, owner: [200] },
  'POST /api/projects/:id/preview/revoke': { visitor: NEED_ACCOUNT, other: HIDDEN, owner: [200] },
  'GET /api/projects/:id/replit-code': { visitor: NEED_ACCOUNT, other: HIDDEN, owner: [200] },

  'GET /api/folders': { visitor: NEED_ACCOUNT, other: [200] },
  'POST /api/folders': { visitor: NEED_ACCOUNT, other: [201], body: (_, who) => ({ name: `Folder of ${who}` }) },
  'PUT /api/folders/:id': { visitor: NEED_ACCOUNT, other: HIDDEN, owner: [200], body: (_, who) => ({ name: `Renamed by ${who}` }) },
  'DELETE /api/folders/:id': { visitor: NEED_ACCOUNT, other: HIDDEN, owner: OK, last: 1 },
  'GET /api/folders/:id/projects': { visitor: NEED_ACCOUNT, other: HIDDEN, owner: [200] },

  // The owner has no GitHub token: refused with a sentence, after the ownership check.
  'POST /api/projects/:id/publish-to-github': { visitor: NEED_ACCOUNT, other: HIDDEN, owner: [400, 409, 412, 422], body: () => ({ repoName: 'matrix-repo' }) },
  'GET /api/settings/github': { visitor: NEED_ACCOUNT, other: [200] },
  // An empty token is refused before GitHub is asked (no network here).
  'PUT /api/settings/github': { visitor: NEED_ACCOUNT, other: [400], body: () => ({ token: '' }) },
  'DELETE /api/settings/github': { visitor: NEED_ACCOUNT, other: OK },

  'GET /preview/:id': { visitor: NEED_ACCOUNT, other: HIDDEN, owner: [302] },
  // A link of the old form is sent on to the preview's origin, which checks its token.
  'GET /preview/:id/:token{/*path}': { visitor: [302], other: [302] },

  'GET /api/billing/balance': { visitor: NEED_ACCOUNT, other: [200] },
  'GET /api/billing/history': { visitor: NEED_ACCOUNT, other: [200] },
  'GET /api/billing/ledger': { visitor: NEED_ACCOUNT, other: [200] },
  'GET /api/billing/packs': { visitor: [200], other: [200] },
  // No Stripe keys on this server.
  'POST /api/billing/top-up': { visitor: NEED_ACCOUNT, other: [503], body: () => ({ amountDollars: 10 }) },
  'POST /api/billing/webhook': { visitor: [400, 503], other: [400, 503], body: () => ({ type: 'checkout.session.completed' }) },

  'GET /api/listings': { visitor: [200], other: [200] },
  'GET /api/listings/draft': { visitor: NEED_ACCOUNT, other: HIDDEN, owner: [200] },
  'GET /api/listings/:id': { visitor: [200], other: [200] },
  'GET /api/listings/:id/cover': { visitor: [200], other: [200] },
  'POST /api/listings': { visitor: NEED_ACCOUNT, other: HIDDEN, owner: [201], body: (ids) => ({ projectId: ids.projectId, title: 'Again', summary: 'Another listing of the project.', visibility: 'free' }) },
  'PUT /api/listings/:id': { visitor: NEED_ACCOUNT, other: HIDDEN, owner: [200], body: (_, who) => ({ title: `Title by ${who}` }) },
  'DELETE /api/listings/:id': { visitor: NEED_ACCOUNT, other: HIDDEN, owner: OK, last: 1 },
  // Anyone signed in may take a free listing; its seller cannot buy their own.
  'POST /api/listings/:id/purchase': { visitor: NEED_ACCOUNT, other: [200, 201], owner: [400, 409] },

  'GET /api/capsules/user/my-capsules': { visitor: NEED_ACCOUNT, other: [200] },
  'GET /api/capsules/discover/trending': { visitor: [200], other: [200] },
  'GET /api/capsules/discover/latest': { visitor: [200], other: [200] },
  'POST /api/capsules/:id/publish': { visitor: NEED_ACCOUNT, other: HIDDEN, owner: [200], body: () => ({ isPublic: false }) },
  // The capsule stays private: to anyone but its owner it does not exist.
  'POST /api/capsules/:id/share': { visitor: HIDDEN, other: HIDDEN, owner: [200], body: () => ({ shareMethod: 'copy' }) },
  'GET /api/capsules/:slug': { visitor: HIDDEN, other: HIDDEN, owner: [200] },

  'GET /api/njin/license': { visitor: NEED_ACCOUNT, other: [200] },
  'POST /api/njin/validate': { visitor: [200], other: [200], body: (ids) => ({ apiKey: ids.apiKey }) },
  // Fills the key it is given into examples: nothing of anybody's.
  'GET /api/njin/snippet': { visitor: [200], other: [200] },
  'POST /api/njin/subscribe': { visitor: NEED_ACCOUNT, other: [503] },
  'POST /api/njin/cancel': { visitor: NEED_ACCOUNT, other: [404] },
  'POST /api/njin/keys': { visitor: NEED_ACCOUNT, other: [201] },
  'GET /api/njin/keys': { visitor: NEED_ACCOUNT, other: [200] },
  'DELETE /api/njin/keys/:id': { visitor: NEED_ACCOUNT, other: HIDDEN, owner: OK, last: 1 },
  // A session is not a key; the owner's key works (no licence: 402).
  'POST /api/njin/iterate': {
    visitor: NEED_ACCOUNT,
    other: NEED_ACCOUNT,
    owner: [402],
    body: () => ({ files: { 'a.ts': 'export const a = 1;\n' }, instruction: 'Rename a to b.' }),
    headers: (ids, who): Record<string, string> => (who === 'owner' ? { authorization: `Bearer ${ids.apiKey}` } : {}),
  },

  'GET /api/experiments': { visitor: NEED_ACCOUNT, other: [200] },
  'POST /api/experiments/start': { visitor: NEED_ACCOUNT, other: [400], body: () => ({}) },
  'GET /api/experiments/:id': { visitor: NEED_ACCOUNT, other: HIDDEN, owner: [200] },
  'POST /api/experiments/:id/replit-start': { visitor: NEED_ACCOUNT, other: HIDDEN, owner: [200] },
  'POST /api/experiments/:id/replit-complete': { visitor: NEED_ACCOUNT, other: HIDDEN, owner: [200] },
  'POST /api/experiments/:id/submit-costs': {
    visitor: NEED_ACCOUNT,
    other: HIDDEN,
    owner: [200],
    body: () => ({ wolfpackReplitAssemblyCostCents: 100, replitOnlyCostCents: 900 }),
  },

  'GET /api/admin/metrics': { visitor: [401], other: [401], admin: [200] },
  // The operator grants the owner a licence, then revokes it (before the owner's own requests).
  'PUT /api/admin/njin-licences/:username': { visitor: [401], other: [401], admin: [200], body: () => ({ until: '2099-12-31' }) },
  'DELETE /api/admin/njin-licences/:username': { visitor: [401], other: [401], admin: [200] },
  'GET /api/referrals': { visitor: NEED_ACCOUNT, other: [200] },
  // Public: the sign-up form asks before saying "invited by a friend".
  'GET /api/referrals/code/:code': { visitor: [200], other: [200] },
  'GET /api/subscription/status': { visitor: NEED_ACCOUNT, other: [200] },
  'GET /api/account': { visitor: NEED_ACCOUNT, other: [200] },
  'DELETE /api/account': { visitor: NEED_ACCOUNT, other: OK, last: 2 },
  // After the account was closed (last: 2), so signed out already; what it does is preview-routes.int.test.ts's.
  'POST /api/account/sign-out-everywhere': { visitor: NEED_ACCOUNT, other: NEED_ACCOUNT, last: 3 },
  'GET /api/savings': { visitor: NEED_ACCOUNT, other: [200] },
};

/** The route's path with the owner's ids in it. */
function fill(path: string, ids: Ids): string {
  const byParam: Record<string, string> = {
    '/api/wolfpack/runs/:id': ids.runId,
    '/api/projects/:id': ids.projectId,
    '/preview/:id': ids.projectId,
    '/api/folders/:id': ids.folderId,
    '/api/listings/:id': ids.listingId,
    '/api/capsules/:id': ids.capsuleId,
    '/api/experiments/:id': ids.experimentId,
    '/api/njin/keys/:id': ids.keyId,
    '/api/tokens/:id': ids.apiTokenId,
  };
  let filled = path;
  for (const [prefix, id] of Object.entries(byParam)) {
    if (filled === prefix || filled.startsWith(`${prefix}/`)) {
      filled = prefix.replace(':id', id) + filled.slice(prefix.length);
      break;
    }
  }
  filled = filled.replace(':token', ids.previewToken).replace('{/*path}', '/index.html').replace(':slug', ids.capsuleSlug);
  if (filled === '/api/listings/draft') filled += `?projectId=${ids.projectId}`;
  if (filled === '/api/njin/snippet') filled += `?apiKey=${ids.apiKey}`;
  filled = filled.replace(/:n(?=\/|$)/, '1');
  // DELETE and PUT name the same file; DELETE's expected version is in its query.
  filled = filled.replace('*path', 'matrix-notes.md');
  if (filled.endsWith('/files/matrix-notes.md')) filled += '?expectedVersion=1';
  filled = filled.replace(':username', 'matrix-owner');
  filled = filled.replace(':code', 'WPBOGUS1');
  return filled;
}

describe.each(testDatabases())('authorization matrix on %s', (kind) => {
  let server: TestServer;
  const clients = {} as Record<Caller, TestClient>;
  let ids: Ids;

  beforeAll(async () => {
    server = await startTestServer(kind, { env: { WOLFPACK_ADMIN_SECRET: ADMIN_SECRET } });
    clients.visitor = new TestClient(server.url);
    clients.admin = new TestClient(server.url);
    for (const who of ['owner', 'other'] as const) {
      clients[who] = new TestClient(server.url);
      expect((await clients[who].post('/api/auth/register', { username: `matrix-${who}`, password: 'correct-horse' })).status).toBe(201);
    }
    const owner = clients.owner;
    const { events } = await readEvents(`${server.url}/api/wolfpack/stream`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: owner.cookieHeader() },
      body: JSON.stringify({ idea: 'Matrix notes\nA small notes app.', modelOrder: [], cycles: 1 }),
    });
    const first = events[0]!.event;
    const last = events.at(-1)!.event;
    if (first.type !== 'run' || last.type !== 'complete') throw new Error('the setup run did not complete');
    const projectId = last.projectId;
    const folder = folderReply.parse((await owner.post('/api/folders', { name: 'Owner folder' })).json).folder;
    const listingRes = await owner.post('/api/listings', { projectId, title: 'Owner listing', summary: 'The owner lists a project.', visibility: 'free' });
    expect(listingRes.status, listingRes.text).toBe(201);
    const capsule = capsulesReply.parse((await owner.get('/api/capsules/user/my-capsules')).json).capsules[0]!;
    const experimentRes = await owner.post('/api/experiments/start', { projectName: 'Matrix', testPrompt: 'A notes app' });
    expect(experimentRes.status, experimentRes.text).toBeLessThan(300);
    const keyRes = await owner.post('/api/njin/keys');
    expect(keyRes.status, keyRes.text).toBe(201);
    const key = njinKeyCreatedReply.parse(keyRes.json);
    const apiTokenRes = await owner.post('/api/tokens', { name: 'owner-ci' });
    expect(apiTokenRes.status, apiTokenRes.text).toBe(201);
    const preview = await fetch(`${server.url}/preview/${projectId}`, { headers: { cookie: owner.cookieHeader() }, redirect: 'manual' });
    const token = new URL(preview.headers.get('location') ?? '', server.url).searchParams.get('token');
    if (!token) throw new Error(`no preview link: ${preview.status} ${preview.headers.get('location')}`);
    ids = {
      projectId,
      runId: first.runId,
      folderId: folder.id,
      listingId: listingReply.parse(listingRes.json).listing.id,
      capsuleId: capsule.id,
      capsuleSlug: capsule.slug,
      experimentId: startExperimentReply.parse(experimentRes.json).experimentId,
      keyId: key.id,
      apiKey: key.apiKey,
      apiTokenId: newApiTokenReply.parse(apiTokenRes.json).apiToken.id,
      previewToken: token,
    };
  }, 120_000);
  afterAll(() => server?.dispose());

  it('has an entry for every route the server serves, and none for a route it does not', () => {
    const served = server.routes.map((r) => `${r.method} ${r.path}`).sort();
    expect(served).toEqual(Object.keys(MATRIX).sort());
  });

  /** One request as `who`; an event stream is only opened (its status is what counts). */
  async function call(who: Caller, route: string): Promise<{ status: number; text: string }> {
    const entry = MATRIX[route]!;
    const [method, path] = route.split(' ') as [string, string];
    const body = entry.body?.(ids, who);
    const headers: Record<string, string> = {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(clients[who].cookieHeader() ? { cookie: clients[who].cookieHeader() } : {}),
      ...(who === 'admin' ? { 'x-admin-secret': ADMIN_SECRET } : {}),
      ...entry.headers?.(ids, who),
    };
    const controller = new AbortController();
    const res = await fetch(`${server.url}${fill(path, ids)}`, {
      method,
      headers,
      redirect: 'manual',
      signal: controller.signal,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (res.headers.get('content-type')?.startsWith('text/event-stream')) {
      controller.abort();
      return { status: res.status, text: '(event stream)' };
    }
    return { status: res.status, text: (await res.text()).slice(0, 300) };
  }

  it('answers every caller of every route as the matrix says, and never 500', async () => {
    const routes = Object.keys(MATRIX);
    const ordered = [...routes].sort((a, b) => (MATRIX[a]!.last ?? 0) - (MATRIX[b]!.last ?? 0));
    const wrong: string[] = [];
    // Strangers first, so the owner's requests afterwards show that nothing of theirs was touched.
    for (const who of ['visitor', 'admin', 'other', 'owner'] as const) {
      for (const route of ordered) {
        const entry = MATRIX[route]!;
        const expected = who === 'owner' ? (entry.owner ?? entry.other) : who === 'admin' ? (entry.admin ?? entry.visitor) : entry[who];
        const { status, text } = await call(who, route);
        if (!expected.includes(status)) wrong.push(`${who} ${route}: ${status} (expected ${expected.join('/')}) ${text}`);
      }
    }
    expect(wrong).toEqual([]);
  }, 180_000);
});
