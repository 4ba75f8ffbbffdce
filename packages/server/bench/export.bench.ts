// Zip export of a 2,000-file / 50 MB project through the real server (PGlite), beside `zip -r`
// of the same files from disk, in one run: throughput, and how much the server process's memory
// grows while it streams (target: flat, under 64 MB).
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { startServer } from '../src/index.js';

const FILES = Number(process.env.BENCH_EXPORT_FILES ?? 2000);
const FILE_BYTES = 25 * 1024;
const dataDir = await mkdtemp(join(tmpdir(), 'wolfpack-export-bench-'));
// BENCH_DATABASE_URL: run against PostgreSQL instead (an empty database); else the embedded PGlite,
// whose in-process buffer cache (shared_buffers) also counts towards the server's memory.
const databaseUrl = process.env.BENCH_DATABASE_URL;
const server = await startServer({ port: 0, quiet: true, webDir: false, dataDir, env: {}, ...(databaseUrl ? { databaseUrl } : {}) });
const MB = 1024 * 1024;

try {
  const reg = await fetch(`${server.url}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'bench', password: 'bench-password' }),
  });
  const cookie = reg.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
  const conn = server.db.orm.em.getConnection();
  const [{ id: userId }] = (await conn.execute('select id from users')) as Array<{ id: string }>;
  const projectId = randomUUID();
  await conn.execute(
    `insert into projects (id, user_id, idea, file_count, total_bytes, created_at, updated_at) values (?, ?, 'Export benchmark', ?, ?, now(), now())`,
    [projectId, userId, FILES, FILES * FILE_BYTES],
  );
  // A 10-file project to warm the export path up (archiver, zlib and the queries loaded and
  // compiled) before measuring, so the growth shown belongs to the project's size, not to first use.
  const warmId = randomUUID();
  await conn.execute(
    `insert into projects (id, user_id, idea, file_count, total_bytes, created_at, updated_at) values (?, ?, 'Warm-up', 10, 10240, now(), now())`,
    [warmId, userId],
  );
  for (let i = 0; i < 10; i++) {
    await conn.execute('insert into project_files (project_id, path, content, size) values (?, ?, ?, ?)', [warmId, `w${i}.ts`, 'x'.repeat(1024), 1024]);
  }
  // Text that compresses like real code does, not like zeros: random words from a small alphabet.
  const source = join(dataDir, 'files');
  const contents: string[] = [];
  for (let i = 0; i < FILES; i++) {
    const words = randomBytes(FILE_BYTES).toString('base64').slice(0, FILE_BYTES).replace(/[+/=]/g, ' ');
    contents.push(words);
  }
  for (let i = 0; i < FILES; i += 100) {
    const rows = contents.slice(i, i + 100).map((c, j) => [projectId, `src/module-${Math.floor((i + j) / 100)}/file-${i + j}.ts`, c, c.length]);
    await conn.execute(`insert into project_files (project_id, path, content, size) values ${rows.map(() => '(?, ?, ?, ?)').join(', ')}`, rows.flat());
  }
  for (let i = 0; i < FILES; i++) {
    const path = join(source, `src/module-${Math.floor(i / 100)}/file-${i}.ts`);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, contents[i]!);
  }
  contents.length = 0;
  await server.close();

  // Each export runs in a fresh server process, so its memory is measured from a clean start.
  // V8 sizes the young generation by the machine's memory; on a large machine most of the growth
  // with Node's defaults is that, not data kept alive, which is why the server ships with a
  // smaller one.
  async function measure(nodeOptions: string) {
    const child = spawn(process.execPath, ['--conditions=@wolfpack/source', '--import', import.meta.resolve('tsx'), fileURLToPath(new URL('../src/testing/serve-child.ts', import.meta.url))], {
      env: { ...process.env, WOLFPACK_DATA_DIR: dataDir, NODE_OPTIONS: nodeOptions, ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const line = await new Promise<string>((resolve) => createInterface({ input: child.stdout! }).once('line', resolve));
    const childUrl = (JSON.parse(line) as { url: string }).url;
    const rss = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))![1]) * 1024;
    const login = await fetch(`${childUrl}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'bench', password: 'bench-password' }),
    });
    const session = login.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
    // Warm up with a small export (code loaded and compiled, database open), then measure.
    await (await fetch(`${childUrl}/api/projects/${warmId}/export`, { headers: { cookie: session } })).arrayBuffer();
    await new Promise((r) => setTimeout(r, 500));
    const baseline = rss();
    let peak = baseline;
    const sampler = setInterval(() => (peak = Math.max(peak, rss())), 10);
    const started = performance.now();
    const res = await fetch(`${childUrl}/api/projects/${projectId}/export`, { headers: { cookie: session } });
    let zipBytes = 0;
    for await (const chunk of res.body!) zipBytes += (chunk as Uint8Array).length;
    const ms = performance.now() - started;
    clearInterval(sampler);
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    return { ms, growth: peak - baseline, zipBytes };

  }
  // The server as `npm start` and `pnpm wolfpack serve` run it, then with Node's own defaults.
  const asShipped = await measure(process.env.BENCH_CHILD_NODE_OPTIONS ?? '--max-semi-space-size=4');
  const nodeDefaults = await measure('');
  const ours = asShipped.ms;
  const zipBytes = asShipped.zipBytes;

  const zipStarted = performance.now();
  const zip = spawnSync('zip', ['-qr', '-6', join(dataDir, 'out.zip'), 'src'], { cwd: source });
  const zipMs = performance.now() - zipStarted;
  const zipAvailable = zip.status === 0;

  const input = (FILES * FILE_BYTES) / MB;
  console.log(`${FILES} files, ${input.toFixed(1)} MB of text, database: ${databaseUrl ? 'PostgreSQL' : 'PGlite (embedded)'}\n`);
  console.log('| candidate | time | throughput | ratio | memory growth |');
  console.log('| --- | ---: | ---: | ---: | ---: |');
  console.log(`| Wolfpack export, server as shipped (--max-semi-space-size=4) | ${ours.toFixed(0)} ms | ${(input / (ours / 1000)).toFixed(1)} MB/s | 1.00 | ${(asShipped.growth / MB).toFixed(1)} MB (target < 64 MB) |`);
  console.log(`| same, Node's default young generation | ${nodeDefaults.ms.toFixed(0)} ms | ${(input / (nodeDefaults.ms / 1000)).toFixed(1)} MB/s | ${(nodeDefaults.ms / ours).toFixed(2)} | ${(nodeDefaults.growth / MB).toFixed(1)} MB |`);
  if (zipAvailable) {
    console.log(`| zip -r -6 of the same files on disk | ${zipMs.toFixed(0)} ms | ${(input / (zipMs / 1000)).toFixed(1)} MB/s | ${(zipMs / ours).toFixed(2)} | (separate process) |`);
  } else {
    console.log('| zip -r | not installed | | | |');
  }
  console.log(`\nZip size: ${(zipBytes / MB).toFixed(1)} MB`);
} finally {
  await server.close();
  await rm(dataDir, { recursive: true, force: true });
}
