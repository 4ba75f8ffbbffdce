import { defineConfig } from 'vitest/config';
import base from './vitest.config.js';

/**
 * The tests Stryker runs (stryker.config.mjs): the package's config, with only the unit tests of the
 * rules under mutation. Chosen here rather than with Stryker's `testFiles`, which in 10.1.1 makes
 * every static mutant (a module-level regex or table) run with runtime activation, after the module
 * was loaded, so it survives whatever the tests say (stryker-js issues #6144, #6209).
 */
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: ['src/billing/*.test.ts', 'src/verification/*.test.ts', 'src/proof/start-verdict.test.ts', 'src/proof/test-output.test.ts'],
  },
});
