import { defineConfig } from 'vitest/config';
import { workspaceSource } from '../../vitest.shared.js';

export default defineConfig({
  ...workspaceSource,
  // Vitest's default is one worker fewer than the cores (one on a 2-core machine); the sandbox and
  // engine tests wait on processes and sockets, so two overlap well.
  test: { include: ['src/**/*.test.ts'], maxWorkers: 2 },
});
