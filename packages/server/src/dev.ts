import { startServer } from './index.js';

// `pnpm --filter @wolfpack/server dev`: the API with hot reload (node --watch) for Vite's proxy.
// PORT and the rest come from the environment, as for `node dist/main.js`.
const server = await startServer({ webDir: false });
console.log(`Wolfpack API listening at ${server.url} (${server.database})`);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void server.close().then(() => process.exit(0)));
}
