// A Wolfpack server in its own process, for tests that kill it (SIGKILL) mid-run like a crash.
// Prints one JSON line {"url": ..., "instanceId": ...} once it accepts requests;
// SIGTERM closes it cleanly (its runs' leases are released for another server to take).
import { startServer } from '../index.js';
import { TEST_PASSWORD_COST } from './password-cost.js';

const server = await startServer({ port: 0, quiet: true, webDir: false, dataDir: process.env.WOLFPACK_DATA_DIR!, passwordCost: TEST_PASSWORD_COST });
process.stdout.write(`${JSON.stringify({ url: server.url, instanceId: server.instanceId })}\n`);
process.once('SIGTERM', () => void server.close().then(() => process.exit(0)));
