// @ts-check
/**
 * Mutation testing of the server's ledger writes: the SQL of a ledger entry and of a hold
 * (ledger-writes.ts) and the one statement that writes them with the wallet, gated
 * (db/one-statement.ts: a reservation, a settlement, the run's end). The tests
 * are integration tests on PGlite and on PostgreSQL (127.0.0.1:5432, when reachable). Run by
 * `pnpm mutate` (scripts/mutate.sh), never by `pnpm test`; results in docs/MUTATION.md.
 * @type {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
export default {
  // pnpm keeps the runner out of Stryker's own folder, where Stryker looks for `@stryker-mutator/*`.
  plugins: [import.meta.resolve('@stryker-mutator/vitest-runner')],
  testRunner: 'vitest',
  // The package's config with only the ledger's and billing's tests (see that file).
  vitest: { configFile: 'vitest.mutation.config.ts', related: true },
  mutate: ['src/services/billing/ledger-writes.ts', 'src/db/one-statement.ts'],
  coverageAnalysis: 'perTest',
  // One runner: each test starts a server with its own database, and the machine's two cores are
  // shared with other people's test runs.
  concurrency: 1,
  incremental: true,
  incrementalFile: '../../reports/mutation/server/stryker-incremental.json',
  // Each sandbox sits two levels below the repository root, as the package does, so relative paths
  // out of the package (vitest.config.ts's ../../vitest.shared.js, tsconfig's ../../tsconfig.base.json) still hold.
  tempDirName: '../../.stryker-tmp',
  // So nothing needs rewriting, and Stryker's rewriter needs TypeScript 5's JavaScript API, which
  // TypeScript 7 does not have: it is pointed at a file that does not exist, which turns it off.
  tsconfigFile: 'tsconfig.stryker-none.json',
  ignorePatterns: ['dist', 'bench'],
  // A test starts a server and a database: give a mutant's run room on a busy machine.
  timeoutMS: 30_000,
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: '../../reports/mutation/server/index.html' },
  jsonReporter: { fileName: '../../reports/mutation/server/mutation.json' },
  clearTextReporter: { logTests: false, allowColor: false },
  thresholds: { high: 95, low: 85, break: 85 },
};
