import { defineConfig } from 'vitest/config';
import { workspaceSource } from '../../vitest.shared.js';

export default defineConfig({
  ...workspaceSource,
  test: {
    include: ['src/**/*.test.ts'],
    // Builds core, server and the CLI: the integration tests run dist/bin.js as a child process.
    globalSetup: ['./vitest.global-setup.ts'],
    // Integration tests share one PGlite data dir per file; files run in parallel forks.
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
