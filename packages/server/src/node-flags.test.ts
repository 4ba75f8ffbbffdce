import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { missingServerNodeFlags, SERVER_NODE_FLAGS } from './node-flags.js';

const CHILD = fileURLToPath(new URL('./testing/node-flags-child.ts', import.meta.url));
const LOADER = ['--conditions=@wolfpack/source', '--import', 'tsx'];
type Report = { pid: number; execArgv: string[]; args: string[]; newSpaceBytes: number; marker?: string };

/** Runs the child with these Node flags and environment: the one line it printed, and its pid as spawned. */
function runChild(nodeArgs: string[], env: NodeJS.ProcessEnv = {}): Promise<{ spawnedPid: number; reports: Report[] }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeArgs, ...LOADER, CHILD, 'serve', '--port', '0'], { env: { ...process.env, NODE_FLAGS_MARKER: 'kept', ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`the child exited ${code}: ${out}`));
      resolve({ spawnedPid: child.pid!, reports: out.trim().split('\n').map((line) => JSON.parse(line) as Report) });
    });
  });
}

describe('the server’s Node flags', () => {
  it('knows a flag given by hand, with its own value or spelt with underscores, as given', () => {
    expect(missingServerNodeFlags([])).toEqual([...SERVER_NODE_FLAGS]);
    expect(missingServerNodeFlags(['--min-semi-space-size=8'])).toEqual([]);
    expect(missingServerNodeFlags(['--min_semi_space_size=8', '--expose-gc'])).toEqual([]);
    expect(missingServerNodeFlags(['--max-semi-space-size=16'])).toEqual([...SERVER_NODE_FLAGS]);
  });

  it('starts a process without them again in place, with them: same pid, arguments, environment and its own flags', async () => {
    const { spawnedPid, reports } = await runChild(['--expose-gc']);
    // One line: the first process image never printed; the second did, as the same process.
    expect(reports).toHaveLength(1);
    const [report] = reports;
    expect(report!.pid).toBe(spawnedPid);
    expect(report!.execArgv).toEqual([...SERVER_NODE_FLAGS, '--expose-gc', ...LOADER]);
    expect(report!.args).toEqual(['serve', '--port', '0']);
    expect(report!.marker).toBe('kept');
    // V8 took it: the young generation starts at 16 MB, not Node's 1 MB.
    expect(report!.newSpaceBytes).toBeGreaterThanOrEqual(16 * 1024 * 1024);
  });

  it("leaves a process that has them, or that asks for Node's defaults, as it is", async () => {
    const given = await runChild(['--min-semi-space-size=4']);
    expect(given.reports[0]!.execArgv).toEqual(['--min-semi-space-size=4', ...LOADER]);
    const off = await runChild([], { WOLFPACK_SERVER_NODE_FLAGS: 'off' });
    expect(off.reports[0]!.execArgv).toEqual(LOADER);
    expect(off.reports[0]!.newSpaceBytes).toBeLessThan(16 * 1024 * 1024);
  });
});
