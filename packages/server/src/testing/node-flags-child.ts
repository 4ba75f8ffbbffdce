// A process that asks for the server's Node flags as the server's entry points do, then says what
// it ended up with (node-flags.test.ts): its pid, its flags, its arguments and its young generation.
import { getHeapSpaceStatistics } from 'node:v8';
import { withServerNodeFlags } from '../node-flags.js';

withServerNodeFlags();
const newSpace = getHeapSpaceStatistics().find((space) => space.space_name === 'new_space');
process.stdout.write(
  `${JSON.stringify({ pid: process.pid, execArgv: process.execArgv, args: process.argv.slice(2), newSpaceBytes: newSpace?.space_size ?? 0, marker: process.env['NODE_FLAGS_MARKER'] })}\n`,
);
