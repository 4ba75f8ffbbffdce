/**
 * `wolfpack projects ls` and `folders ls` with more projects than one page of GET /api/projects
 * holds (200): the CLI reads every page in the server's order, stops at --limit, finds a project
 * by the start of its id on any page, and counts folders without listing their projects.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunningServer } from '@wolfpack/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginCli, runCli, testServerBasics, type CliResult } from './testing/cli-harness.js';

const PASSWORD = 'correct-horse-battery';
const PROJECTS = 450;

interface Listed {
  id: string;
  title: string;
  folderId: string | null;
}

let server: RunningServer;
let home: string;
let dataDir: string;
/** Newest first, as the server lists them. */
const newestFirst: string[] = [];
let folderId: string;

function wolfpack(args: string[]): Promise<CliResult> {
  return runCli(args, { env: { HOME: home, WOLFPACK_CONFIG: join(home, 'config.json'), WOLFPACK_URL: server.url } });
}

function json<T>(result: CliResult): T {
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as T;
}

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'wolfpack-cli-paging-'));
  dataDir = await mkdtemp(join(tmpdir(), 'wolfpack-cli-paging-server-'));
  const { startServer } = await import('@wolfpack/server');
  server = await startServer({ ...(await testServerBasics(dataDir)), port: 0, host: '127.0.0.1', quiet: true, webDir: false, env: {} });
  await loginCli(server.url, 'pager', PASSWORD, { HOME: home, WOLFPACK_CONFIG: join(home, 'config.json') });
  const sql = server.db.orm.em.fork() as unknown as { execute<T>(sql: string, params?: unknown[]): Promise<T> };
  const [user] = await sql.execute<Array<{ id: string }>>(`select id from users where username = 'pager'`);
  folderId = randomUUID();
  await sql.execute(`insert into folders (id, user_id, name, parent_folder_id, created_at) values (?, ?, 'Archive', null, now())`, [folderId, user!.id]);
  const ids = Array.from({ length: PROJECTS }, () => randomUUID());
  // Project i was updated i minutes ago; every third one is in the folder.
  await sql.execute(
    `insert into projects (id, user_id, idea, file_count, folder_id, total_bytes, created_at, updated_at)
     select (?::uuid[])[g], ?, 'Project ' || lpad(g::text, 3, '0'), 1, case when g % 3 = 0 then ?::uuid else null end, 0,
            now() - g * interval '1 minute', now() - g * interval '1 minute'
     from generate_series(1, ?) g`,
    [`{${ids.join(',')}}`, user!.id, folderId, PROJECTS],
  );
  newestFirst.push(...ids);
}, 120_000);

afterAll(async () => {
  await server?.close();
  await rm(home, { recursive: true, force: true });
  await rm(dataDir, { recursive: true, force: true });
});

describe('projects beyond one page', () => {
  it('lists every project, page after page, in the server’s order', async () => {
    const listed = json<{ projects: Listed[] }>(await wolfpack(['projects', 'ls', '--json'])).projects;
    expect(listed.map((p) => p.id)).toEqual(newestFirst);
    const oldest = json<{ projects: Listed[] }>(await wolfpack(['projects', 'ls', '--sort', 'oldest', '--json'])).projects;
    expect(oldest.map((p) => p.id)).toEqual([...newestFirst].reverse());
    const byName = json<{ projects: Listed[] }>(await wolfpack(['projects', 'ls', '--sort', 'z-a', '--json'])).projects;
    expect(byName.map((p) => p.title)).toEqual(newestFirst.map((_, i) => `Project ${String(i + 1).padStart(3, '0')}`).reverse());
  });

  it('stops at --limit, and refuses one that is not a whole number from 1', async () => {
    const first = json<{ projects: Listed[] }>(await wolfpack(['projects', 'ls', '--limit', '250', '--json'])).projects;
    expect(first.map((p) => p.id)).toEqual(newestFirst.slice(0, 250));
    const table = await wolfpack(['projects', 'ls', '--limit', '3']);
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout.trim().split('\n')).toHaveLength(4);
    for (const bad of ['0', 'ten', '2.5']) {
      const refused = await wolfpack(['projects', 'ls', '--limit', bad]);
      expect(refused.code).not.toBe(0);
      expect(refused.stderr).toContain('Use a whole number from 1.');
    }
  });

  it('pages one folder, and counts folders without listing them', async () => {
    const archived = json<{ projects: Listed[] }>(await wolfpack(['projects', 'ls', '--folder', folderId.slice(0, 8), '--json'])).projects;
    expect(archived.map((p) => p.id)).toEqual(newestFirst.filter((_, i) => (i + 1) % 3 === 0));
    const folders = json<{ folders: Array<{ id: string; projectCount: number }>; rootProjectCount: number }>(await wolfpack(['folders', 'ls', '--json']));
    expect(folders.folders).toEqual([expect.objectContaining({ id: folderId, projectCount: PROJECTS / 3 })]);
    expect(folders.rootProjectCount).toBe(PROJECTS - PROJECTS / 3);
  });

  it('finds a project by the start of its id on the last page', async () => {
    const last = newestFirst.at(-1)!;
    const shown = json<{ id: string; title: string }>(await wolfpack(['projects', 'show', last.slice(0, 8), '--json']));
    expect(shown).toMatchObject({ id: last, title: `Project ${PROJECTS}` });
  });
});
