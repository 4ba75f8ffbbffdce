import { defineConfig } from 'vitest/config';
import base from './vitest.config.js';

/**
 * The tests Stryker runs (stryker.config.mjs): the package's config (its global setup makes the
 * PGlite and PostgreSQL templates) with only the tests of the ledger and what moves money through
 * it. Every integration test imports the whole app, so without this list each mutant of the
 * ledger's SQL would rerun the server's whole suite. Chosen here rather than with Stryker's
 * `testFiles`, which in 10.1.1 leaves static mutants inactive (stryker-js issues #6144, #6209).
 */
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: [
      'src/services/billing/ledger-service.int.test.ts',
      'src/db/one-statement.int.test.ts',
      'src/routes/run-billing.int.test.ts',
      'src/routes/payment-routes.int.test.ts',
      'src/routes/payment-routes.test.ts',
      'src/routes/referral-routes.int.test.ts',
      'src/services/runs/run-event-writer.test.ts',
    ],
  },
});
