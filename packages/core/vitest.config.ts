import { defineConfig } from 'vitest/config';
import { workspaceSource } from '../../vitest.shared.js';

export default defineConfig({
  ...workspaceSource,
  test: { include: ['src/**/*.test.ts'] },
});
