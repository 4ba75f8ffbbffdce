// `npm start` as a new user runs it, timed from the command to the "Wolfpack is running at" line
// with /api/health answering 200: a fresh clone of this repository's HEAD (target <= 90 s on this
// 2-core machine; it installs the toolchain and dependencies, then builds every package), the same
// clone started again unchanged (target <= 10 s: nothing is built), again after a one-line change
// to the web app (only web is built), and beside them `wolfpack serve` on the same data directory
// with no install or build step, the floor a restart cannot go below. The clone takes the committed
// tree: commit first. Needs the network for the first start's toolchain (or a warm npm cache).
import { execFileSync, spawn } from 'node:child_process';
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { THIS_TREE } from './serve-process.js';

const RUNNING = /Wolfpack is running at (http:\/\/\S+)/;

interface Start {
  seconds: number;
  /** The start-up's own lines about building ('wolfpack: building web'), or '' when it built nothing. */
  built: string;
  lines: number;
}

/** Runs `command` in `cwd` until it says it is running and /api/health answers 200; then stops it and its children. */
async function timeStart(cwd: string, command: string[]): Promise<Start> {
  const started = performance.now();
  const child = spawn(command[0]!, command.slice(1), {
    cwd,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    // PORT=0: a free port, which the running line names. The sandbox probe stays as users have it.
    env: { ...process.env, PORT: '0', NO_COLOR: '1', NODE_OPTIONS: '' },
  });
  const lines: string[] = [];
  const url = await new Promise<string>((resolve, reject) => {
    for (const stream of [child.stdout!, child.stderr!]) {
      createInterface({ input: stream }).on('line', (line) => {
        lines.push(line);
        const running = RUNNING.exec(line);
        if (running) resolve(running[1]!);
      });
    }
    child.once('exit', (code) => reject(new Error(`the start exited with ${code} before it served:\n${lines.join('\n')}`)));
  });
  for (;;) {
    const health = await fetch(`${url}/api/health`).then((res) => res.status, () => 0);
    if (health === 200) break;
    await new Promise((r) => setTimeout(r, 20));
  }
  const seconds = (performance.now() - started) / 1000;
  const exited = new Promise((r) => child.once('exit', r));
  process.kill(-child.pid!, 'SIGTERM');
  await exited;
  return { seconds, built: lines.filter((l) => /\bbuilding\b/i.test(l)).join('; '), lines: lines.length };
}

const dir = mkdtempSync(join(tmpdir(), 'wolfpack-restart-'));
const clone = join(dir, 'wolfpack');
try {
  execFileSync('git', ['clone', '--quiet', THIS_TREE, clone]);
  const npmStart = ['npm', 'start', '--silent'];
  const first = await timeStart(clone, npmStart);
  const second = await timeStart(clone, npmStart);
  const third = await timeStart(clone, npmStart);
  appendFileSync(join(clone, 'packages/web/src/main.tsx'), '\n// a one-line change\n');
  const changed = await timeStart(clone, npmStart);
  const node = join(clone, '.toolchain/bin/node');
  const floor = await timeStart(clone, [node, 'packages/cli/dist/bin.js', 'serve', '--port', '0', '--data-dir', './data']);

  const row = (label: string, start: Start, target: string) =>
    `| ${label} | ${start.seconds.toFixed(1)} s | ${(start.seconds / floor.seconds).toFixed(1)} x | ${start.built || 'nothing'} | ${start.lines} | ${target} |`;
  console.log(`npm start of a fresh clone of ${THIS_TREE} (HEAD), load average ${(await import('node:os')).loadavg()[0]!.toFixed(2)}\n`);
  console.log('| start | to healthy | ratio to serve alone | built | output lines | target |');
  console.log('| --- | ---: | ---: | --- | ---: | --- |');
  console.log(row('first, fresh clone', first, '<= 90 s'));
  console.log(row('second, unchanged', second, '<= 10 s'));
  console.log(row('third, unchanged', third, '<= 10 s'));
  console.log(row('after a one-line web change', changed, '(web only)'));
  console.log(row('wolfpack serve alone (floor)', floor, ''));
  if (first.seconds > 90 || second.seconds > 10 || third.seconds > 10) console.log('\nA start missed its target (see the table).');
} finally {
  rmSync(dir, { recursive: true, force: true });
}
