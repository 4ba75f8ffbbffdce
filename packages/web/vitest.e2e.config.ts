import { defineConfig } from 'vitest/config';
import { workspaceSource } from '../../vitest.shared.js';

/** Browser tests: `pnpm --filter @wolfpack/web e2e` (see e2e/harness.ts). */
export default defineConfig({
  // @wolfpack/server and @wolfpack/core run from their TypeScript sources.
  ...workspaceSource,
  test: {
    include: ['e2e/**/*.spec.ts'],
    globalSetup: ['e2e/global-setup.ts'],
    // The specs drive the built app, which Vite's module graph cannot see into: with --changed
    // (pnpm test:changed), any change to the web app's sources reruns them all.
    forceRerunTriggers: ['**/package.json/**', '**/vitest.config.*/**', '**/vite.config.*/**', '**/packages/web/src/**', '**/packages/web/index.html'],
    // The global setup builds the app and creates a PGlite database (~3 s); Chromium launches per file.
    hookTimeout: 180_000,
    testTimeout: 60_000,
    // One shared server; files one after another keeps timing-sensitive checks steady on small machines.
    fileParallelism: false,
  },
});
