import { defineConfig } from 'vitest/config';

// Unit tests only; browser tests run with vitest.e2e.config.ts.
export default defineConfig({
  resolve: { conditions: ['@wolfpack/source'] },
  test: { include: ['src/**/*.test.ts'], environment: 'node' },
});
