/**
 * `wolfpack versions`, `diff`, `restore`, `import` and `--version N` on `pull`, `export` and
 * `publish`, from the built binary against a real server (and a local fake of GitHub's REST API
 * for publishing): tables and sentences, --json replies parsed with core's schemas, files on disk
 * and in zips byte for byte, refusals with their exit codes, and the diff's colours in a terminal.
 */
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importReply, versionChangeReply, versionDiffReply, versionFilesReply, versionsReply } from '@wolfpack/core';
import { startFakeGithub, type FakeGithub } from '@wolfpack/server/testing';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiGet,
  BIN,
  hasTmux,
  loginCli,
  parseJsonLines,
  runCli,
  runCliBytes,
  startTestServer,
  storedToken,
  tmuxServer,
  type CliResult,
  type RunOptions,
  type TestServer,
} from './testing/cli-harness.js';

const PASSWORD = 'correct-horse-battery';

let github: FakeGithub;
let server: TestServer;
let home: string;
let configFile: string;
let strangerConfig: string;
let token: string;
let projectId = '';
let short = '';

function wolfpack(args: string[], options: RunOptions = {}): Promise<CliResult> {
  return runCli(args, { ...options, env: { HOME: home, WOLFPACK_CONFIG: configFile, WOLFPACK_URL: server.url, ...options.env } });
}

function json(result: CliResult): unknown {
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout);
}

/** A file written through the API, as the web's editor saves it: a new version. */
async function edit(path: string, content: string, expectedVersion: number): Promise<void> {
  const response = await fetch(`${server.url}/api/projects/${projectId}/files/${path}`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ content, expectedVersion }),
  });
  if (!response.ok) throw new Error(`PUT ${path}: ${response.status} ${await response.text()}`);
}

async function filesOf(version: number, id = projectId): Promise<Record<string, string>> {
  return versionFilesReply.parse(await apiGet(server.url, token, `/api/projects/${id}/versions/${version}`)).files;
}

/** Every file under `dir` with its content. */
async function filesIn(dir: string): Promise<Record<string, string>> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const files = entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
  return Object.fromEntries(await Promise.all(files.map(async (file) => [file.slice(dir.length + 1), await readFile(file, 'utf8')] as const)));
}

beforeAll(async () => {
  github = await startFakeGithub({ tokens: { ghp_good: 'octocat' } });
  server = await startTestServer({ env: { GITHUB_API_URL: github.url } });
  home = await mkdtemp(join(tmpdir(), 'wolfpack-cli-versions-'));
  configFile = join(home, 'config.json');
  strangerConfig = join(home, 'stranger.json');
  await loginCli(server.url, 'keeper', PASSWORD, { HOME: home, WOLFPACK_CONFIG: configFile });
  await loginCli(server.url, 'stranger', PASSWORD, { HOME: home, WOLFPACK_CONFIG: strangerConfig });
  token = await storedToken(configFile, server.url);
  const built = await wolfpack(['build', 'A tip calculator that splits the bill', '--json']);
  expect(built.code, built.stderr).toBe(0);
  projectId = parseJsonLines(built.stdout).at(-1)!['projectId'] as string;
  short = projectId.slice(0, 8);
  // Version 2 adds NOTES.md; version 3 adds a line to it.
  await edit('NOTES.md', 'first\n', 1);
  await edit('NOTES.md', 'first\nsecond\n', 2);
}, 120_000);

afterAll(async () => {
  await server?.close();
  await github?.close();
  if (home) await rm(home, { recursive: true, force: true });
});

describe('wolfpack versions', () => {
  it('lists the versions newest first, the current one marked, with source, verdict and changes', async () => {
    const reply = versionsReply.parse(json(await wolfpack(['versions', short, '--json'])));
    expect(reply.current).toBe(3);
    expect(reply.versions.map((v) => [v.number, v.label, v.current, v.added, v.changed, v.removed])).toEqual([
      [3, 'Edited by you', true, 0, 1, 0],
      [2, 'Edited by you', false, 1, 0, 0],
      [1, 'Build', false, reply.versions[2]!.fileCount, 0, 0],
    ]);

    const table = await wolfpack(['versions', short]);
    expect(table.code, table.stderr).toBe(0);
    const [header, ...rows] = table.stdout.trimEnd().split('\n');
    expect(header).toMatch(/^VERSION +CREATED +SOURCE +PROVEN CODE +FILES +CHANGES$/);
    expect(rows).toHaveLength(3);
    expect(rows[0]).toMatch(/^3 \(current\) +\d{4}-\d\d-\d\d \d\d:\d\d +Edited by you +(passed|failed|not proven|not checked) +\d+ +\+0 ~1 -0$/);
    expect(rows[2]).toMatch(/^1 +.* Build +(passed|failed|not proven|not checked) +\d+ +\+\d+ ~0 -0$/);
    // Piped, never coloured.
    expect(table.stdout).not.toContain('\u001B[');
  });

  it('another user’s project is not found', async () => {
    const result = await runCli(['versions', projectId], { env: { HOME: home, WOLFPACK_CONFIG: strangerConfig, WOLFPACK_URL: server.url } });
    expect(result).toEqual({ code: 1, stdout: '', stderr: 'wolfpack: Project not found. `wolfpack projects ls` lists your projects.\n' });
  });
});

describe('wolfpack diff', () => {
  it('without versions: what the current version changed, as a unified diff; --json is the server’s reply', async () => {
    const result = await wolfpack(['diff', short]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe('--- a/NOTES.md\n+++ b/NOTES.md\n@@ -1,1 +1,2 @@\n first\n+second\n');

    const reply = versionDiffReply.parse(json(await wolfpack(['diff', short, '--json'])));
    expect(reply).toMatchObject({ from: 2, to: 3, added: 0, changed: 1, removed: 0 });
    expect(reply.files.map((f) => [f.path, f.status, f.before, f.after])).toEqual([['NOTES.md', 'changed', 'first\n', 'first\nsecond\n']]);
  });

  it('FROM alone diffs against the current version; 0 is nothing; --stat lists the files', async () => {
    const fromOne = await wolfpack(['diff', short, '1']);
    expect(fromOne.code, fromOne.stderr).toBe(0);
    expect(fromOne.stdout).toBe('--- /dev/null\n+++ b/NOTES.md\n@@ -0,0 +1,2 @@\n+first\n+second\n');

    const v1 = await filesOf(1);
    const stat = await wolfpack(['diff', short, '0', '1', '--stat']);
    expect(stat.code, stat.stderr).toBe(0);
    const lines = stat.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(Object.keys(v1).length + 1);
    for (const path of Object.keys(v1)) expect(lines.some((line) => new RegExp(`^added +${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} +\\+\\d+ +-0$`).test(line)), path).toBe(true);
    expect(lines.at(-1)).toMatch(new RegExp(`^${Object.keys(v1).length} files changed \\(${Object.keys(v1).length} added, 0 changed, 0 removed\\), \\d+ lines added, 0 removed$`));
  });

  it('exits 0 when the versions are the same, and says so', async () => {
    expect(await wolfpack(['diff', short, '3', '3'])).toEqual({ code: 0, stdout: 'No differences between version 3 and version 3.\n', stderr: '' });
  });

  it('a version the project does not have is a sentence and exit 1; a malformed one a usage error', async () => {
    expect(await wolfpack(['diff', short, '1', '9'])).toEqual({
      code: 1,
      stdout: '',
      stderr: `wolfpack: This project has no version 9: its versions are 1 to 3. \`wolfpack versions ${short}\` lists them.\n`,
    });
    const bad = await wolfpack(['diff', short, 'two']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe("wolfpack: Command-argument value 'two' is invalid for argument 'from'. Use a version number, or 0 for nothing. See `wolfpack --help`.\n");
  });
});

describe('--version N on pull, export and publish', () => {
  it('pull --version 1 writes version 1’s files; --json names the version', async () => {
    const out = join(home, 'pulled-v1');
    const result = json(await wolfpack(['pull', short, '--version', '1', '-o', out, '--json'])) as { projectId: string; version: number; files: string[] };
    expect(result).toMatchObject({ projectId, version: 1, dir: out });
    const v1 = await filesOf(1);
    expect(await filesIn(out)).toEqual(v1);
    expect(Object.keys(v1)).not.toContain('NOTES.md');
    // Without it, the current files.
    const current = join(home, 'pulled-current');
    expect((await wolfpack(['pull', short, '-o', current])).code).toBe(0);
    expect(await filesIn(current)).toEqual(await filesOf(3));
  });

  it('export --version 2 zips version 2', async () => {
    const result = await runCliBytes(['export', short, '--version', '2', '-o', '-'], { env: { HOME: home, WOLFPACK_CONFIG: configFile, WOLFPACK_URL: server.url } });
    expect(result.code, result.stderr).toBe(0);
    const entries = Object.fromEntries(Object.entries(unzipSync(new Uint8Array(result.stdout))).map(([path, bytes]) => [path, strFromU8(bytes)]));
    expect(entries).toEqual(await filesOf(2));
    expect(entries['NOTES.md']).toBe('first\n');
  });

  it('publish --version 1 puts version 1’s files in the repository', async () => {
    const result = await wolfpack(['publish', short, '--repo', 'tips', '--version', '1'], { env: { GITHUB_TOKEN: 'ghp_good' } });
    expect(result).toEqual({ code: 0, stdout: `${github.url}/octocat/tips\n`, stderr: '' });
    expect(github.filesAt('octocat', 'tips')).toEqual(await filesOf(1));
  });

  it('publish --history pushes each version as a commit of its own, its source label the message', async () => {
    const result = await wolfpack(['publish', short, '--repo', 'tips-history', '--history'], { env: { GITHUB_TOKEN: 'ghp_good' } });
    expect(result).toEqual({ code: 0, stdout: `${github.url}/octocat/tips-history\n`, stderr: '' });
    const labels = versionsReply
      .parse(json(await wolfpack(['versions', short, '--json'])))
      .versions.sort((a, b) => a.number - b.number)
      .map((v) => v.label);
    const repo = github.repos.get('octocat/tips-history')!;
    const messages: string[] = [];
    for (let commit = github.head('octocat', 'tips-history'); commit.parents.length > 0; commit = repo.commits.get(commit.parents[0]!)!) messages.unshift(commit.message);
    expect(messages).toEqual(labels);
    expect(github.filesAt('octocat', 'tips-history')).toEqual(await filesOf(3));
  });

  it('a version the project does not have: a clear sentence, exit 1, nothing written; a malformed one: exit 2', async () => {
    const out = join(home, 'pulled-v99');
    expect(await wolfpack(['pull', short, '--version', '99', '-o', out])).toEqual({
      code: 1,
      stdout: '',
      stderr: `wolfpack: This project has no version 99: its versions are 1 to 3. \`wolfpack versions ${short}\` lists them.\n`,
    });
    await expect(readdir(out)).rejects.toThrow();
    const exported = await wolfpack(['export', short, '--version', '99', '-o', join(home, 'v99.zip')]);
    expect(exported.code).toBe(1);
    expect(exported.stderr).toContain('has no version 99');

    const zero = await wolfpack(['pull', short, '--version', '0', '-o', out]);
    expect(zero).toEqual({ code: 2, stdout: '', stderr: "wolfpack: Option '--version <n>' argument '0' is invalid. A version is a whole number, 1 or more. See `wolfpack --help`.\n" });
  });

  it('wolfpack --version is still the CLI’s version, before a command too', async () => {
    for (const args of [['--version'], ['-v'], ['--version', 'pull', short]]) {
      const result = await wolfpack(args);
      expect(result.code).toBe(0);
      expect(result.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
    }
  });
});

describe('wolfpack restore', () => {
  it('restores an earlier version as a new one and says so with the verdict; --json is the server’s reply', async () => {
    const before = versionsReply.parse(json(await wolfpack(['versions', short, '--json'])));
    const verdict = before.versions.find((v) => v.number === 1)!.verdict;
    const word = verdict === null ? 'not checked' : verdict === 'unproven' ? 'not proven' : verdict;
    expect(await wolfpack(['restore', short, '1'])).toEqual({ code: 0, stdout: `Restored version 1 as version 4 (Proven Code: ${word}).\n`, stderr: '' });
    expect(await filesOf(4)).toEqual(await filesOf(1));

    const reply = versionChangeReply.parse(json(await wolfpack(['restore', short, '3', '--json'])));
    expect(reply.version).toMatchObject({ number: 5, source: { kind: 'restore', from: 3 }, label: 'Restored from version 3', current: true });
    expect(await filesOf(5)).toEqual(await filesOf(3));
  });

  it('refuses versions it does not have (exit 1) and malformed ones (exit 2)', async () => {
    expect(await wolfpack(['restore', short, '42'])).toEqual({
      code: 1,
      stdout: '',
      stderr: `wolfpack: This project has no version 42: its versions are 1 to 5. \`wolfpack versions ${short}\` lists them.\n`,
    });
    const zero = await wolfpack(['restore', short, '0']);
    expect(zero.code).toBe(2);
    expect(zero.stderr).toContain('A version is a whole number, 1 or more.');
    expect((await wolfpack(['restore', short])).code).toBe(2);
  });
});

describe('wolfpack import', () => {
  it('a folder: zipped without node_modules/, .git/ or links, a new project at version 1; --json is the reply', async () => {
    const dir = join(home, 'recipe-box');
    await mkdir(join(dir, 'src'), { recursive: true });
    await mkdir(join(dir, 'node_modules/left-pad'), { recursive: true });
    await mkdir(join(dir, '.git'), { recursive: true });
    await writeFile(join(dir, 'README.md'), '# Recipe box\n\nA recipe box that tags recipes by season.\n');
    await writeFile(join(dir, 'package.json'), '{"name":"recipe-box"}\n');
    await writeFile(join(dir, 'src/index.js'), 'console.log("recipes");\n');
    await writeFile(join(dir, 'node_modules/left-pad/index.js'), 'module.exports = 1;\n');
    await writeFile(join(dir, '.git/HEAD'), 'ref: refs/heads/main\n');
    await symlink(configFile, join(dir, 'config-link.json'));

    const reply = importReply.parse(json(await wolfpack(['import', dir, '--json'])));
    expect(reply.version).toBe(1);
    expect(reply.project).toMatchObject({ idea: 'A recipe box that tags recipes by season.', fileCount: 3 });
    expect(reply.skipped.map((s) => s.path)).toEqual(expect.arrayContaining(['node_modules/', '.git/', 'config-link.json']));
    expect(await filesOf(1, reply.project.id)).toEqual({
      'README.md': '# Recipe box\n\nA recipe box that tags recipes by season.\n',
      'package.json': '{"name":"recipe-box"}\n',
      'src/index.js': 'console.log("recipes");\n',
    });
    const versions = versionsReply.parse(await apiGet(server.url, token, `/api/projects/${reply.project.id}/versions`));
    expect(versions.versions.map((v) => v.label)).toEqual(['Imported from recipe-box']);

    const human = await wolfpack(['import', dir, '--idea', 'Seasonal recipes']);
    expect(human.code, human.stderr).toBe(0);
    const lines = human.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^Imported project [0-9a-f-]{36} with 3 files\.$/);
    expect(lines[1]).toBe('Idea: Seasonal recipes');
    expect(human.stdout).toContain('\n  node_modules/: node_modules/ is not imported: dependencies are installed from the package manifest\n');
  });

  it('a zip file is sent as it is, its binary files left out by the server', async () => {
    const zipFile = join(home, 'tip-jar.zip');
    const zip = zipSync({ 'tip-jar/index.html': strToU8('<h1>Tips</h1>\n'), 'tip-jar/logo.png': new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3]) });
    await writeFile(zipFile, zip);
    const reply = importReply.parse(json(await wolfpack(['import', zipFile, '--idea', 'A tip jar', '--json'])));
    expect(reply.project).toMatchObject({ idea: 'A tip jar', fileCount: 1 });
    expect(reply.skipped).toEqual([{ path: 'logo.png', reason: expect.stringContaining('binary') }]);
    expect(await filesOf(1, reply.project.id)).toEqual({ 'index.html': '<h1>Tips</h1>\n' });
  });

  it('github:OWNER/REPO@REF: the server reads the repository with GITHUB_TOKEN', async () => {
    github.addRepo('octocat', 'hello', { 'README.md': '# Hello\n\nSays hello.\n', 'index.js': 'console.log("hello");\n' });
    const reply = importReply.parse(json(await wolfpack(['import', 'github:octocat/hello@main', '--json'], { env: { GITHUB_TOKEN: 'ghp_good' } })));
    expect(reply.project).toMatchObject({ idea: 'Says hello.', fileCount: 2 });
    expect(await filesOf(1, reply.project.id)).toEqual({ 'README.md': '# Hello\n\nSays hello.\n', 'index.js': 'console.log("hello");\n' });
    const versions = versionsReply.parse(await apiGet(server.url, token, `/api/projects/${reply.project.id}/versions`));
    expect(versions.versions[0]!.label).toBe('Imported from github:octocat/hello@main');
  });

  it('refuses what it cannot import, saying what to give instead', async () => {
    expect(await wolfpack(['import', join(home, 'nowhere')])).toEqual({
      code: 2,
      stdout: '',
      stderr: `wolfpack: There is no file or folder ${join(home, 'nowhere')}. Give a folder, a .zip file or github:OWNER/REPO.\n`,
    });
    const notZip = join(home, 'notes.txt');
    await writeFile(notZip, 'hello');
    expect((await wolfpack(['import', notZip])).stderr).toBe(`wolfpack: ${notZip} is not a zip file. Give a folder, a .zip file or github:OWNER/REPO.\n`);
    const badRepo = await wolfpack(['import', 'github:not a repo']);
    expect(badRepo.code).toBe(2);
    expect(badRepo.stderr).toBe('wolfpack: github must be OWNER/REPO, e.g. octocat/hello-world. See `wolfpack --help`.\n');
    const empty = join(home, 'empty');
    await mkdir(join(empty, 'node_modules'), { recursive: true });
    const nothing = await wolfpack(['import', empty]);
    expect(nothing.code).toBe(2);
    expect(nothing.stderr).toBe(`wolfpack: ${empty} has no files to import (left out: node_modules/).\n`);
  });
});

describe.skipIf(!hasTmux())('in a terminal (tmux)', () => {
  const term = tmuxServer('wolfpack-cli-versions');
  afterAll(() => term.close());

  it('colours the diff on a terminal, and not with --no-color', async () => {
    const env = `env -u CI -u NO_COLOR -u FORCE_COLOR WOLFPACK_CONFIG='${configFile}' WOLFPACK_URL='${server.url}' HOME='${home}' '${process.execPath}' '${BIN}'`;
    term.start('diff', `${env} diff ${short} 2 3; echo "EXIT=$?"; ${env} diff ${short} 2 3 --no-color; echo "PLAIN=$?"; sleep 600`);
    await term.waitFor('diff', /PLAIN=\d+/);
    // -e keeps the colours the terminal was sent.
    const shown = term.tmux('capture-pane', '-p', '-e', '-J', '-S', '-', '-t', 'diff');
    const [coloured, plain] = shown.split('EXIT=0');
    expect(coloured).toMatch(/\u001B\[32m\+second/);
    expect(coloured).toMatch(/\u001B\[1m--- a\/NOTES\.md/);
    expect(plain).toContain('+second');
    expect(plain!.replace(/PLAIN=0[\s\S]*/, '')).not.toContain('\u001B[');
  });

  it('versions, restore and import on a terminal: the table, the sentence, the new project', async () => {
    const folder = join(home, 'terminal-import');
    await mkdir(join(folder, 'node_modules', 'left-pad'), { recursive: true });
    await writeFile(join(folder, 'index.html'), '<p>From a folder</p>\n');
    await writeFile(join(folder, 'node_modules', 'left-pad', 'index.js'), 'module.exports = (s) => s;\n');
    const env = `env -u CI WOLFPACK_CONFIG='${configFile}' WOLFPACK_URL='${server.url}' HOME='${home}' '${process.execPath}' '${BIN}'`;
    term.start('flow', `${env} restore ${short} 1; echo "RESTORED=$?"; ${env} versions ${short}; ${env} import '${folder}' --idea 'A page from a folder'; echo "IMPORTED=$?"; sleep 600`);
    const screen = await term.waitFor('flow', /IMPORTED=\d+/, 60_000);
    const restored = /Restored version 1 as version (\d+)/.exec(screen);
    expect(restored, screen).not.toBeNull();
    expect(screen).toContain('RESTORED=0');
    // The table that follows lists the restore as the current version.
    expect(screen).toMatch(new RegExp(`\\b${restored![1]}\\b.*current.*Restored from version 1`));
    expect(screen).toMatch(/Imported project [0-9a-f-]{36} with 1 file\./);
    expect(screen).toContain('Idea: A page from a folder');
    expect(screen).toMatch(/node_modules\/: /);
    expect(screen).toContain('IMPORTED=0');
  });
});
