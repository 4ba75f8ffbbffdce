import { EventEmitter } from 'node:events';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runClusterWorker, workerCount, type FromWorker, type ToWorker, type WorkerChannel, type WorkerServer } from './cluster.js';
import { loadConfig } from './config/env.js';
import { startServing } from './index.js';

const PGLITE_SENTENCE = '2 server processes (WOLFPACK_WORKERS or --workers) need PostgreSQL: the embedded database (PGlite) is opened by one process only. Set DATABASE_URL, or run 1.';

describe('how many server processes run', () => {
  it('one unless WOLFPACK_WORKERS says, on PostgreSQL as on PGlite', () => {
    expect(workerCount(undefined, true)).toBe(1);
    expect(workerCount(undefined, false)).toBe(1);
    expect(workerCount(3, true)).toBe(3);
    expect(workerCount(1, false)).toBe(1);
  });

  it.each(['0', '1.5', 'all', '257'])('WOLFPACK_WORKERS=%s is a sentence with the range', (value) => {
    expect(() => loadConfig({}, { WOLFPACK_WORKERS: value })).toThrow('WOLFPACK_WORKERS: WOLFPACK_WORKERS must be a whole number of server processes from 1 to 256');
  });

  it('more than one on PGlite is a sentence that says what to do', () => {
    expect(() => workerCount(2, false)).toThrow(PGLITE_SENTENCE);
  });

  it('startServing refuses them on PGlite before it opens anything', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'wolfpack-cluster-'));
    try {
      await expect(startServing({ port: 0, quiet: true, webDir: false, dataDir, env: {}, workers: 2 })).rejects.toThrow(PGLITE_SENTENCE);
      // No database was made, no secrets written: the refusal comes first.
      expect(await readdir(dataDir)).toEqual([]);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

describe('a server process of the cluster (runClusterWorker)', () => {
  /** The primary's side of the channel, as an event emitter; `said` is what the worker sent. */
  function channelToPrimary() {
    const emitter = new EventEmitter();
    const said: FromWorker[] = [];
    const channel: WorkerChannel = Object.assign(emitter, {
      send: (message: FromWorker) => said.push(message),
      disconnect: () => {},
      connected: true,
    });
    return { channel, emitter, said };
  }
  function stoppableServer() {
    const calls: string[] = [];
    const server: WorkerServer = { url: 'http://127.0.0.1:1', port: 1, instanceId: 'i', close: () => (calls.push('close'), Promise.resolve()) };
    return { server, calls };
  }

  it('says where it listens, and closes when the primary says so', async () => {
    const { channel, emitter, said } = channelToPrimary();
    const { server, calls } = stoppableServer();
    const running = runClusterWorker(() => Promise.resolve(server), channel);
    await new Promise((resolve) => setImmediate(resolve));
    expect(said).toEqual([{ wolfpack: 'listening', url: server.url, port: 1, instanceId: 'i' }]);
    expect(calls).toEqual([]);
    emitter.emit('message', { wolfpack: 'close' } satisfies ToWorker);
    await running;
    expect(calls).toEqual(['close']);
  });

  it('closes as soon as it has started when the primary said so while it was starting', async () => {
    const { channel, emitter, said } = channelToPrimary();
    const { server, calls } = stoppableServer();
    let started!: () => void;
    let closing!: AbortSignal;
    const running = runClusterWorker(
      (signal) =>
        new Promise<WorkerServer>((resolve) => {
          closing = signal;
          started = () => resolve(server);
        }),
      channel,
    );
    expect(closing.aborted).toBe(false);
    // The primary closes (its SIGTERM) while this replacement is still starting: the start hears
    // it (it then takes no run over: it may be killed before it could give one back).
    emitter.emit('message', { wolfpack: 'close' } satisfies ToWorker);
    expect(closing.aborted).toBe(true);
    started();
    await running;
    expect(calls).toEqual(['close']);
    // It never said it listens: the primary hands it no connections.
    expect(said).toEqual([]);
  });
});
