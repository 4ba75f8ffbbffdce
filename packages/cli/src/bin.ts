#!/usr/bin/env node
import { main } from './index.js';

const code = await main(process.argv.slice(2));
process.exitCode = code;
// Normally the process ends by itself here. If a library left a handle open (a timer, a socket),
// a finished command must still end: give pending output a moment, then exit. unref() keeps this
// timer from being the thing that holds the process open.
setTimeout(() => process.exit(code), 1000).unref();
