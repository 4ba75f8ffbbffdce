/**
 * Importing a project through the server: a zip as the body and a GitHub repository through the
 * fake GitHub (its zipball redirect to codeload), the hostile archives that must be refused whole
 * with nothing written, and who may see the result.
 */
import { randomBytes } from 'node:crypto';
import { strToU8, zipSync, type Zippable } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importReply, projectDetailReply, versionFilesReply, versionsReply } from '@wolfpack/core';
import { startFakeGithub, type FakeGithub } from '../testing/fake-github.js';
import { TestClient } from '../testing/http-client.js';
import { startTestServer, testDatabases, type TestServer } from '../testing/test-server.js';

/** A 1×1 PNG: binary (invalid UTF-8), under every limit. */
const PNG = Uint8Array.from(Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64'));

const zip = (entries: Record<string, string | Uint8Array | [Uint8Array, { attrs?: number; os?: number; level?: 0 | 9 }]>): Uint8Array => {
  const zippable: Zippable = {};
  for (const [name, value] of Object.entries(entries)) zippable[name] = typeof value === 'string' ? strToU8(value) : value;
  return zipSync(zippable);
};

let bomb: Uint8Array | undefined;

describe.each(testDatabases())('importing a project on %s', (kind) => {
  let github: FakeGithub;
  let server: TestServer;
  let alice: TestClient;
  let bob: TestClient;

  const upload = async (client: TestClient | null, body: Uint8Array | string, query = '', type = 'application/zip') => {
    const res = await fetch(`${server.url}/api/projects/import${query}`, {
      method: 'POST',
      headers: { 'content-type': type, ...(client ? { cookie: client.cookieHeader() } : {}) },
      body,
    });
    const text = await res.text();
    let json: Record<string, unknown> = {};
    try {
      json = JSON.parse(text) as Record<string, unknown>;
    } catch {
      // not JSON: the tests below look at the status
    }
    return { status: res.status, json };
  };
  const count = async (table: string) => Number((await server.db.orm.em.getConnection().execute(`select count(*)::int as n from ${table}`))[0]!.n);
  /** Every table an import writes: a refusal leaves all of them as they were. */
  const written = async () => ({ projects: await count('projects'), files: await count('project_files'), versions: await count('project_versions'), blobs: await count('project_blobs') });
  const filesOf = async (client: TestClient, id: string) => versionFilesReply.parse((await client.get(`/api/projects/${id}/versions/1`)).json).files;

  beforeAll(async () => {
    github = await startFakeGithub({ tokens: { ghp_good: 'octocat' } });
    server = await startTestServer(kind, { env: { GITHUB_API_URL: github.url } });
    alice = new TestClient(server.url);
    bob = new TestClient(server.url);
    await alice.post('/api/auth/register', { username: 'alice', password: 'correct-horse' });
    await bob.post('/api/auth/register', { username: 'bob', password: 'correct-horse' });
  });
  afterAll(async () => {
    await server?.dispose();
    await github?.close();
  });

  it('imports a zip as version 1 "Imported from NAME", without its top folder, dependencies, build output or binaries', async () => {
    const res = await upload(
      alice,
      zip({
        'my-app/': new Uint8Array(),
        'my-app/package.json': '{"name":"my-app"}\n',
        'my-app/src/index.ts': 'export const hello = "héllo";\n',
        'my-app/src/constructor': 'a file named like an object property\n',
        'my-app/node_modules/react/index.js': 'module.exports = {};\n',
        'my-app/.git/HEAD': 'ref: refs/heads/main\n',
        'my-app/dist/index.js': 'built\n',
        'my-app/public/logo.png': PNG,
        'my-app/.DS_Store': new Uint8Array([0, 0, 0, 1]),
        '__MACOSX/my-app/._index.ts': new Uint8Array([0, 5]),
      }),
      '?name=my-app.zip&idea=A%20greeting%20library',
    );
    expect(res.status).toBe(201);
    const reply = importReply.parse(res.json);
    expect(reply.version).toBe(1);
    expect(reply.project.idea).toBe('A greeting library');
    expect(reply.project.fileCount).toBe(3);
    expect(reply.skipped.map((s) => s.path).sort()).toEqual(['.DS_Store', '.git/', '__MACOSX/', 'dist/', 'node_modules/', 'public/logo.png']);
    expect(reply.skipped.find((s) => s.path === 'public/logo.png')!.reason).toMatch(/binary/);
    expect(reply.skipped.find((s) => s.path === 'node_modules/')!.reason).toMatch(/^node_modules\/ is not imported/);

    expect(await filesOf(alice, reply.project.id)).toEqual({
      'package.json': '{"name":"my-app"}\n',
      'src/constructor': 'a file named like an object property\n',
      'src/index.ts': 'export const hello = "héllo";\n',
    });
    const versions = versionsReply.parse((await alice.get(`/api/projects/${reply.project.id}/versions`)).json);
    expect(versions.current).toBe(1);
    expect(versions.versions).toHaveLength(1);
    expect(versions.versions[0]).toMatchObject({ number: 1, label: 'Imported from my-app.zip', source: { kind: 'import', origin: 'my-app.zip' }, runId: null, added: 3 });
    const detail = projectDetailReply.parse((await alice.get(`/api/projects/${reply.project.id}`)).json);
    expect(detail.files.sort()).toEqual(['package.json', 'src/constructor', 'src/index.ts']);
    expect(detail.version).toBe(1);
  });

  it('takes the idea from the README, else says where the project came from', async () => {
    const readme = '# Recipes\n\n[![CI](https://x/badge.svg)](https://x)\n\nKeep **recipes** and [shopping lists](https://x) in one place.\n';
    const withReadme = importReply.parse((await upload(alice, zip({ 'README.md': readme, 'index.html': '<h1>Recipes</h1>' }))).json);
    expect(withReadme.project.idea).toBe('Keep recipes and shopping lists in one place.');
    const plain = importReply.parse((await upload(alice, zip({ 'index.html': '<p>hi</p>' }))).json);
    expect(plain.project.idea).toBe('Imported from a zip file');
  });

  describe('refuses a hostile zip whole, naming the entry, and writes nothing', () => {
    const refused = async (body: Uint8Array, message: RegExp, status = 400) => {
      const before = await written();
      const res = await upload(alice, body);
      expect(res.status, JSON.stringify(res.json)).toBe(status);
      expect(String(res.json.error)).toMatch(message);
      expect(await written()).toEqual(before);
      return String(res.json.error);
    };

    it('an entry that leaves the folder: zip-slip, absolute paths, backslashes', async () => {
      await refused(zip({ 'a.txt': 'fine', '../evil.sh': 'rm -rf /' }), /"\.\.\/evil\.sh" contains "\.\." and would be unpacked outside the project.*Nothing was imported/);
      await refused(zip({ 'a.txt': 'fine', 'app/../../evil.sh': 'x' }), /"app\/\.\.\/\.\.\/evil\.sh"/);
      await refused(zip({ 'a.txt': 'fine', '/etc/cron.d/evil': 'x' }), /"\/etc\/cron\.d\/evil" is an absolute path/);
      await refused(zip({ 'a.txt': 'fine', 'C:\\Windows\\evil.bat': 'x' }), /"C:\\\\Windows\\\\evil\.bat" contains a backslash/);
      await refused(zip({ 'a.txt': 'fine', 'src/con.ts': 'x' }), /"src\/con\.ts" is not a safe file path: .*reserved device name/);
    });

    it('a symbolic link', async () => {
      const link: [Uint8Array, { os: number; attrs: number }] = [strToU8('/etc/passwd'), { os: 3, attrs: 0o120777 * 0x10000 }];
      await refused(zip({ 'a.txt': 'fine', 'passwords': link }), /"passwords" is a symbolic link/);
    });

    it('a zip bomb: 300 MB of zeros in one entry, refused after inflating no more than the limit', async () => {
      // Made once for both databases: deflating 300 MB takes a while.
      bomb ??= zipSync({ 'a.txt': strToU8('fine'), 'zeros.txt': [new Uint8Array(300 * 1024 * 1024), { level: 6 }] });
      expect(bomb.length).toBeLessThan(1024 * 1024);
      await refused(bomb, /"zeros\.txt" is over 1 MiB, the most one file of a project may hold/);
      // A small entry that expands like a bomb is refused for its ratio before it reaches the limit.
      await refused(zip({ 'a.txt': 'fine', 'small-bomb.txt': '0'.repeat(900 * 1024) }), /"small-bomb\.txt" expands more than 200 times its compressed size, as a zip bomb does/);
    }, 180_000);

    it('10,000 files', async () => {
      const entries: Zippable = {};
      for (let i = 0; i < 10_000; i++) entries[`src/file-${i}.ts`] = strToU8(`export const n = ${i};\n`);
      await refused(zipSync(entries, { level: 0 }), /more than 2,000 text files.*"src\/file-2000\.ts" is one too many/);
      const folders: Zippable = {};
      for (let i = 0; i <= 20_000; i++) folders[`d${i}/`] = new Uint8Array();
      await refused(zipSync(folders, { level: 0 }), /The zip lists 20,001 entries; an import may hold at most 20,000/);
    });

    it('a 50 MB binary file', async () => {
      const big = zipSync({ 'a.txt': strToU8('fine'), 'video.mp4': [randomBytes(50 * 1024 * 1024), { level: 0 }] });
      await refused(big, /"video\.mp4" is over 1 MiB, the most one file of a project may hold/);
    });

    it('a text file over 1 MiB, and text files over 20 MiB together', async () => {
      // Random hex: text that compresses about as little as source does, so no ratio rule fires first.
      const text = (bytes: number) => randomBytes(Math.ceil(bytes / 2)).toString('hex').slice(0, bytes);
      await refused(zip({ 'data.json': text(1024 * 1024 + 1) }), /"data\.json" is over 1 MiB/);
      const many: Record<string, string> = {};
      for (let i = 0; i < 21; i++) many[`data/part-${i}.txt`] = text(1024 * 1024 - 10);
      await refused(zipSync(Object.fromEntries(Object.entries(many).map(([k, v]) => [k, strToU8(v)])), { level: 0 }), /come to more than 20 MiB, the most a project may hold; "data\/part-20\.txt" goes over it/);
    });

    it('something that is not a zip, an empty body, a zip with no text files', async () => {
      await refused(strToU8('this is not a zip'), /The body is not a readable zip file/);
      await refused(new Uint8Array(), /The body is empty/);
      await refused(zip({ 'node_modules/x/index.js': 'x', 'logo.png': PNG }), /holds no text files to import \(2 left out: node_modules\/, logo\.png\)/);
    });

    it('a body over 64 MiB, with 413', async () => {
      const res = await upload(alice, new Uint8Array(64 * 1024 * 1024 + 1));
      expect(res.status).toBe(413);
      expect(String(res.json.error)).toMatch(/The zip is over 64 MiB/);
    });
  });

  it('imports a GitHub repository through its zipball, at the default branch or a ref', async () => {
    github.addRepo('octocat', 'hello-world', { 'README.md': '# Hello\n\nSays hello to the world.\n', 'index.js': 'console.log("hello");\n', 'node_modules/x/y.js': 'x' });
    const sha = github.addBranch('octocat', 'hello-world', 'v2', { 'index.js': 'console.log("v2");\n' });
    const noToken = await alice.post('/api/projects/import', { github: 'octocat/hello-world' });
    expect(noToken.status).toBe(400);
    expect(String(noToken.json.error)).toMatch(/Save a GitHub token in Settings first/);

    expect((await alice.request('PUT', '/api/settings/github', { token: 'ghp_good' })).status).toBe(200);
    const res = await alice.post('/api/projects/import', { github: 'octocat/hello-world' });
    expect(res.status, JSON.stringify(res.json)).toBe(201);
    const reply = importReply.parse(res.json);
    expect(reply.project.idea).toBe('Says hello to the world.');
    expect(reply.skipped).toEqual([{ path: 'node_modules/', reason: expect.stringMatching(/^node_modules\//) }]);
    expect(await filesOf(alice, reply.project.id)).toEqual({ 'README.md': '# Hello\n\nSays hello to the world.\n', 'index.js': 'console.log("hello");\n' });
    const versions = versionsReply.parse((await alice.get(`/api/projects/${reply.project.id}/versions`)).json);
    expect(versions.versions[0]!.label).toBe('Imported from github:octocat/hello-world@main');
    // GitHub answered with a redirect to codeload, which the import followed.
    expect(github.requests.some((r) => r.path === '/repos/octocat/hello-world/zipball/main' && r.status === 302)).toBe(true);

    const atRef = importReply.parse((await alice.post('/api/projects/import', { github: 'octocat/hello-world', ref: 'v2', idea: 'Version two' })).json);
    expect(atRef.project.idea).toBe('Version two');
    expect(await filesOf(alice, atRef.project.id)).toEqual({ 'index.js': 'console.log("v2");\n' });
    const atSha = importReply.parse((await alice.post('/api/projects/import', { github: 'octocat/hello-world', ref: sha.slice(0, 10) })).json);
    expect(versionsReply.parse((await alice.get(`/api/projects/${atSha.project.id}/versions`)).json).versions[0]!.label).toBe(`Imported from github:octocat/hello-world@${sha.slice(0, 10)}`);
  });

  it('names the repository or ref GitHub does not have, and writes nothing', async () => {
    const before = await written();
    const repo = await alice.post('/api/projects/import', { github: 'octocat/nope' });
    expect(repo.status).toBe(404);
    expect(String(repo.json.error)).toMatch(/GitHub has no repository octocat\/nope that your token can see/);
    const ref = await alice.post('/api/projects/import', { github: 'octocat/hello-world', ref: 'no-such-branch' });
    expect(ref.status).toBe(404);
    expect(String(ref.json.error)).toMatch(/octocat\/hello-world has no branch, tag or commit named "no-such-branch"/);
    github.failNext({ method: 'GET', path: /\/zipball\//, status: 403, body: { message: 'Resource not accessible by personal access token' } });
    const denied = await alice.post('/api/projects/import', { github: 'octocat/hello-world' });
    expect(denied.status).toBe(403);
    expect(String(denied.json.error)).toMatch(/GitHub refused to let your token read this repository/);
    const bad = await alice.post('/api/projects/import', { github: 'not a repo' });
    expect(bad.status).toBe(400);
    expect(String(bad.json.error)).toMatch(/github must be OWNER\/REPO/);
    expect(await written()).toEqual(before);
  });

  it('reads the repository with a token sent in X-GitHub-Token instead of the saved one', async () => {
    const sent = await bob.post('/api/projects/import', { github: 'octocat/hello-world' }, { 'X-GitHub-Token': 'ghp_good' });
    expect(sent.status, JSON.stringify(sent.json)).toBe(201);
    const bad = await bob.post('/api/projects/import', { github: 'octocat/hello-world' }, { 'X-GitHub-Token': 'ghp_wrong' });
    expect(bad.status).toBe(400);
    expect(String(bad.json.error)).toMatch(/GitHub rejected the token/);
    await bob.request('DELETE', `/api/projects/${importReply.parse(sent.json).project.id}`);
  });

  it('refuses other content types with 415 and a visitor with 401', async () => {
    const text = await upload(alice, 'hello', '', 'text/plain');
    expect(text.status).toBe(415);
    expect(String(text.json.error)).toMatch(/Content-Type: application\/zip.*Content-Type: application\/json/);
    expect((await upload(null, zip({ 'a.txt': 'x' }))).status).toBe(401);
    const other = await upload(alice, zip({ 'a.txt': 'x' }), '?name=a.zip', 'application/x-zip-compressed');
    expect(other.status).toBe(201);
  });

  it('shows an import to its owner only', async () => {
    const mine = importReply.parse((await upload(alice, zip({ 'secret.txt': 'alice only' }), '?name=private.zip')).json);
    expect((await bob.get(`/api/projects/${mine.project.id}`)).status).toBe(404);
    expect((await bob.get(`/api/projects/${mine.project.id}/versions/1`)).status).toBe(404);
    const bobs = importReply.parse((await upload(bob, zip({ 'b.txt': 'bob' }))).json);
    const list = (await bob.get('/api/projects')).json as { projects: Array<{ id: string }> };
    expect(list.projects.map((p) => p.id)).toEqual([bobs.project.id]);
  });
});
