import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { conditions: ['@wolfpack/source'] },
  test: { include: ['src/**/*.test.ts'] },
});
