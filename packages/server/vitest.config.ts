import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { conditions: ['@wolfpack/source'] },
  test: {
    globalSetup: ['src/testing/global-setup.ts'],
    include: ['src/**/*.test.ts'],
    // Integration tests share one PGlite data dir per file; files run in parallel forks.
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
