import { defineConfig } from 'vitest/config';
import { workspaceSource } from '../../vitest.shared.js';

// Unit tests only; browser tests run with vitest.e2e.config.ts.
export default defineConfig({
  ...workspaceSource,
  test: { include: ['src/**/*.test.ts'], environment: 'node' },
});
