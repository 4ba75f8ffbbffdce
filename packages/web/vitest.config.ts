import { defineConfig } from 'vitest/config';
import { workspaceSource } from '../../vitest.shared.js';

// Unit tests only; browser tests run with vitest.e2e.config.ts. Component tests (*.test.tsx)
// render to static markup in Node: what a screen says without a browser.
export default defineConfig({
  ...workspaceSource,
  test: { include: ['src/**/*.test.ts', 'src/**/*.test.tsx'], environment: 'node', maxWorkers: 2 },
});
