import type { RunningServer } from './index.js';

// `node dist/main.js`: the server on its own, configured only by environment variables (PORT, HOST,
// DATABASE_URL, WOLFPACK_*; see docs/CONFIGURATION.md), serving the built web app next to it. This is what the
// Docker image runs: no CLI, no spinner, logs on stdout/stderr, and a clean close on SIGTERM, so a
// rolling restart ends this replica's streams and stops its runs instead of dying mid-write.

const stamp = () => new Date().toISOString();

// Listen before loading the server (hence the dynamic import below: a static one would load the
// whole server before this line runs). Start-up takes seconds, and a SIGTERM that arrives meanwhile
// must still end in a clean close; as PID 1 in a container, a signal nobody handles is dropped.
// Only the first signal counts: a second one gets the default handler and ends the process at
// once (as PID 1 without --init, the runtime's SIGKILL after its stop timeout does that).
const stopSignal = new Promise<NodeJS.Signals>((resolve) => {
  const stop = (signal: NodeJS.Signals) => {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    resolve(signal);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
});
// A signal during start-up: the server takes no run over, as it is about to close.
const closing = new AbortController();
void stopSignal.then(() => closing.abort());

let server: RunningServer | undefined;
try {
  const { startServer } = await import('./index.js');
  server = await startServer({ closing: closing.signal });
} catch (error) {
  // Start-up errors (bad configuration, a port in use, an unreachable database) are sentences;
  // startServer has closed what it opened, so the process ends on its own.
  console.error(`${stamp()} error Wolfpack could not start: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
if (server) {
  console.log(`${stamp()} info Wolfpack listening at ${server.url} (${server.database})`);
  const signal = await stopSignal;
  console.log(`${stamp()} info ${signal}: closing`);
  try {
    await server.close();
    process.exit(0);
  } catch (error) {
    console.error(`${stamp()} error closing failed`, error);
    process.exit(1);
  }
}
