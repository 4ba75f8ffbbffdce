import { defineConfig } from 'vitest/config';
import { workspaceSource } from '../../vitest.shared.js';

export default defineConfig({
  ...workspaceSource,
  // Vitest's default is one worker fewer than the cores (one on a 2-core machine); the sandbox and
  // engine tests wait on processes and sockets, so two overlap well.
  // The timeouts guard against hangs, not a measure: tests that run the TypeScript checker took
  // 6–9 s on a slower 2-core machine busy with another suite (Vitest's default is 5 s); expect.poll
  // waits on processes and sandboxes too, past Vitest's 1 s there (a poll that holds returns at once).
  test: { include: ['src/**/*.test.ts'], maxWorkers: 2, testTimeout: 60_000, hookTimeout: 60_000, expect: { poll: { timeout: 15_000 } } },
});
