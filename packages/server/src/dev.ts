import { startServer } from './index.js';

// `pnpm --filter @wolfpack/server dev`: the API with hot reload (node --watch) for Vite's proxy.
const server = await startServer({ port: Number(process.env.PORT ?? 3000), webDir: false });
console.log(`Wolfpack API listening at ${server.url} (${server.database})`);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void server.close().then(() => process.exit(0)));
}
