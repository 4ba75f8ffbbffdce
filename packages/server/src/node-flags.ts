/**
 * Node's (V8's) flags the server's process runs with, however it was started (`wolfpack serve`,
 * `npm start`, the image's `node dist/main.js`): each entry point calls {@link withServerNodeFlags}
 * before it loads anything else. A module of its own, with no imports, so the CLI's other commands
 * do not load the server to ask.
 *
 * `--min-semi-space-size=16`: V8's young generation never shrinks below the 16 MB a half that it
 * grows to under load (its default maximum). With Node's default (from 1 MB), a server that had been
 * quiet for a while, its young generation shrunk by V8's memory reducer, met a crowd of 1,000 event
 * streams opening with 4–8 young collections and a full one, where a server whose young generation
 * had stayed grown made one (`pnpm bench sse`, the first crowd: p99 197–316 ms against 90–114 ms, in
 * 8 sittings that fell 4 and 4 by the size their heap had when the crowd came). With the flag, 5 of
 * 5 sittings made one young collection and met 200 ms (78–174 ms); the RSS of the idle server is
 * the same (190 MB), its pages being touched only as the young generation fills. V8 reads it when
 * the process starts only: neither `NODE_OPTIONS` (Node refuses it there) nor `v8.setFlagsFromString`
 * can give it to a process already running.
 */
export const SERVER_NODE_FLAGS: readonly string[] = ['--min-semi-space-size=16'];

/** The flags of {@link SERVER_NODE_FLAGS} missing from `execArgv`; one given with another value counts as given. */
export function missingServerNodeFlags(execArgv: readonly string[] = process.execArgv): string[] {
  const given = new Set(execArgv.map((arg) => arg.split('=')[0]!.replaceAll('_', '-')));
  return SERVER_NODE_FLAGS.filter((flag) => !given.has(flag.split('=')[0]!));
}

/**
 * Starts this process again in place with the flags it lacks: `execve`, so the pid, the open
 * standard streams, the environment and the arguments stay; what the process did before is
 * gone, hence the call before anything else. Returns without doing anything when every flag is
 * there (the process started again, a cluster worker forked with the primary's flags, flags
 * given by hand), when `WOLFPACK_SERVER_NODE_FLAGS=off` asks for Node's defaults, or where Node
 * cannot (`process.execve` is for POSIX systems and Node 23.11 or later).
 */
export function withServerNodeFlags(env: NodeJS.ProcessEnv = process.env): void {
  if (env['WOLFPACK_SERVER_NODE_FLAGS'] === 'off') return;
  const missing = missingServerNodeFlags();
  if (missing.length === 0 || typeof process.execve !== 'function') return;
  process.execve(process.execPath, [process.execPath, ...missing, ...process.execArgv, ...process.argv.slice(1)], env);
}
