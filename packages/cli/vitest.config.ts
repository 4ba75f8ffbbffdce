import { defineConfig } from 'vitest/config';
import { workspaceSource } from '../../vitest.shared.js';

export default defineConfig({
  ...workspaceSource,
  test: {
    include: ['src/**/*.test.ts'],
    // Builds core, server and the CLI: the integration tests run dist/bin.js as a child process.
    globalSetup: ['./vitest.global-setup.ts'],
    // The integration tests run the built binary, which Vite's module graph cannot see into: with
    // --changed (pnpm test:changed), any change to the CLI's own sources reruns them all.
    forceRerunTriggers: ['**/package.json/**', '**/vitest.config.*/**', '**/vite.config.*/**', '**/packages/cli/src/**/!(*.test).{ts,tsx}'],
    // Integration tests share one PGlite data dir per file; files run in parallel forks.
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
