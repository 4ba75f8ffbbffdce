#!/usr/bin/env node
import { main } from './index.js';

// `wolfpack build --json | head -1`: the reader has gone, so there is no one left to tell; end
// quietly, as a program killed by SIGPIPE would, instead of crashing with a stack trace.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(141);
    throw error;
  });
}

const code = await main(process.argv.slice(2));
process.exitCode = code;
// Normally the process ends by itself here. If a library left a handle open (a timer, a socket),
// a finished command must still end: give pending output a moment, then exit. unref() keeps this
// timer from being the thing that holds the process open.
setTimeout(() => process.exit(code), 1000).unref();
