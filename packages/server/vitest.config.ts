import { defineConfig } from 'vitest/config';
import { workspaceSource } from '../../vitest.shared.js';

export default defineConfig({
  ...workspaceSource,
  test: {
    globalSetup: ['src/testing/global-setup.ts'],
    include: ['src/**/*.test.ts'],
    // Integration tests share one PGlite data dir per file; files run in parallel forks.
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
