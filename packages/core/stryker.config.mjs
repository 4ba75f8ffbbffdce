// @ts-check
/**
 * Mutation testing of core's rules that hold money and truth: billing (money, guardrails,
 * referrals), the verification record (where a run's verdict passed / failed / unproven is
 * decided) and the start verdict of Proven Code. Run by `pnpm mutate` (scripts/mutate.sh), never
 * by `pnpm test`; results in docs/MUTATION.md.
 * @type {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
export default {
  // pnpm keeps the runner out of Stryker's own folder, where Stryker looks for `@stryker-mutator/*`.
  plugins: [import.meta.resolve('@stryker-mutator/vitest-runner')],
  testRunner: 'vitest',
  // The package's config (workspace packages resolve to their TypeScript sources) with only the
  // rules' own unit tests. Left out: tests that reach these files only on the way (engines,
  // pipeline, admin metrics) and the sandbox's integration tests, which run real programs under
  // bubblewrap: a static mutant (a module-level regex or table) reruns every test that imports its
  // file, so with them a run took hours on two cores instead of minutes.
  vitest: { configFile: 'vitest.mutation.config.ts', related: true },
  mutate: ['src/billing/**/*.ts', '!src/billing/**/*.test.ts', 'src/verification/**/*.ts', '!src/verification/**/*.test.ts', 'src/proof/start-verdict.ts'],
  coverageAnalysis: 'perTest',
  // Two cores, shared with other people's test runs.
  concurrency: 2,
  incremental: true,
  incrementalFile: '../../reports/mutation/core/stryker-incremental.json',
  // Each sandbox sits two levels below the repository root, as the package does, so relative paths
  // out of the package (vitest.config.ts's ../../vitest.shared.js, tsconfig's ../../tsconfig.base.json) still hold.
  tempDirName: '../../.stryker-tmp',
  // So nothing needs rewriting, and Stryker's rewriter needs TypeScript 5's JavaScript API, which
  // TypeScript 7 does not have: it is pointed at a file that does not exist, which turns it off.
  tsconfigFile: 'tsconfig.stryker-none.json',
  ignorePatterns: ['dist', 'bench'],
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: '../../reports/mutation/core/index.html' },
  jsonReporter: { fileName: '../../reports/mutation/core/mutation.json' },
  clearTextReporter: { logTests: false, allowColor: false },
  thresholds: { high: 95, low: 85, break: 85 },
};
