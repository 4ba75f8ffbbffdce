// A full-stack Express app through the real execution gate: express installed from the npm
// registry, the server started in the sandbox, its routes asked and its page loaded in the
// sandboxed Chromium through it. Correct, it passes clean; a page that fetches a route the server
// lacks, and a route that throws, each fail naming the route and what the server said. A node:http
// server whose route drops the connection, or takes the process down, fails the same way; one
// whose route fails for want of the network the sandbox does not give is not blamed for it.
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyProject } from '../pipeline/verify.js';
import { needTool } from '../testing/required-tool.js';
import { sandboxCheck } from '../testing/sandbox-tool.js';
import { buildVerificationRecord } from '../verification/verification-record.js';
import { executeProject, type ExecuteOptions } from './execute-project.js';
import { installOptionsFrom } from './node-deps.js';
import {
  BOOM_LINE,
  expressAbsoluteApi,
  expressMissingApi,
  expressMissingStylesheet,
  expressNotes,
  expressThrowingRoute,
  MISSING_API_LINE,
  STYLESHEET_LINE,
} from './fixtures/full-stack.js';
import type { ExecCheck, ExecutionReport } from './report.js';

const sandboxed = needTool(await sandboxCheck(), 'the full-stack server checks (run in the sandbox)');
const chromium = sandboxed && needTool({ tool: 'chromium', available: existsSync('/usr/lib/chromium/chromium') || existsSync('/usr/bin/chromium') }, 'pages loaded through a server');

const find = (report: ExecutionReport, name: ExecCheck['check']) => report.checks.filter((c) => c.check === name);

describe.skipIf(!chromium)('a full-stack Express app, proven through its own server', () => {
  let cacheDir: string;
  let options: ExecuteOptions;
  beforeAll(async () => {
    cacheDir = await mkdtemp(join(tmpdir(), 'wolfpack-server-test-deps-'));
    await chmod(cacheDir, 0o755); // the sandbox user reads the installed packages
    // express comes from the real npm registry, reached through this machine's proxy and CA
    // settings (installOptionsFrom passes npm those alone).
    options = { env: {}, install: { ...installOptionsFrom(process.env), cacheDir } };
  });
  afterAll(async () => {
    if (cacheDir) await rm(cacheDir, { recursive: true, force: true });
  });

  it('passes clean: the page gets /styles.css and /api/notes from the server, and its routes answer', { timeout: 180_000 }, async () => {
    const report = await executeProject(expressNotes, options);
    expect(report.checks.flatMap((c) => c.problems)).toEqual([]);
    expect(report.checks.filter((c) => c.status === 'failed')).toEqual([]);
    expect(find(report, 'start')[0]).toMatchObject({ status: 'passed', summary: 'started and listened on a port; 2 routes answered (GET /health 200, GET /api/notes 200)' });
    // One page load, through the server: not public/index.html opened as a static page.
    const pages = find(report, 'page-load');
    expect(pages).toHaveLength(1);
    expect(pages[0]).toMatchObject({
      status: 'passed',
      runtime: 'web',
      files: ['public/app.js', 'public/index.html', 'public/styles.css'],
      command: 'open / in Chromium, served by npm start (node server.js)',
      proves: true,
    });
    // With the static checks, the verdict: passed, so no repair is asked for.
    const record = buildVerificationRecord({ version: 1, paths: Object.keys(expressNotes), staticReport: verifyProject(expressNotes), execution: report });
    expect(record.verdict).toBe('passed');
  });

  it('passes a page that calls its server by its full local address (http://localhost:3000/api/notes)', { timeout: 120_000 }, async () => {
    const report = await executeProject(expressAbsoluteApi, options);
    expect(report.checks.flatMap((c) => c.problems)).toEqual([]);
    expect(find(report, 'page-load')[0]).toMatchObject({ status: 'passed', files: ['public/app.js', 'public/index.html', 'public/styles.css'] });
  });

  it("fails a page whose fetch the server answers 404, naming the request and the line that makes it", { timeout: 120_000 }, async () => {
    const report = await executeProject(expressMissingApi, options);
    const page = find(report, 'page-load')[0]!;
    expect(page.status, JSON.stringify(report.checks, null, 1)).toBe('failed');
    expect(page.problems[0]).toMatchObject({ path: 'public/app.js', line: MISSING_API_LINE, message: "the page's request GET /api/missing answered 404 (the code names GET /health, GET /api/notes, GET /api/notes/:id)" });
    expect(find(report, 'start')[0]!.status).toBe('passed');
  });

  it('fails a page whose stylesheet the server answers 404, at the line that links it', { timeout: 120_000 }, async () => {
    const report = await executeProject(expressMissingStylesheet, options);
    const page = find(report, 'page-load')[0]!;
    expect(page.status, JSON.stringify(report.checks, null, 1)).toBe('failed');
    expect(page.problems).toEqual([expect.objectContaining({ path: 'public/index.html', line: STYLESHEET_LINE, message: 'loads /style.css, which the server answers with 404' })]);
  });

  it('fails a route that throws, naming the route, its line and the error the server printed', { timeout: 120_000 }, async () => {
    const report = await executeProject(expressThrowingRoute, options);
    const start = find(report, 'start')[0]!;
    expect(start.status, JSON.stringify(report.checks, null, 1)).toBe('failed');
    expect(start.problems).toHaveLength(1);
    expect(start.problems[0]).toMatchObject({ path: 'server.js', line: BOOM_LINE, message: 'GET /api/boom answered 500', output: expect.stringMatching(/Error: the notes store is corrupt/) });
    // The page itself is fine.
    expect(find(report, 'page-load')[0]!.status).toBe('passed');
  });
});

describe.skipIf(!sandboxed)('a node:http server whose routes are asked once', () => {
  const server = (handler: string) => ({
    'server.js': `const http = require('node:http');\nhttp.createServer((req, res) => {\n  if (req.url === '/health') return res.end('ok');\n${handler}\n  res.statusCode = 404;\n  res.end();\n}).listen(process.env.PORT);\n`,
    'README.md': '# Probe\n\n- GET /health\n- GET /drop\n',
  });

  it('fails a route that closes the connection without an answer, naming the line that serves it', { timeout: 60_000 }, async () => {
    const report = await executeProject(server("  if (req.url === '/drop') return req.socket.destroy();"), { env: {} });
    const start = find(report, 'start')[0]!;
    expect(start.status, JSON.stringify(report.checks, null, 1)).toBe('failed');
    expect(start.problems).toEqual([expect.objectContaining({ path: 'server.js', line: 4, message: expect.stringMatching(/^GET \/drop closed the connection without an answer/) })]);
  });

  it('does not count a route that answers 500 because the sandbox has no network, and says so', { timeout: 60_000 }, async () => {
    const weather = "  if (req.url === '/drop') return fetch('https://api.weather.example/today').then(() => res.end('sunny'), (error) => {\n    console.error(error);\n    res.statusCode = 500;\n    res.end();\n  });";
    const report = await executeProject(server(weather), { env: {} });
    const start = find(report, 'start')[0]!;
    expect(start.problems, JSON.stringify(report.checks, null, 1)).toEqual([]);
    expect(start).toMatchObject({ status: 'passed', summary: expect.stringMatching(/GET \/health 200\); not counted, as the sandbox lacks what they need: GET \/drop \(it needs the network, which the sandbox does not have\)$/) });
  });

  it('fails a route that takes the server down, with the crash and its output', { timeout: 60_000 }, async () => {
    const report = await executeProject(server("  if (req.url === '/drop') throw new TypeError('cannot read the list');"), { env: {} });
    const start = find(report, 'start')[0]!;
    expect(start.status, JSON.stringify(report.checks, null, 1)).toBe('failed');
    expect(start.problems[0]).toMatchObject({ message: expect.stringMatching(/^GET \/drop closed the connection/), output: expect.stringMatching(/TypeError: cannot read the list/) });
    expect(start.problems[1]).toMatchObject({ path: 'server.js', message: expect.stringMatching(/^the server stopped while its routes and pages were asked: .*TypeError: cannot read the list/) });
  });
});
