// Runs the test suites side by side, each in a vitest process of its own, and prints each suite's
// output whole when it ends (never interleaved), then the summary: every suite's wall time and
// counts and the slowest test files (scripts/test-summary.mjs, from vitest's JSON reports).
//
//   node scripts/run-suites.mjs                  every suite
//   node scripts/run-suites.mjs core cli         only these
//   node scripts/run-suites.mjs --changed[=REF]  only the tests of what changed since REF (pnpm
//                                                test:changed; REF defaults to origin/main, or main
//                                                on another branch, or the uncommitted changes)
//   WOLFPACK_TEST_LANES=1 node scripts/run-suites.mjs   one suite at a time
//
// Why side by side: most of the suites' time is waiting (on PostgreSQL and PGlite, on Chromium, on
// child processes and sockets), so on a 2-core machine two or three suites overlap well.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, createWriteStream, mkdtempSync, readFileSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { summarize } from './test-summary.mjs';

/** Longest first: the scheduler starts them in this order as lanes free up. */
const SUITES = [
  { name: 'web-e2e', filter: '@wolfpack/web', args: ['--config', 'vitest.e2e.config.ts'] },
  { name: 'server', filter: '@wolfpack/server', args: [] },
  { name: 'cli', filter: '@wolfpack/cli', args: [] },
  { name: 'core', filter: '@wolfpack/core', args: [] },
  { name: 'web-unit', filter: '@wolfpack/web', args: [] },
];

const args = process.argv.slice(2).filter((a) => a !== '--');
const isChanged = (a) => a === '--changed' || a.startsWith('--changed=');
// The last one wins: `pnpm test:changed --changed=HEAD~3` adds one after the script's own.
const changedArg = args.findLast(isChanged);
const wanted = args.filter((a) => !isChanged(a));
const changed = changedArg === undefined ? undefined : changedArg.includes('=') ? changedArg.slice('--changed='.length) : defaultBase();

/** What "changed" is measured against when no REF is given. */
function defaultBase() {
  const git = (...a) => spawnSync('git', a, { encoding: 'utf8' });
  if (git('rev-parse', '--verify', '--quiet', 'origin/main').status === 0) return 'origin/main';
  const branch = git('rev-parse', '--abbrev-ref', 'HEAD').stdout.trim();
  if (branch !== 'main' && git('rev-parse', '--verify', '--quiet', 'main').status === 0) return 'main';
  return 'HEAD';
}

const unknown = wanted.filter((name) => !SUITES.some((s) => s.name === name));
if (unknown.length > 0) {
  console.error(`run-suites: no suite named ${unknown.join(', ')} (the suites: ${SUITES.map((s) => s.name).join(', ')})`);
  process.exit(2);
}
const suites = wanted.length > 0 ? SUITES.filter((s) => wanted.includes(s.name)) : SUITES;
const lanes = Math.max(1, Number(process.env.WOLFPACK_TEST_LANES ?? 2));
const reportDir = process.env.WOLFPACK_TEST_REPORT_DIR ?? mkdtempSync(join(tmpdir(), 'wolfpack-test-reports-'));

/**
 * The suites' temporary files (each test file's databases, projects, sandboxes' copies, browser
 * profiles) go to memory when /dev/shm is a tmpfs with room: they are created and unlinked by the
 * thousand, which on a disk (ext4 with discard here) was a tenth of the server suite's CPU. A
 * TMPDIR the caller set is kept.
 */
function memoryTmpdir() {
  const TMPFS_MAGIC = 0x01021994;
  if (process.env.TMPDIR) return undefined;
  try {
    const fs = statfsSync('/dev/shm');
    if (fs.type !== TMPFS_MAGIC || fs.bavail * fs.bsize < 8 * 2 ** 30) return undefined;
    const dir = mkdtempSync('/dev/shm/wolfpack-tests-');
    // As /tmp: the sandbox's unprivileged user reaches the folders made for it inside.
    chmodSync(dir, 0o1777);
    return dir;
  } catch {
    return undefined;
  }
}
const scratch = memoryTmpdir();
// Memory held by a tmpfs is not given back until its files go: removed however the run ends,
// interrupted ones included (their handlers exit, which runs this).
if (scratch) process.once('exit', () => rmSync(scratch, { recursive: true, force: true }));
for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143]]) process.once(signal, () => process.exit(code));

if (changed) console.log(`Only the tests of what changed since ${changed === 'HEAD' ? 'the last commit (uncommitted changes)' : changed}.`);
const started = Date.now();
const minutes = (ms) => `${Math.floor(ms / 60_000)}m${String(Math.round((ms % 60_000) / 1000)).padStart(2, '0')}s`;
const running = new Map();
const timings = {};

function runSuite(suite) {
  return new Promise((resolve) => {
    const log = join(reportDir, `${suite.name}.log`);
    const out = createWriteStream(log);
    const t0 = Date.now();
    console.log(`== ${suite.name}: started`);
    const child = spawn(
      'pnpm',
      ['--filter', suite.filter, 'exec', 'vitest', 'run', ...suite.args, ...(changed ? [`--changed=${changed}`, '--passWithNoTests'] : []), '--reporter=default', '--reporter=json', `--outputFile=${join(reportDir, `${suite.name}.json`)}`],
      // Colours only when a person watches: CI logs stay plain text.
      { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...(scratch ? { TMPDIR: scratch } : {}), ...(process.stdout.isTTY ? { FORCE_COLOR: '1' } : { NO_COLOR: '1' }) } },
    );
    running.set(suite.name, t0);
    child.stdout.pipe(out, { end: false });
    child.stderr.pipe(out, { end: false });
    child.on('close', (code, signal) => {
      running.delete(suite.name);
      const ms = Date.now() - t0;
      timings[suite.name] = { ms, code, signal };
      out.end(() => {
        console.log(`\n== ${suite.name}: ${code === 0 ? 'passed' : `FAILED (exit ${code ?? signal})`} in ${minutes(ms)}`);
        process.stdout.write(readFileSync(log, 'utf8'));
        resolve(code === 0);
      });
    });
  });
}

// A line now and then, so a long run never looks hung.
const ticker = setInterval(() => {
  const now = Date.now();
  const list = [...running].map(([name, t0]) => `${name} ${minutes(now - t0)}`).join(', ');
  if (list) console.log(`   … ${minutes(now - started)} in: still running ${list}`);
}, 60_000);

const queue = [...suites];
const results = [];
await Promise.all(
  Array.from({ length: Math.min(lanes, queue.length) }, async () => {
    while (queue.length > 0) results.push(await runSuite(queue.shift()));
  }),
);
clearInterval(ticker);
writeFileSync(join(reportDir, 'timings.json'), JSON.stringify({ wallMs: Date.now() - started, lanes, suites: timings }));
const summaryOk = summarize(reportDir, { allowEmpty: Boolean(changed) });
process.exit(results.every(Boolean) && summaryOk ? 0 : 1);
