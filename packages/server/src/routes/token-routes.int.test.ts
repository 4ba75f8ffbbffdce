/**
 * Named personal access tokens (Settings → API tokens, `wolfpack tokens`): made by a signed-in
 * user, shown once, stored as a hash, listed with their dates, revoked at once; a refused token's
 * 401 says whether it is unknown, revoked or expired. And GET /cli/wolfpack-cli.tgz.
 */
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiTokensReply, newApiTokenReply } from '@wolfpack/core';
import { plainSql } from '../db/plain-sql.js';
import { CliTarball } from '../services/operations/cli-tarball.js';
import { TestClient } from '../testing/http-client.js';
import { startTestServer, testDatabases, type TestServer } from '../testing/test-server.js';

const DAY_MS = 86_400_000;

describe.each(testDatabases())('API tokens on %s', (kind) => {
  let server: TestServer;
  let owner: TestClient;

  beforeAll(async () => {
    server = await startTestServer(kind);
    owner = new TestClient(server.url);
    expect((await owner.post('/api/auth/register', { username: `tokens-${kind}`, password: 'correct-horse' })).status).toBe(201);
  });
  afterAll(() => server?.close());

  const as = (token: string) => new TestClient(server.url, { authorization: `Bearer ${token}` });
  const sql = <T>(text: string, params: unknown[] = []) => plainSql(server.db.orm.em.fork()).execute<T>(text, params);

  it('makes a named token that is shown once, kept as a hash, listed with its dates and revoked at once', async () => {
    const before = Date.now();
    const created = await owner.post('/api/tokens', { name: 'github-actions', expiresInDays: 30 });
    expect(created.status, created.text).toBe(201);
    expect(created.headers.get('cache-control')).toBe('no-store');
    const { token, apiToken } = newApiTokenReply.parse(created.json);
    expect(token).toMatch(/^wpk_[A-Za-z0-9_-]{43}$/);
    expect(apiToken).toMatchObject({ name: 'github-actions', lastUsedAt: null, current: false });
    const expires = Date.parse(apiToken.expiresAt!);
    expect(expires).toBeGreaterThanOrEqual(before + 30 * DAY_MS);
    expect(expires).toBeLessThanOrEqual(Date.now() + 30 * DAY_MS);

    // Only the SHA-256 is stored: the token is in no column of its row.
    const [row] = await sql<Array<Record<string, unknown>>>('select * from api_tokens where id = ?', [apiToken.id]);
    expect(JSON.stringify(row)).not.toContain(token.slice(4));
    expect(row!.token_hash).toMatch(/^[0-9a-f]{64}$/);

    // The token signs requests in; its use is recorded, and the list shows it without the token.
    expect((await as(token).get('/api/auth/me')).json).toMatchObject({ user: { username: `tokens-${kind}` } });
    const listed = apiTokensReply.parse((await as(token).get('/api/tokens')).json).tokens;
    const mine = listed.find((entry) => entry.id === apiToken.id)!;
    expect(mine).toMatchObject({ name: 'github-actions', current: true, expiresAt: apiToken.expiresAt });
    expect(mine.lastUsedAt).not.toBeNull();
    expect(JSON.stringify(listed)).not.toContain(token);

    // Another user can neither see nor revoke it.
    const other = new TestClient(server.url);
    expect((await other.post('/api/auth/register', { username: `tokens-other-${kind}`, password: 'correct-horse' })).status).toBe(201);
    expect(apiTokensReply.parse((await other.get('/api/tokens')).json).tokens).toEqual([]);
    expect((await other.request('DELETE', `/api/tokens/${apiToken.id}`)).status).toBe(404);
    expect((await as(token).get('/api/auth/me')).status).toBe(200);

    expect((await owner.request('DELETE', `/api/tokens/${apiToken.id}`)).status).toBe(204);
    const refused = await as(token).get('/api/projects');
    expect(refused.status).toBe(401);
    expect(refused.json.error).toBe('The API token was revoked. Create a new one under API tokens in Settings, or run `wolfpack login` again.');
    expect(apiTokensReply.parse((await owner.get('/api/tokens')).json).tokens.map((entry) => entry.id)).not.toContain(apiToken.id);
    expect((await owner.request('DELETE', `/api/tokens/${apiToken.id}`)).status).toBe(404);
  });

  it('says when a token expired, and when it is unknown', async () => {
    const { token, apiToken } = newApiTokenReply.parse((await owner.post('/api/tokens', { name: 'short-lived', expiresInDays: 1 })).json);
    expect((await as(token).get('/api/auth/me')).status).toBe(200);
    await sql(`update api_tokens set expires_at = ? where id = ?`, [new Date('2026-01-02T03:04:05Z'), apiToken.id]);
    const expired = await as(token).get('/api/auth/me');
    expect(expired.status).toBe(401);
    expect(expired.json.error).toBe('The API token expired on 2026-01-02. Create a new one under API tokens in Settings, or run `wolfpack login` again.');
    // Still listed, so its owner sees why CI stopped working.
    expect(apiTokensReply.parse((await owner.get('/api/tokens')).json).tokens.find((entry) => entry.id === apiToken.id)?.expiresAt).toBe('2026-01-02T03:04:05.000Z');

    for (const unknown of [`${token}x`, 'wpk_nothing', 'ghp_notours']) {
      const reply = await as(unknown).get('/api/auth/me');
      expect(reply.status).toBe(401);
      expect(reply.json.error).toMatch(/^The API token is unknown to this server: check that it was copied whole/);
    }
  });

  it('refuses a nameless token and a bad expiry with a sentence', async () => {
    const nameless = await owner.post('/api/tokens', { name: '  ' });
    expect(nameless.status).toBe(400);
    expect(nameless.json.error).toContain('Give the token a name');
    for (const expiresInDays of [0, 366, 1.5, '7']) {
      const reply = await owner.post('/api/tokens', { name: 'x', expiresInDays });
      expect(reply.status, JSON.stringify(expiresInDays)).toBe(400);
    }
    const never = newApiTokenReply.parse((await owner.post('/api/tokens', { name: 'forever', expiresInDays: null })).json);
    expect(never.apiToken.expiresAt).toBeNull();
  });

  it('serves the CLI tarball of its own version', async () => {
    const res = await fetch(`${server.url}/cli/wolfpack-cli.tgz`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/gzip');
    const files = untar(gunzipSync(Buffer.from(await res.arrayBuffer())));
    const { version } = JSON.parse(await readFile(new URL('../../../cli/package.json', import.meta.url), 'utf8')) as { version: string };
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="wolfpack-cli-${version}.tgz"`);
    expect(files.has('package/dist/bin.js')).toBe(true);
    const manifest = JSON.parse(files.get('package/package.json')!) as Record<string, unknown>;
    // Installable anywhere: nothing from the workspace, no dependencies to fetch.
    expect(manifest).toMatchObject({ name: '@wolfpack/cli', version, bin: { wolfpack: './dist/bin.js' } });
    expect(manifest.dependencies).toBeUndefined();
  });
});

describe('the CLI tarball where it cannot be had', () => {
  it('says that it is missing and what to run, without trying to build from nothing', async () => {
    const root = await mkdtemp(join(tmpdir(), 'wolfpack-no-cli-'));
    try {
      await mkdir(join(root, 'packages', 'cli'), { recursive: true });
      await writeFile(join(root, 'packages', 'cli', 'package.json'), '{"version":"9.9.9"}');
      await expect(new CliTarball({ root }).file()).rejects.toThrow(
        "This server has no CLI tarball (this install has no packages/cli/scripts/pack.mjs to build it with). Run `pnpm pack:cli` in the server's Wolfpack repository, then try again.",
      );
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});

/** The files of a tar archive by name (ustar: 512-byte headers, sizes in octal). */
function untar(archive: Buffer): Map<string, string> {
  const files = new Map<string, string>();
  for (let offset = 0; offset + 512 <= archive.length; ) {
    const name = archive.toString('utf8', offset, offset + 100).replace(/\0.*$/s, '');
    if (name === '') break;
    const size = parseInt(archive.toString('utf8', offset + 124, offset + 136).replace(/\0.*$/s, '').trim() || '0', 8);
    files.set(name, archive.toString('utf8', offset + 512, offset + 512 + size));
    offset += 512 + Math.ceil(size / 512) * 512;
  }
  return files;
}
