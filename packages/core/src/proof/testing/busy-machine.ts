/**
 * A machine kept busy for a test: busy loops, three a core, each in a session of its own as a
 * sandbox is (the scheduler shares CPU between sessions first), so a program in the sandbox waits
 * for a CPU most of the time.
 */
import { spawn } from 'node:child_process';
import { cpus } from 'node:os';

export async function onBusyMachine<T>(fn: () => Promise<T>): Promise<T> {
  const loops = Array.from({ length: 3 * cpus().length }, () => spawn(process.execPath, ['-e', 'for (;;);'], { stdio: 'ignore', detached: true }));
  try {
    return await fn();
  } finally {
    for (const loop of loops) loop.kill('SIGKILL');
  }
}
