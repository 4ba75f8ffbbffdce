import { Migration0001Accounts } from './migration-0001-accounts.js';

/** Applied in order on start, the same on PGlite and PostgreSQL. Append only. */
export const migrationsList = [Migration0001Accounts];
