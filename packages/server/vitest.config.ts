import { defineConfig } from 'vitest/config';
import { workspaceSource } from '../../vitest.shared.js';

export default defineConfig({
  ...workspaceSource,
  test: {
    globalSetup: ['src/testing/global-setup.ts'],
    include: ['src/**/*.test.ts'],
    // Vitest's default is one worker fewer than the cores: one on a 2-core machine. These tests
    // mostly wait (on PostgreSQL, PGlite, sockets, timers), so three files at a time overlap well.
    maxWorkers: 3,
    // A worker runs file after file in one process: the server's modules are imported once, not
    // once per file, and the file's reusable databases (testing/reusable-databases.ts) serve the
    // next file too. Nothing in these tests changes process-wide state (no mocks, no env writes).
    isolate: false,
    // Hang guards, not measures: a slower 2-core machine running two suites took 32 s for the
    // sign-up at OWASP's scrypt cost (27 November 2026).
    testTimeout: 90_000,
    hookTimeout: 120_000,
    // expect.poll waits on servers, sandboxes and browsers here, which a loaded machine slows far
    // past Vitest's 1 s; a poll that holds returns at once.
    expect: { poll: { timeout: 15_000 } },
  },
});
