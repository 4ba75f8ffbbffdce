/**
 * Resolution shared by every package's Vitest config: workspace packages resolve to their
 * TypeScript source through the `@wolfpack/source` export condition, so tests never run against a
 * stale build. Vite applies `resolve.conditions` to the browser environment only; tests in Node
 * run in the SSR environment, which needs `ssr.resolve.conditions` (with Vite's defaults kept).
 */
export const workspaceSource = {
  resolve: { conditions: ['@wolfpack/source', 'module', 'browser', 'development|production'] },
  ssr: { resolve: { conditions: ['@wolfpack/source', 'module', 'node', 'development|production'] } },
};
