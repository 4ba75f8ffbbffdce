// Each sandbox bounded as a whole, with real processes: many children that together pass the
// memory limit, a fork bomb, a tree left running at the deadline. The peak the group allowed is
// read from its own counters, the whole tree is gone when the run returns, the group is removed,
// and the verdict names the limit the counters say was hit. Then the same without control groups
// (the /proc watchdog), and a program that only says the disk is full.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { needTool } from '../testing/required-tool.js';
import { survivors } from '../testing/survivors.js';
import { withProjectCopy } from './project-copy.js';
import { executeProject } from './execute-project.js';
import { findSandbox, type Sandbox, type SandboxResult, type SandboxRun } from './sandbox.js';
import { groupMode } from './group-mode.js';
import { launchGroupScript, sweepLaunchGroups } from './sandbox-group.js';
import * as hostile from './fixtures/hostile.js';

const MiB = 1024 * 1024;
const bwrapInstalled = needTool({ tool: 'bubblewrap', available: existsSync('/usr/bin/bwrap') }, 'the sandbox group tests');
const mode = groupMode(process.env);
// Control groups need root here (or a delegated subtree); the watchdog tests run anywhere.
const withGroups = bwrapInstalled && mode.kind !== 'watchdog';

let grouped: Sandbox;
let watched: Sandbox;

beforeAll(async () => {
  if (!bwrapInstalled) return;
  const found = await findSandbox();
  const off = await findSandbox({ env: { ...process.env, WOLFPACK_PROOF_CGROUP: 'off' } });
  if (!('sandbox' in found) || !('sandbox' in off)) throw new Error('bwrap is installed but unusable');
  grouped = found.sandbox;
  watched = off.sandbox;
});

const run = (sandbox: Sandbox, files: Record<string, string>, argv: string[], limits: SandboxRun['limits']) =>
  withProjectCopy(files, (dir) => sandbox.run(dir, { argv, limits }));

/** The folders groups are made in, one for each hierarchy (none for the watchdog). */
const groupParents = (): string[] => (mode.kind === 'cgroup2' ? [mode.dir] : mode.kind === 'cgroup1' ? [...new Set(Object.values(mode.dirs))] : []);

/** Groups whose names start with `prefix`, in any hierarchy. */
const groupsNamed = (prefix: string): string[] => groupParents().flatMap((parent) => readdirSync(parent).filter((name) => name.startsWith(prefix)));

/** This process's run groups still present in any hierarchy. */
const groupsLeft = (): string[] => groupsNamed(`run-${process.pid}-`);

const marker = () => `m${process.pid}x${Math.random().toString(36).slice(2, 8)}`;

describe.skipIf(!withGroups)(`a sandbox in its own control group (${mode.kind})`, () => {
  it('holds four memory-hungry children to the group limit together, then kills them all', { timeout: 30_000 }, async () => {
    const m = marker();
    // 4 × 160 MB against 256 MiB: each child alone is far below every per-program limit.
    const started = performance.now();
    const result = await run(grouped, hostile.hogsMemoryInChildren(m, 4, 160), ['node', 'main.js', m], { wallMs: 20_000, sandboxMemoryBytes: 256 * MiB });
    const tookMs = performance.now() - started;
    expect(result.stopped).toBe('memory');
    expect(result.usage?.mode).toBe(mode.kind);
    // The peak the group allowed: at its limit, never past it.
    expect(result.usage?.memoryPeakBytes).toBeLessThanOrEqual(256 * MiB);
    expect(result.usage?.memoryPeakBytes).toBeGreaterThan(200 * MiB);
    // Killed at the limit, long before its deadline (the children's start is most of that), and all gone within a second of it.
    expect(tookMs).toBeLessThan(10_000);
    expect(result.stopMs).toBeLessThan(1000);
    expect(survivors(m)).toEqual([]);
    expect(groupsLeft()).toEqual([]);
  });

  it('stops a fork bomb at the group process limit and leaves no process of it', { timeout: 30_000 }, async () => {
    const m = marker();
    const started = performance.now();
    const result = await run(grouped, hostile.forkBomb(m), ['sh', `bomb-${m}.sh`], { wallMs: 10_000, sandboxProcesses: 32, processes: 256 });
    const tookMs = performance.now() - started;
    expect(result.stopped).toBe('processes');
    expect(result.usage?.processesPeak).toBeLessThanOrEqual(32);
    expect(result.usage?.processesPeak).toBeGreaterThanOrEqual(24);
    expect(tookMs).toBeLessThan(5000);
    // Killed within a second of the sample that saw the limit hit; on an idle machine the bomb may
    // collapse by itself (every fork refused) before a sample comes, and the counters name it then.
    if (result.stopMs !== undefined) expect(result.stopMs).toBeLessThan(1000);
    expect(survivors(m)).toEqual([]);
    expect(groupsLeft()).toEqual([]);
  });

  it('kills the whole tree at the deadline, background processes included', { timeout: 20_000 }, async () => {
    const m = marker();
    // A child, an orphan and one in a session of its own, each a shell (named by the marker) waiting on a sleep.
    const sleeper = `sh -c 'sleep 1000; :' ${m}`;
    const files = { [`tree-${m}.sh`]: `${sleeper} &\n(${sleeper} &)\nsetsid ${sleeper} &\nwait\n` };
    const started = performance.now();
    const result = await run(grouped, files, ['sh', `tree-${m}.sh`], { wallMs: 1000 });
    expect(result.stopped).toBe('time');
    expect(performance.now() - started).toBeLessThan(4000);
    expect(result.stopMs).toBeLessThan(1000);
    expect(survivors(m)).toEqual([]);
    expect(groupsLeft()).toEqual([]);
  });

  it('bounds CPU to its share: two busy processes get a tenth of a core between them', { timeout: 20_000 }, async () => {
    const files = { 'main.js': `const { fork } = require('node:child_process');\nif (process.argv[2] !== 'child') { fork(__filename, ['child']); fork(__filename, ['child']); }\nelse for (;;) {}\n` };
    const result = await run(grouped, files, ['node', 'main.js'], { wallMs: 2000, sandboxCpuPercent: 10 });
    expect(result.stopped).toBe('time');
    // A tenth of a core for ~2 s of wall time: about 0.2 s of CPU, however many cores are free
    // (some slack for the last period); without the quota each busy process alone would take more.
    expect(result.usage?.cpuNs).toBeLessThan(0.3e9);
    expect(result.usage?.cpuNs).toBeGreaterThan(0.1e9);
  });
});

describe.skipIf(!withGroups)(`a browser launcher's own group (${mode.kind})`, () => {
  it('starts where a group named after its pid is left behind (pids are reused), and its groups are swept once empty', () => {
    const limits = { memoryBytes: 256 * MiB, processes: 64, cpuPercent: 100 };
    // One shell running two launch scripts stands for a pid handed out again while the group of
    // the browser that had it is still there.
    const script = `${launchGroupScript(mode, limits, 97)}\n${launchGroupScript(mode, limits, 97)}\necho $$`;
    const shell = spawnSync('sh', ['-c', script], { encoding: 'utf8' });
    expect(shell.stderr).toBe('');
    expect(shell.status).toBe(0);
    const pid = shell.stdout.trim();
    expect(groupsNamed(`launch-${pid}-`)).toHaveLength(2 * groupParents().length);
    sweepLaunchGroups(mode);
    expect(groupsNamed(`launch-${pid}-`)).toEqual([]);
  });

  it('is one launcher script for every browser with the same limits, not a new file each launch', () => {
    const limits = { processes: 64 };
    expect(grouped.launcher('/usr/bin/true', { limits })).toBe(grouped.launcher('/usr/bin/true', { limits }));
  });
});

describe.skipIf(!bwrapInstalled)('a sandbox without control groups (the watchdog)', () => {
  it('says so and still kills memory-hungry children past the limit, from its samples', { timeout: 30_000 }, async () => {
    expect(watched.limitMode).toBe('watchdog');
    expect(watched.notes.join(' ')).toContain('watchdog');
    const m = marker();
    // Slow growth (4 × 8 MB every 50 ms): a sample every 100 ms sees it cross.
    const result = await run(watched, hostile.hogsMemoryInChildren(m, 4, 160, 8, 50), ['node', 'main.js', m], { wallMs: 20_000, sandboxMemoryBytes: 256 * MiB });
    expect(result.stopped).toBe('memory');
    expect(result.usage?.mode).toBe('watchdog');
    // The sampled peak that tripped it: past the limit by at most what grows between two samples (and the sampling's own lag).
    expect(result.usage?.memoryPeakBytes).toBeGreaterThan(256 * MiB);
    expect(result.usage?.memoryPeakBytes).toBeLessThan(256 * MiB + 160 * MiB);
    expect(result.stopMs).toBeLessThan(1000);
    expect(survivors(m)).toEqual([]);
  });

  it('counts what its tmpfs holds, which no process shows as RSS', { timeout: 30_000 }, async () => {
    const m = marker();
    // 8 MB files into /tmp every 20 ms, up to 200 MB, then it waits: the writer itself stays small.
    const files = { 'main.js': `const fs = require('node:fs');\nconst block = Buffer.alloc(8 << 20, 1);\nlet i = 0;\nconst t = setInterval(() => { fs.writeFileSync('/tmp/f' + i, block); if (++i === 25) clearInterval(t); }, 20);\nsetInterval(() => {}, 1000);\n` };
    const result = await run(watched, files, ['node', 'main.js', m], { wallMs: 20_000, sandboxMemoryBytes: 128 * MiB, tmpBytes: 256 * MiB });
    expect(result.stopped).toBe('memory');
    expect(result.usage?.memoryPeakBytes).toBeGreaterThan(128 * MiB);
    expect(result.usage?.memoryPeakBytes).toBeLessThan(128 * MiB + 64 * MiB);
    expect(survivors(m)).toEqual([]);
  });

  it('kills a sandbox past its process limit', { timeout: 30_000 }, async () => {
    const m = marker();
    const result = await run(watched, hostile.spawnsSlowly(m, 20), ['sh', `spawn-${m}.sh`], { wallMs: 15_000, sandboxProcesses: 40 });
    expect(result.stopped).toBe('processes');
    expect(result.usage?.processesPeak).toBeGreaterThan(40);
    expect(result.usage?.processesPeak).toBeLessThan(60);
    expect(survivors(m)).toEqual([]);
  });
});

describe.skipIf(!bwrapInstalled)('the verdict', () => {
  it('does not say "filled the disk" or "out of memory" for a program that only prints so', async () => {
    const result = await run(grouped, hostile.saysDiskFull, ['node', 'main.js'], {});
    expect(result.exitCode).toBe(1);
    expect(result.stopped).toBeUndefined();
  });

  it('says the disk was full when the sandbox found its copy full', { timeout: 20_000 }, async () => {
    const result = await run(grouped, hostile.fillsDisk, ['node', 'main.js'], { diskBytes: 32 * MiB });
    expect(result.stopped).toBe('disk');
    expect(result.stderr).toContain('ENOSPC');
    expect(result.stderr).not.toContain('wolfpack-sandbox: full');
  });
});

describe.skipIf(!withGroups)('a Proven Code test run at the limits of its sandbox', () => {
  /** The real sandbox with `limits` small for the test, each result kept: the peak its group allowed is read from there. */
  const recording = (limits: SandboxRun['limits']) => {
    const results: SandboxResult[] = [];
    const sandbox: Sandbox = Object.create(grouped, {
      run: { value: async (dir: string, command: SandboxRun) => {
        const result = await grouped.run(dir, { ...command, limits: { ...command.limits, ...limits } });
        results.push(result);
        return result;
      } },
    });
    return { sandbox, results };
  };

  it('fails tests whose children together pass the memory limit, naming it, with the peak at the limit', { timeout: 60_000 }, async () => {
    const m = marker();
    const hog = hostile.hogsMemoryInChildren(m, 4, 160);
    const files = {
      'child.js': hog['child.js']!,
      'hog.test.js': `const { test } = require('node:test');\nconst { spawn } = require('node:child_process');\ntest('holds a lot', () => new Promise(() => { for (let i = 0; i < 4; i++) spawn(process.execPath, [__dirname + '/child.js', '${m}'], { stdio: 'inherit' }); }));\n`,
    };
    const { sandbox, results } = recording({ sandboxMemoryBytes: 256 * MiB });
    const report = await executeProject(files, { sandbox, env: {} });
    const tests = report.checks.find((c) => c.check === 'tests')!;
    expect(tests).toMatchObject({ status: 'failed', problems: [{ message: 'the tests did not finish: it ran out of memory (the sandbox memory limit)' }] });
    const run = results.find((r) => r.stopped === 'memory')!;
    expect(run.usage?.memoryPeakBytes).toBeLessThanOrEqual(256 * MiB);
    expect(run.usage?.memoryPeakBytes).toBeGreaterThan(200 * MiB);
    expect(run.stopMs).toBeLessThan(1000);
    expect(survivors(m)).toEqual([]);
  });

  it('fails tests that fork without end, naming the process limit, with the peak at the limit', { timeout: 60_000 }, async () => {
    const m = marker();
    // A test that never stops forking: each child stays (a sleep named by the marker), and a refused
    // fork is tried again, so only the sandbox ends it. (A shell fork bomb may die out by itself
    // once forks fail, and tests that then exit 0 are theirs to judge.)
    const files = {
      'bomb.test.js': `const { test } = require('node:test');\nconst { spawn } = require('node:child_process');\ntest('forks', () => new Promise(() => {\n  const more = () => { const child = spawn('sleep', ['60'], { argv0: 'sleep-${m}' }); child.on('spawn', more); child.on('error', () => setTimeout(more, 1)); };\n  more();\n}));\n`,
    };
    const { sandbox, results } = recording({ sandboxProcesses: 48 });
    const report = await executeProject(files, { sandbox, env: {} });
    const tests = report.checks.find((c) => c.check === 'tests')!;
    expect(tests).toMatchObject({ status: 'failed', problems: [{ message: 'the tests did not finish: it started more processes than the sandbox allows (the process limit)' }] });
    const run = results.find((r) => r.stopped === 'processes')!;
    expect(run.usage?.processesPeak).toBeLessThanOrEqual(48);
    expect(run.stopMs).toBeLessThan(1000);
    expect(survivors(m)).toEqual([]);
  });
});
