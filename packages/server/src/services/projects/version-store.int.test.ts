/**
 * VersionStore against the real database (PGlite and PostgreSQL): every change of a project's
 * files is a version stored by content, older versions stay readable, a stale or busy change is
 * a 409 that says what to do, and a restore of checked files keeps Proven Code's verdict.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectDetailReply, type AppError, type VerificationRecord } from '@wolfpack/core';
import { plainSql } from '../../db/plain-sql.js';
import { versionFiles } from '../../db/version-files.js';
import { TestClient } from '../../testing/http-client.js';
import { startTestServer, testDatabases, type TestServer } from '../../testing/test-server.js';
import { ProjectService } from './project-service.js';
import { VersionStore } from './version-store.js';

const record = (version: number): VerificationRecord => ({
  version,
  createdAt: new Date().toISOString(),
  verdict: 'passed',
  proven: '2 files checked',
  notProven: '',
  executed: false,
  coveredFiles: ['a.txt'],
  uncoveredFiles: [],
  checks: [],
});

async function failure(promise: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await promise;
  } catch (error) {
    return { code: (error as AppError).code, message: (error as AppError).message };
  }
  throw new Error('expected the call to fail');
}

describe.each(testDatabases())('VersionStore on %s', (kind) => {
  let server: TestServer;
  let store: VersionStore;
  let ann: string;
  let bob: string;
  const sql = () => plainSql(server.db.orm.em.fork());
  const count = async (query: string, params: unknown[]) => Number((await sql().execute<Array<{ n: number }>>(query, params))[0]!.n);

  beforeAll(async () => {
    server = await startTestServer(kind);
    store = new VersionStore(server.db.orm);
    [ann, bob] = [randomUUID(), randomUUID()];
    for (const [id, name] of [[ann, 'ann'], [bob, 'bob']] as const) {
      await sql().execute(`insert into users (id, username, username_key, password_hash, created_at) values (?, ?, ?, 'x', now())`, [id, name, name]);
    }
  });
  afterAll(() => server?.dispose());

  it('imports a project as version 1 and makes each edit a version, every one still readable', async () => {
    const project = await store.createProject(ann, 'An imported app', { 'a.txt': 'one', 'b.txt': 'bee' }, { kind: 'import', origin: 'app.zip' });
    expect(project).toMatchObject({ idea: 'An imported app', fileCount: 2, sessionCount: 0, folderId: null });
    const em = server.db.orm.em.fork();
    expect(await versionFiles(em, project.id, 1)).toEqual({ 'a.txt': 'one', 'b.txt': 'bee' });

    const edited = await store.commit(ann, project.id, { kind: 'edit' }, (files) => ({ ...files, 'b.txt': 'bee 2', 'c.txt': 'sea' }), 1);
    expect(edited).toEqual({
      version: { number: 2, createdAt: expect.any(String), source: { kind: 'edit' }, label: 'Edited by you', runId: null, verdict: null, fileCount: 3, added: 1, changed: 1, removed: 0, current: true },
      verification: null,
    });
    const removed = await store.commit(ann, project.id, { kind: 'edit' }, ({ 'a.txt': a, 'c.txt': c }) => ({ 'a.txt': a!, 'c.txt': c! }));
    expect(removed.version).toMatchObject({ number: 3, added: 0, changed: 0, removed: 1, fileCount: 2 });

    expect(await versionFiles(em, project.id, 1)).toEqual({ 'a.txt': 'one', 'b.txt': 'bee' });
    expect(await versionFiles(em, project.id, 2)).toEqual({ 'a.txt': 'one', 'b.txt': 'bee 2', 'c.txt': 'sea' });
    expect(await versionFiles(em, project.id, 3)).toEqual({ 'a.txt': 'one', 'c.txt': 'sea' });
    // The working copy and the project's figures are the current version's.
    expect(await new ProjectService(server.db.orm).files(ann, project.id)).toEqual({ 'a.txt': 'one', 'c.txt': 'sea' });
    const [row] = await sql().execute<Array<{ version: number; file_count: number; total_bytes: string | number }>>('select version, file_count, total_bytes from projects where id = ?', [project.id]);
    expect({ ...row, total_bytes: Number(row!.total_bytes) }).toEqual({ version: 3, file_count: 2, total_bytes: 6 });
    // Each content once: one, bee, bee 2, sea; each version only what it changed: 2 + 2 + 1 rows.
    expect(await count('select count(*)::int as n from project_blobs where project_id = ?', [project.id])).toBe(4);
    expect(await count('select count(*)::int as n from project_version_changes where project_id = ?', [project.id])).toBe(5);
    expect(await count('select count(*)::int as n from project_versions where project_id = ?', [project.id])).toBe(3);
  });

  it('refuses a change made on an older version, one that changes nothing, and one while a run works on the project', async () => {
    const project = await store.createProject(ann, 'Stale', { 'a.txt': 'one' }, { kind: 'import', origin: 'github:octo/app@main' });
    await store.commit(ann, project.id, { kind: 'edit' }, () => ({ 'a.txt': 'two' }));
    expect(await failure(store.commit(ann, project.id, { kind: 'edit' }, () => ({ 'a.txt': 'three' }), 1))).toEqual({
      code: 'CONFLICT',
      message: 'This project changed since you opened it: it is at version 2 now (Edited by you). Reload it to see that version, then make your change again.',
    });
    expect(await failure(store.commit(ann, project.id, { kind: 'edit' }, (files) => ({ ...files }), 2))).toEqual({
      code: 'BAD_REQUEST',
      message: 'Nothing changed: the files are the same as version 2.',
    });
    const run = randomUUID();
    await sql().execute(
      `insert into conversations (id, user_id, idea, model_order, cycles, attachments, project_id, status, stages, created_at, updated_at)
       values (?, ?, 'more', '[]', 1, '[]', ?, 'running', '[]', now(), now())`,
      [run, ann, project.id],
    );
    expect(await failure(store.commit(ann, project.id, { kind: 'edit' }, () => ({ 'a.txt': 'four' }), 2))).toEqual({
      code: 'CONFLICT',
      message: 'A run is changing this project now. Wait for it to end, then try again.',
    });
    await sql().execute(`update conversations set status = 'completed' where id = ?`, [run]);
    expect((await store.commit(ann, project.id, { kind: 'edit' }, () => ({ 'a.txt': 'four' }), 2)).version.number).toBe(3);
  });

  it('lets one of two changes made on the same version through and tells the other which version won', async () => {
    const project = await store.createProject(ann, 'Race', { 'a.txt': 'one' }, { kind: 'import', origin: 'race.zip' });
    const results = await Promise.allSettled([
      store.commit(ann, project.id, { kind: 'edit' }, () => ({ 'a.txt': 'left' }), 1),
      store.commit(ann, project.id, { kind: 'restore', from: 1 }, () => ({ 'a.txt': 'right' }), 1),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const refused = results.find((r) => r.status === 'rejected')!.reason as AppError;
    expect(refused.code).toBe('CONFLICT');
    expect(refused.message).toMatch(/it is at version 2 now \((Edited by you|Restored from version 1)\)/);
  });

  it('is a 404 for another user’s project and for ids that name no project; nothing is written', async () => {
    const project = await store.createProject(ann, 'Mine', { 'a.txt': 'one' }, { kind: 'import', origin: 'mine.zip' });
    for (const [user, id] of [[bob, project.id], [ann, randomUUID()], [ann, 'not-a-uuid']] as const) {
      expect(await failure(store.commit(user, id, { kind: 'edit' }, () => ({ 'a.txt': 'theirs' })))).toEqual({ code: 'NOT_FOUND', message: 'Project not found' });
    }
    expect(await versionFiles(server.db.orm.em.fork(), project.id, 1)).toEqual({ 'a.txt': 'one' });
    expect(await count('select count(*)::int as n from project_versions where project_id = ?', [project.id])).toBe(1);
  });

  it('refuses unsafe paths and files over the limits with what to do', async () => {
    const project = await store.createProject(ann, 'Limits', { 'a.txt': 'one' }, { kind: 'import', origin: 'limits.zip' });
    const refused = (files: Record<string, string>) => failure(store.commit(ann, project.id, { kind: 'edit' }, () => files));
    expect(await refused({ '../escape.txt': 'x' })).toMatchObject({ code: 'BAD_REQUEST', message: expect.stringContaining('would leave the project folder') });
    expect(await refused({ './a.txt': 'x' })).toMatchObject({ code: 'BAD_REQUEST', message: expect.stringContaining('write it as "a.txt"') });
    expect(await refused({ 'big.txt': 'x'.repeat(1024 * 1024 + 1) })).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', message: expect.stringContaining('a file may be at most 1 MiB') });
    const many = Object.fromEntries(Array.from({ length: 2001 }, (_, i) => [`f${i}.txt`, 'x']));
    expect(await refused(many)).toMatchObject({ code: 'BAD_REQUEST', message: expect.stringContaining('at most 2,000 files; this would make it 2,001') });
    const huge = Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`f${i}.txt`, 'x'.repeat(1024 * 1024)]));
    expect(await refused(huge)).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', message: expect.stringContaining('at most 20 MiB') });
    expect(await failure(store.createProject(ann, 'Bad', { '/etc/passwd': 'x' }, { kind: 'import', origin: 'bad.zip' }))).toMatchObject({ code: 'BAD_REQUEST' });
    expect(await count('select count(*)::int as n from project_versions where project_id = ?', [project.id])).toBe(1);
  });

  it('restoring files Proven Code checked brings its verdict to the new version', async () => {
    const project = await store.createProject(ann, 'Checked', { 'a.txt': 'one' }, { kind: 'import', origin: 'checked.zip' });
    await sql().execute('insert into project_verifications (project_id, version, verdict, record) values (?, 1, ?, ?::jsonb)', [project.id, 'passed', JSON.stringify(record(1))]);
    const edited = await store.commit(ann, project.id, { kind: 'edit' }, () => ({ 'a.txt': 'broken' }));
    expect(edited.verification).toBeNull();
    const restored = await store.commit(ann, project.id, { kind: 'restore', from: 1 }, () => ({ 'a.txt': 'one' }), 2);
    expect(restored.version).toMatchObject({ number: 3, label: 'Restored from version 1', verdict: 'passed', changed: 1 });
    expect(restored.verification).toMatchObject({ version: 3, verdict: 'passed', proven: '2 files checked' });
    const stored = await sql().execute<Array<{ version: number; verdict: string }>>('select version, verdict from project_verifications where project_id = ? order by version', [project.id]);
    expect(stored).toEqual([{ version: 1, verdict: 'passed' }, { version: 3, verdict: 'passed' }]);
    // Bringing back "one" stored nothing new.
    expect(await count('select count(*)::int as n from project_blobs where project_id = ?', [project.id])).toBe(2);
  });

  it('stores the versions runs make: a build, a Continue and a repair, each with its run', async () => {
    const projects = new ProjectService(server.db.orm);
    const [build, cont, repair] = [randomUUID(), randomUUID(), randomUUID()];
    const base = { userId: ann, processingMs: 1, costMillicents: 0 };
    const id = await projects.saveRunResult({ ...base, conversationId: build, idea: 'A todo app', projectId: null, files: { 'index.html': '<p>todo</p>' } });
    await projects.saveRunResult({ ...base, conversationId: cont, idea: 'Add dark mode', projectId: id, files: { 'index.html': '<p>todo</p>', 'dark.css': 'body{}' } });
    await projects.saveRunResult({ ...base, conversationId: repair, idea: 'A todo app', projectId: id, files: { 'index.html': '<p>todo!</p>', 'dark.css': 'body{}' }, source: { kind: 'repair' } });
    const rows = await sql().execute<Array<{ version: number; conversation_id: string; source: unknown; added: number; changed: number; removed: number }>>(
      'select version, conversation_id, source, added, changed, removed from project_versions where project_id = ? order by version',
      [id],
    );
    expect(rows.map((r) => ({ ...r, source: typeof r.source === 'string' ? JSON.parse(r.source) : r.source }))).toEqual([
      { version: 1, conversation_id: build, source: { kind: 'build' }, added: 1, changed: 0, removed: 0 },
      { version: 2, conversation_id: cont, source: { kind: 'continue', idea: 'Add dark mode' }, added: 1, changed: 0, removed: 0 },
      { version: 3, conversation_id: repair, source: { kind: 'repair' }, added: 0, changed: 1, removed: 0 },
    ]);
    expect(await versionFiles(server.db.orm.em.fork(), id, 1)).toEqual({ 'index.html': '<p>todo</p>' });
    // An edit after the runs goes on from the run's version.
    expect((await store.commit(ann, id, { kind: 'edit' }, (files) => ({ ...files, 'dark.css': 'body{color:#fff}' }), 3)).version).toMatchObject({ number: 4, changed: 1 });
  });

  it('a project whose files were never stored as a version (a showcase copy) gets its current version stored first', async () => {
    const id = randomUUID();
    await sql().execute(
      `insert into projects (id, user_id, idea, file_count, total_bytes, version, session_count, total_processing_time_ms, total_cost_millicents, created_at, updated_at)
       values (?, ?, 'Bought', 1, 3, 1, 0, 0, 0, now(), now())`,
      [id, ann],
    );
    await sql().execute(`insert into project_files (project_id, path, content, size) values (?, 'a.txt', 'one', 3)`, [id]);
    const next = await store.commit(ann, id, { kind: 'edit' }, () => ({ 'a.txt': 'two' }), 1);
    expect(next.version).toMatchObject({ number: 2, changed: 1, added: 0 });
    expect(await versionFiles(server.db.orm.em.fork(), id, 1)).toEqual({ 'a.txt': 'one' });
    expect(await versionFiles(server.db.orm.em.fork(), id, 2)).toEqual({ 'a.txt': 'two' });
  });

  it('GET /api/projects/:id carries the current version number', async () => {
    const client = new TestClient(server.url);
    expect((await client.post('/api/auth/register', { username: `carol-${kind}`, password: 'correct-horse' })).status).toBe(201);
    const [carol] = await sql().execute<Array<{ id: string }>>('select id from users where username = ?', [`carol-${kind}`]);
    const project = await store.createProject(carol!.id, 'Numbered', { 'a.txt': 'one' }, { kind: 'import', origin: 'n.zip' });
    await store.commit(carol!.id, project.id, { kind: 'edit' }, () => ({ 'a.txt': 'two' }));
    const reply = await client.get(`/api/projects/${project.id}`);
    expect(reply.status).toBe(200);
    const detail = projectDetailReply.parse(reply.json);
    expect(detail.version).toBe(2);
    expect(detail.project.fsIndex).toEqual({ 'a.txt': 'two' });
  });
});
