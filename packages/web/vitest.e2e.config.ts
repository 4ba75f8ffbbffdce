import { defineConfig } from 'vitest/config';
import { workspaceSource } from '../../vitest.shared.js';

/** Browser tests: `pnpm --filter @wolfpack/web e2e` (see e2e/harness.ts). */
export default defineConfig({
  // @wolfpack/server and @wolfpack/core run from their TypeScript sources.
  ...workspaceSource,
  test: {
    include: ['e2e/**/*.spec.ts'],
    // No file cache of transformed modules: with it, a global setup that loads the server from its
    // sources was served stale modules after the server's files changed (every spec then failed
    // with "listenHttp is not a function" until node_modules/.vitest-cache was removed).
    fsModuleCache: false,
    globalSetup: ['e2e/global-setup.ts'],
    // The specs drive the built app, which Vite's module graph cannot see into: with --changed
    // (pnpm test:changed), any change to the web app's sources reruns them all.
    forceRerunTriggers: ['**/package.json/**', '**/vitest.config.*/**', '**/vite.config.*/**', '**/packages/web/src/**', '**/packages/web/index.html'],
    // The global setup builds the app, creates a PGlite database and starts the run's one Chromium.
    hookTimeout: 180_000,
    // npm test runs this suite beside another on two cores, on machines up to twice as slow as
    // each other: a test that takes 18 s with two busy loops took over 60 s there. A timeout only
    // bounds a hang, so every test gets the room the slowest needs.
    testTimeout: 180_000,
    // Two files at a time against the one shared server and Chromium (each test its own browser
    // context and users): most of a browser test is waiting, so two overlap well even on two cores.
    maxWorkers: 2,
    // expect.poll waits on servers, sandboxes and browsers here, which a loaded machine slows far
    // past Vitest's 1 s; a poll that holds returns at once.
    expect: { poll: { timeout: 15_000 } },
  },
});
