// A Wolfpack server in its own process, for tests that kill it (SIGKILL) mid-run like a crash.
// Prints one JSON line {"url": ...} once it accepts requests.
import { startServer } from '../index.js';

const server = await startServer({ port: 0, quiet: true, webDir: false, dataDir: process.env.WOLFPACK_DATA_DIR! });
process.stdout.write(`${JSON.stringify({ url: server.url })}\n`);
