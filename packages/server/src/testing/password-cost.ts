import type { ScryptCost } from '../services/accounts/password.js';

/**
 * The scrypt cost test servers hash passwords with: 1/128 of the real one (~2 ms a hash instead of
 * ~260 ms), since the suites sign up and in hundreds of times and hashing is not what they test.
 * The tests about the hash itself use PASSWORD_COST, as every real server does.
 */
export const TEST_PASSWORD_COST: ScryptCost = { N: 2 ** 10, r: 8, p: 1 };
