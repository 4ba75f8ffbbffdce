// A Wolfpack server in its own process, for tests that kill it (SIGKILL) mid-run like a crash.
// Prints one JSON line {"url": ..., "instanceId": ..., "processes": [...]} once it accepts requests;
// SIGTERM closes it cleanly (its runs' leases are released for another server to take). One server
// process unless WOLFPACK_WORKERS asks for more (PostgreSQL): then this process is the cluster's
// primary, forks that many, and "processes" lists each one's pid and instance id.
import { isClusterWorker, serveClusterWorker, startServing, type StartServerOptions } from '../index.js';
import { TEST_PASSWORD_COST } from './password-cost.js';

const options: StartServerOptions = { port: 0, quiet: true, webDir: false, dataDir: process.env.WOLFPACK_DATA_DIR!, passwordCost: TEST_PASSWORD_COST };
if (isClusterWorker()) {
  await serveClusterWorker(options);
} else {
  const server = await startServing({ ...options, workers: Number(process.env.WOLFPACK_WORKERS ?? 1) });
  const processes = server.processes();
  process.stdout.write(`${JSON.stringify({ url: server.url, instanceId: processes[0]!.instanceId, processes })}\n`);
  process.once('SIGTERM', () => void server.close().then(() => process.exit(0)));
}
