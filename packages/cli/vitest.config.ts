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
    // Vitest's default is one worker fewer than the cores: one on a 2-core machine. These tests
    // mostly wait on the binary they run and the server it talks to, so three at a time overlap well.
    maxWorkers: 3,
    // File after file in one process: the in-process servers' modules are imported once.
    // Nothing in these tests changes process-wide state (no mocks, no env writes).
    isolate: false,
    // A guard against hangs, not a measure: each test drives a real binary and server, and on a
    // machine busy with other suites a whole CLI session took past 30 s, and the folders test's
    // twenty commands past 90 s (a slower 2-core machine at load 8, 27 November 2026).
    testTimeout: 240_000,
    hookTimeout: 120_000,
  },
});
