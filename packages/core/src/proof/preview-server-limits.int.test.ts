// A previewed server is one sandbox like any other: a request that makes it start memory-hungry
// children or a fork bomb ends it at its group's limit (the peak read from the group's counters),
// nothing of it survives, and the exit names the limit. A server that keeps the CPU busy is
// stopped by its CPU budget.
import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { needTool } from '../testing/required-tool.js';
import { survivors } from '../testing/survivors.js';
import { sandboxCheck } from '../testing/sandbox-tool.js';
import { startPreviewServer, type PreviewServer } from './preview-server.js';
import { groupMode } from './group-mode.js';
import { planServer } from './server-plan.js';

const MiB = 1024 * 1024;
const sandboxed = needTool(await sandboxCheck(), 'the preview server limits (run in the sandbox)');
const mode = groupMode(process.env);

/** Sends a request and does not wait for an answer that may never come (the server is killed). */
function poke(socketPath: string, path: string): void {
  request({ socketPath, path, headers: { host: 'wolfpack.test' } })
    .on('error', () => undefined)
    .end();
}

// The app starts, on /hog, four children that take 160 MB each; on /bomb, a fork bomb; on /spin, a busy loop.
const app = (marker: string) => ({
  'server.js': `const { spawn } = require('node:child_process');
require('node:http').createServer((q, s) => {
  if (q.url === '/hog') for (let i = 0; i < 4; i++) spawn(process.execPath, ['child.js', '${marker}'], { stdio: 'inherit' });
  if (q.url === '/bomb') spawn('sh', ['bomb-${marker}.sh'], { stdio: 'inherit' });
  if (q.url === '/spin') for (;;) {}
  s.end('ok');
}).listen(process.env.PORT);
`,
  'child.js': `const keep = [];\nconst step = () => { if (keep.length < 10) { keep.push(Buffer.alloc(16 << 20, 1)); setTimeout(step, 10); } };\nstep();\nsetInterval(() => {}, 1000);\n`,
  [`bomb-${marker}.sh`]: `bomb() { bomb & bomb & wait; }\nbomb\n`,
});

describe.skipIf(!sandboxed)('a previewed server at its sandbox limits', () => {
  const running: PreviewServer[] = [];
  afterEach(async () => {
    await Promise.all(running.splice(0).map((s) => s.stop()));
  });
  const start = async (marker: string, env: NodeJS.ProcessEnv, cpuBudget?: { percent: number; windowMs: number }) => {
    const files = app(marker);
    const plan = planServer(files);
    if (!plan) throw new Error('not a server');
    const started = await startPreviewServer(files, plan, { env, ...(cpuBudget ? { cpuBudget } : {}) });
    if (!started.ok) throw new Error(JSON.stringify(started));
    running.push(started.server);
    return started.server;
  };
  const marker = () => `p${process.pid}x${Math.random().toString(36).slice(2, 8)}`;

  it.skipIf(mode.kind === 'watchdog')('ends at the memory limit of its whole sandbox, and says so', { timeout: 40_000 }, async () => {
    const m = marker();
    const server = await start(m, { WOLFPACK_PROOF_SANDBOX_MEMORY_BYTES: String(256 * MiB) });
    poke(server.socketPath, '/hog');
    const exit = await server.exited;
    expect(exit).toMatchObject({ reason: 'crashed', stopped: 'memory', problem: { message: expect.stringContaining('ran out of memory (the sandbox memory limit)') } });
    if (exit.reason !== 'crashed') throw new Error('expected a crash');
    expect(exit.usage?.memoryPeakBytes).toBeLessThanOrEqual(256 * MiB);
    expect(exit.usage?.memoryPeakBytes).toBeGreaterThan(200 * MiB);
    expect(survivors(m)).toEqual([]);
  });

  it.skipIf(mode.kind === 'watchdog')('ends at the process limit of its whole sandbox, and says so', { timeout: 40_000 }, async () => {
    const m = marker();
    const server = await start(m, { WOLFPACK_PROOF_SANDBOX_PROCESSES: '64' });
    poke(server.socketPath, '/bomb');
    const exit = await server.exited;
    expect(exit).toMatchObject({ reason: 'crashed', stopped: 'processes', problem: { message: expect.stringContaining('(the process limit)') } });
    if (exit.reason !== 'crashed') throw new Error('expected a crash');
    expect(exit.usage?.processesPeak).toBeLessThanOrEqual(64);
    expect(exit.usage?.processesPeak).toBeGreaterThan(48);
    expect(survivors(m)).toEqual([]);
  });

  it('is stopped when it keeps the CPU busy past its budget', { timeout: 40_000 }, async () => {
    const m = marker();
    // 10 % of a core over 2 s: whatever the machine's load, a busy loop gets more than that.
    const server = await start(m, {}, { percent: 10, windowMs: 2000 });
    // Idle after its start (counted apart), it keeps running past a whole window.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    expect(await Promise.race([server.exited, Promise.resolve('running')])).toBe('running');
    const asked = performance.now();
    poke(server.socketPath, '/spin');
    const exit = await server.exited;
    expect(exit).toMatchObject({ reason: 'crashed', stopped: 'cpu-budget', problem: { message: expect.stringContaining('the preview CPU limit') } });
    // The last 2 s held more than 0.2 s of CPU soon after the loop began; the check runs each second.
    expect(performance.now() - asked).toBeLessThan(4000);
    expect(survivors(m)).toEqual([]);
  });
});
