import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { EventSource } from 'eventsource';
import { pipelineEvent, type PipelineEvent } from '@wolfpack/core';

export interface ServerProcess {
  url: string;
  /** Its id in the runs it owns (conversations.instance_id). */
  instanceId: string;
  child: ChildProcess;
  /** kill -9: no shutdown code runs, like a crash or the OOM killer. */
  crash(): Promise<void>;
  /** SIGTERM, then waits for the exit. */
  stop(): Promise<void>;
}

/** A Wolfpack server in its own process (testing/serve-child.ts), so a test can kill it. */
export async function spawnServer(env: Record<string, string | undefined>): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['--conditions=@wolfpack/source', '--import', 'tsx', fileURLToPath(new URL('./serve-child.ts', import.meta.url))], {
    // Generated code runs in the sandbox only in the tests about it (a page check takes seconds).
    env: { ...process.env, WOLFPACK_SANDBOX: 'off', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const line = await Promise.race([
    new Promise<string>((resolve) => createInterface({ input: child.stdout! }).once('line', resolve)),
    exited.then(() => {
      throw new Error('the server process exited before it started');
    }),
  ]);
  const { url, instanceId } = JSON.parse(line) as Pick<ServerProcess, 'url' | 'instanceId'>;
  return {
    url,
    instanceId,
    child,
    crash: async () => {
      child.kill('SIGKILL');
      await exited;
    },
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

export interface FollowedEvent {
  id: number;
  event: PipelineEvent;
  receivedAt: number;
}

/**
 * Follows a run with a WHATWG EventSource (the `eventsource` package), as a browser tab would:
 * it reconnects by itself with Last-Event-ID when the connection breaks. Resolves `ended` on the
 * run's `complete` or `error` event.
 */
export function followWithEventSource(url: string, cookie: string) {
  const events: FollowedEvent[] = [];
  let opened = 0;
  const source = new EventSource(url, {
    fetch: (input, init) => {
      opened += 1;
      return fetch(input, { ...init, headers: { ...(init?.headers as Record<string, string>), cookie } });
    },
  });
  const ended = new Promise<FollowedEvent>((resolve, reject) => {
    source.onmessage = (message) => {
      const event = pipelineEvent.parse(JSON.parse(message.data as string));
      const received = { id: Number(message.lastEventId), event, receivedAt: Date.now() };
      events.push(received);
      if (event.type === 'complete' || event.type === 'error') {
        source.close();
        resolve(received);
      }
    };
    source.onerror = () => {
      // CLOSED: the client gave up (a non-200 answer); CONNECTING: it is reconnecting by itself.
      if (source.readyState === EventSource.CLOSED) reject(new Error('the EventSource gave up'));
    };
  });
  return { events, ended, close: () => source.close(), connections: () => opened };
}
