/**
 * `wolfpack projects`, `folders`, `export` and `pull` from the built binary against a real
 * server, as a script uses them: --json replies, tables, refusals and exit codes, files on disk
 * byte for byte, and another user's project staying out of reach.
 */
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { projectDetailReply } from '@wolfpack/core';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  apiGet,
  loginCli,
  parseJsonLines,
  runCli,
  runCliBytes,
  startTestServer,
  storedToken,
  type CliResult,
  type RunOptions,
  type TestServer,
} from './testing/cli-harness.js';

const PASSWORD = 'correct-horse-battery';
const NOT_FOUND = 'wolfpack: Project not found. `wolfpack projects ls` lists your projects.\n';

interface Summary {
  id: string;
  idea: string;
  title: string;
  fileCount: number;
  folderId: string | null;
}

let server: TestServer;
let home: string;
let configFile: string;
let strangerConfig: string;
let token: string;
/** Built in beforeAll, oldest first. */
const ids: string[] = [];
let strangersProject: string;

function wolfpack(args: string[], options: RunOptions = {}): Promise<CliResult> {
  return runCli(args, { ...options, env: { HOME: home, WOLFPACK_CONFIG: configFile, WOLFPACK_URL: server.url, ...options.env } });
}

function json<T>(result: CliResult): T {
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as T;
}

async function build(idea: string, config = configFile): Promise<string> {
  const result = await runCli(['build', idea, '--json'], { env: { HOME: home, WOLFPACK_CONFIG: config, WOLFPACK_URL: server.url } });
  expect(result.code, result.stderr).toBe(0);
  return parseJsonLines(result.stdout).at(-1)!['projectId'] as string;
}

async function fsIndexOf(projectId: string): Promise<Record<string, string>> {
  return projectDetailReply.parse(await apiGet(server.url, token, `/api/projects/${projectId}`)).project.fsIndex;
}

/** Every file under `dir` with its content. */
async function filesIn(dir: string): Promise<Record<string, string>> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const files = entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
  return Object.fromEntries(await Promise.all(files.map(async (file) => [file.slice(dir.length + 1), await readFile(file, 'utf8')] as const)));
}

beforeAll(async () => {
  server = await startTestServer();
  home = await mkdtemp(join(tmpdir(), 'wolfpack-cli-projects-'));
  configFile = join(home, 'config.json');
  strangerConfig = join(home, 'stranger.json');
  await loginCli(server.url, 'owner', PASSWORD, { HOME: home, WOLFPACK_CONFIG: configFile });
  await loginCli(server.url, 'stranger', PASSWORD, { HOME: home, WOLFPACK_CONFIG: strangerConfig });
  token = await storedToken(configFile, server.url);
  for (const idea of ['zebra crossing counter', 'apple orchard planner\nwith harvest dates', 'Metronome for drummers']) ids.push(await build(idea));
  strangersProject = await build('a secret diary', strangerConfig);
}, 120_000);

afterAll(async () => {
  await server?.close();
  if (home) await rm(home, { recursive: true, force: true });
});

describe('wolfpack projects', () => {
  it('ls: every project with its title, newest first, in the order asked for', async () => {
    const { projects } = json<{ projects: Summary[] }>(await wolfpack(['projects', 'ls', '--json']));
    expect(projects.map((p) => p.id)).toEqual([...ids].reverse());
    expect(projects.map((p) => p.title)).toEqual(['Metronome for drummers', 'apple orchard planner', 'zebra crossing counter']);
    expect(projects.every((p) => p.fileCount > 0)).toBe(true);

    const byName = json<{ projects: Summary[] }>(await wolfpack(['projects', 'ls', '--sort', 'a-z', '--json'])).projects.map((p) => p.title);
    expect(byName).toEqual(['apple orchard planner', 'Metronome for drummers', 'zebra crossing counter']);
    const reversed = json<{ projects: Summary[] }>(await wolfpack(['projects', '--sort', 'z-a', '--json'])).projects.map((p) => p.title);
    expect(reversed).toEqual([...byName].reverse());
    const oldest = json<{ projects: Summary[] }>(await wolfpack(['projects', 'ls', '--sort', 'oldest', '--json'])).projects.map((p) => p.id);
    expect(oldest).toEqual(ids);

    const bad = await wolfpack(['projects', 'ls', '--sort', 'biggest']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^wolfpack: [^\n]*biggest[^\n]*newest, oldest, a-z, z-a, most-files, least-files[^\n]*\n$/);
  });

  it('ls: a table with the short id, title, files and last update', async () => {
    const result = await wolfpack(['projects', 'ls']);
    expect(result.code, result.stderr).toBe(0);
    const [header, ...rows] = result.stdout.trimEnd().split('\n');
    expect(header).toMatch(/^ID {8}TITLE +FILES {2}UPDATED$/);
    expect(rows).toHaveLength(3);
    expect(rows[0]).toMatch(new RegExp(`^${ids[2]!.slice(0, 8)}  Metronome for drummers +\\d+  \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d$`));
    expect(result.stdout).not.toContain('with harvest dates');
  });

  it('show: the idea, dates and files; the start of the id is enough', async () => {
    const id = ids[1]!;
    const fsIndex = await fsIndexOf(id);
    const shown = json<{ id: string; title: string; idea: string; folderId: string | null; files: Array<{ path: string; bytes: number }> }>(
      await wolfpack(['projects', 'show', id.slice(0, 8), '--json']),
    );
    expect(shown).toMatchObject({ id, title: 'apple orchard planner', idea: 'apple orchard planner\nwith harvest dates', folderId: null });
    expect(shown.files).toEqual(Object.entries(fsIndex).map(([path, content]) => ({ path, bytes: Buffer.byteLength(content) })));

    const plain = await wolfpack(['projects', 'show', id]);
    expect(plain.code, plain.stderr).toBe(0);
    expect(plain.stdout).toMatch(/^apple orchard planner\nwith harvest dates\n\nID {7}[0-9a-f-]{36}\nFolder {3}\(root\)\nCreated  [\d-]+ [\d:]+\nUpdated  [\d-]+ [\d:]+\n\nFiles \(\d+\)\n/);
    for (const path of Object.keys(fsIndex)) expect(plain.stdout).toMatch(new RegExp(`^  ${path.replace('.', '\\.')} +[\\d.]+ k?B$`, 'm'));
  });

  it('another user’s project is not found, in one line, exit 1', async () => {
    for (const args of [['projects', 'show', strangersProject], ['projects', 'rm', strangersProject, '--yes'], ['export', strangersProject], ['pull', strangersProject, '--out', join(home, 'nope')]]) {
      expect(await wolfpack(args)).toEqual({ code: 1, stdout: '', stderr: NOT_FOUND });
    }
    expect(await wolfpack(['projects', 'show', 'not-an-id'])).toEqual({ code: 1, stdout: '', stderr: NOT_FOUND });
    // Still there for its owner.
    expect((await runCli(['projects', 'show', strangersProject], { env: { HOME: home, WOLFPACK_CONFIG: strangerConfig, WOLFPACK_URL: server.url } })).code).toBe(0);
  });

  it('rm: needs --yes outside a terminal (exit 2, nothing deleted), then deletes', async () => {
    const id = await build('a project to delete');
    const refused = await wolfpack(['projects', 'rm', id]);
    expect(refused).toEqual({
      code: 2,
      stdout: '',
      stderr: 'wolfpack: Deleting needs confirmation and there is no terminal to ask in. Add --yes to delete without asking.\n',
    });
    expect((await wolfpack(['projects', 'show', id])).code).toBe(0);

    expect(json(await wolfpack(['projects', 'rm', id, '--yes', '--json']))).toEqual({ id, deleted: true });
    expect(await wolfpack(['projects', 'show', id])).toEqual({ code: 1, stdout: '', stderr: NOT_FOUND });
  });
});

describe('wolfpack folders', () => {
  it('create, rename, move projects in, list as a tree, and delete (its projects move to the root)', async () => {
    const { folder: work } = json<{ folder: { id: string; name: string; parentFolderId: string | null } }>(await wolfpack(['folders', 'create', 'Work', '--json']));
    expect(work).toMatchObject({ name: 'Work', parentFolderId: null });
    const created = await wolfpack(['folders', 'create', 'Clients', '--parent', work.id.slice(0, 8)]);
    expect(created.code, created.stderr).toBe(0);
    expect(created.stdout).toMatch(/^Created folder "Clients" in "Work": [0-9a-f-]{36}\n$/);
    const clientsId = created.stdout.trim().split(': ')[1]!;

    const renamed = json<{ folder: { id: string; name: string } }>(await wolfpack(['folders', 'rename', work.id, 'Work stuff', '--json']));
    expect(renamed.folder).toMatchObject({ id: work.id, name: 'Work stuff' });
    expect((await wolfpack(['folders', 'create', '  '])).code).toBe(2);

    const moved = json<{ id: string; folderId: string }>(await wolfpack(['projects', 'mv', ids[0]!, '--folder', work.id, '--json']));
    expect(moved).toEqual({ id: ids[0], folderId: work.id });
    expect(json<{ projects: Summary[] }>(await wolfpack(['projects', 'ls', '--folder', work.id, '--json'])).projects.map((p) => p.id)).toEqual([ids[0]]);
    expect(json<{ projects: Summary[] }>(await wolfpack(['projects', 'ls', '--folder', 'root', '--json'])).projects.map((p) => p.id)).not.toContain(ids[0]);

    const listed = json<{ folders: Array<{ id: string; name: string; parentFolderId: string | null; projectCount: number }>; rootProjectCount: number }>(
      await wolfpack(['folders', 'ls', '--json']),
    );
    expect(listed.folders).toEqual(
      expect.arrayContaining([
        { id: work.id, name: 'Work stuff', parentFolderId: null, projectCount: 1 },
        { id: clientsId, name: 'Clients', parentFolderId: work.id, projectCount: 0 },
      ]),
    );
    const tree = await wolfpack(['folders', 'ls']);
    expect(tree.stdout).toMatch(/^\(root\)  \d+ projects\n/);
    expect(tree.stdout).toContain(`└── Work stuff  ${work.id.slice(0, 8)}  1 project\n    └── Clients  ${clientsId.slice(0, 8)}  0 projects\n`);

    expect((await wolfpack(['folders', 'rm', work.id])).code).toBe(2);
    const removed = json(await wolfpack(['folders', 'rm', work.id, '--yes', '--json']));
    expect(removed).toEqual({ id: work.id, deleted: true, projectsMovedToRoot: 1, foldersMovedToRoot: 1 });
    expect(json<{ folderId: string | null }>(await wolfpack(['projects', 'show', ids[0]!, '--json'])).folderId).toBeNull();
    const after = json<{ folders: Array<{ id: string; parentFolderId: string | null }> }>(await wolfpack(['folders', 'ls', '--json'])).folders;
    expect(after).toEqual([expect.objectContaining({ id: clientsId, parentFolderId: null })]);

    // And back out of a folder with --folder root.
    await wolfpack(['projects', 'mv', ids[1]!, '--folder', clientsId]);
    expect(json(await wolfpack(['projects', 'mv', ids[1]!, '--folder', 'root', '--json']))).toEqual({ id: ids[1], folderId: null });
    expect(await wolfpack(['projects', 'mv', ids[1]!, '--folder', '00000000-0000-4000-8000-000000000000'])).toEqual({
      code: 1,
      stdout: '',
      stderr: 'wolfpack: Folder not found. `wolfpack folders ls` lists your folders.\n',
    });
  });
});

describe('wolfpack export and pull', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  /** The zip as the server sends it. Zip entries carry the time they were made, so tests freeze the server's clock. */
  async function serverZip(id: string): Promise<Buffer> {
    const response = await fetch(`${server.url}/api/projects/${id}/export`, { headers: { authorization: `Bearer ${token}` } });
    expect(response.status).toBe(200);
    return Buffer.from(await response.arrayBuffer());
  }

  it('writes the server’s zip byte for byte under its name, and will not overwrite it without --force', async () => {
    // The server runs in this process: freezing Date makes every export of a project the same bytes.
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-11-20T10:00:00Z') });
    const id = ids[2]!;
    const cwd = await mkdtemp(join(home, 'export-'));
    const name = `project-${id.slice(0, 8)}.zip`;
    const result = await wolfpack(['export', id], { cwd });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(new RegExp(`^Saved ${join(cwd, name).replace(/[.]/g, '\\.')} \\([\\d.]+ k?B\\)\\.\\n$`));
    const expected = await serverZip(id);
    expect(expected.subarray(0, 4)).toEqual(Buffer.from('PK\u0003\u0004', 'latin1'));
    expect(await readFile(join(cwd, name))).toEqual(expected);
    expect(await readdir(cwd)).toEqual([name]);

    await writeFile(join(cwd, name), 'mine');
    expect(await wolfpack(['export', id], { cwd })).toEqual({
      code: 2,
      stdout: '',
      stderr: `wolfpack: ${join(cwd, name)} already exists. Add --force to replace it, or choose another file with -o.\n`,
    });
    expect(await readFile(join(cwd, name), 'utf8')).toBe('mine');
    expect(await readdir(cwd)).toEqual([name]);

    const forced = json<{ file: string; bytes: number }>(await wolfpack(['export', id.slice(0, 8), '--force', '--json'], { cwd }));
    expect(forced).toEqual({ projectId: id, file: join(cwd, name), bytes: expected.length });
    expect(await readFile(join(cwd, name))).toEqual(expected);

    const other = json<{ file: string }>(await wolfpack(['export', id, '-o', 'backup.zip', '--json'], { cwd }));
    expect(other.file).toBe(join(cwd, 'backup.zip'));
    const piped = await runCliBytes(['export', id, '-o', '-'], { cwd, env: { HOME: home, WOLFPACK_CONFIG: configFile, WOLFPACK_URL: server.url } });
    expect(piped.code, piped.stderr).toBe(0);
    expect(piped.stdout).toEqual(expected);
  });

  it('pull writes the files byte-equal to the project, into an empty folder or with --force', async () => {
    const id = ids[1]!;
    const out = join(home, 'pulled');
    const result = json<{ projectId: string; dir: string; files: string[] }>(await wolfpack(['pull', id, '--out', out, '--json']));
    const fsIndex = await fsIndexOf(id);
    expect(result).toEqual({ projectId: id, dir: out, files: Object.keys(fsIndex) });
    expect(await filesIn(out)).toEqual(fsIndex);

    const again = await wolfpack(['pull', id, '--out', out]);
    expect(again.code).toBe(2);
    expect(again.stderr).toBe(`wolfpack: ${out} is not empty. Pick a new or empty folder for --out, or add --force to write the project over it.\n`);
    await mkdir(join(out, 'extra'));
    const forced = await wolfpack(['pull', id.slice(0, 8), '--out', out, '--force']);
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.stdout).toBe(`Wrote ${Object.keys(fsIndex).length} files of project ${id} to ${out}.\n`);
  });
});
