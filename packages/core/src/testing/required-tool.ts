/**
 * Tests that need a program of the machine's (tmux, bubblewrap, unzip, Chromium) ask here first.
 * A check that is skipped must say why, and under `npm test` (which installs every such tool and
 * sets WOLFPACK_TEST_REQUIRE_TOOLS=1) a missing one fails the run instead: CI never passes by
 * quietly skipping what it could not run.
 */
import { spawnSync } from 'node:child_process';

export interface ToolCheck {
  /** The program, as a person would install it (`tmux`, `bubblewrap`). */
  tool: string;
  /** Whether the tests can use it on this machine. */
  available: boolean;
  /** Why not, when it is not: what is missing and how to install it. */
  reason?: string;
}

const warned = new Set<string>();

/**
 * Whether the tool is here; when it is not, prints once per test file which tests are skipped and
 * why, or throws when WOLFPACK_TEST_REQUIRE_TOOLS=1. Use with `describe.skipIf(!needTool(...))`.
 */
export function needTool(check: ToolCheck, skipping: string, env: NodeJS.ProcessEnv = process.env): boolean {
  if (check.available) return true;
  const why = check.reason ?? `${check.tool} is not installed (Debian: apt-get install ${check.tool})`;
  if (env['WOLFPACK_TEST_REQUIRE_TOOLS'] === '1') {
    throw new Error(`${skipping} cannot run: ${why}. npm test installs it; with WOLFPACK_TEST_REQUIRE_TOOLS=1 a missing tool fails the run.`);
  }
  const line = `[skipped] ${skipping}: ${why}`;
  if (!warned.has(line)) {
    warned.add(line);
    console.warn(line);
  }
  return false;
}

/** Whether `command args…` runs and exits 0 (a version query, typically). */
export function commandWorks(command: string, args: string[]): boolean {
  const result = spawnSync(command, args, { stdio: 'ignore', timeout: 10_000 });
  return result.error === undefined && result.status === 0;
}
