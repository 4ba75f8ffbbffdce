import { MutationObserver, QueryObserver } from '@tanstack/react-query';
import type { Experiment } from '@wolfpack/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from './client';
import { experimentAction, experimentKeys, experimentQuery, experimentsQuery } from './experiments';

const ID = '0b7d7a0e-4a51-4c3e-9d0e-2f6f1d0c9a11';

function experiment(changes: Partial<Experiment> = {}): Experiment {
  return {
    id: ID,
    projectName: 'Packing list',
    testPrompt: 'A packing list for trips',
    promptType: 'medium',
    status: 'wolfpack_running',
    wolfpackCostCents: null,
    wolfpackProcessingTimeMs: null,
    wolfpackReplitAssemblyCostCents: null,
    wolfpackReplitAssemblyTimeMs: null,
    replitOnlyStartedAt: null,
    replitOnlyCompletedAt: null,
    replitOnlyTotalTimeMs: null,
    replitOnlyCostCents: null,
    savingsPercent: null,
    createdAt: '2026-12-01T10:00:00.000Z',
    ...changes,
  };
}

const started = experiment({ replitOnlyStartedAt: '2026-12-01T10:00:05.000Z' });

/**
 * The server as the browser sees it: each GET waits until the test lets it answer (with the
 * experiment as it stood when the server read it), POSTs answer at once.
 */
function server() {
  const held: Array<() => void> = [];
  let stored = experiment();
  const answer = (body: unknown) => new Response(JSON.stringify(body), { headers: { 'Content-Type': 'application/json' } });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      if (init?.method === 'POST') {
        if (url.endsWith('/replit-start')) stored = { ...started, status: stored.status };
        if (url.endsWith('/replit-complete')) return new Response('{"error":"The timer is not running.","code":"CONFLICT"}', { status: 409 });
        return answer({ experiment: stored });
      }
      // The read happens now; its answer arrives when released.
      const seen = stored;
      await new Promise<void>((release) => held.push(release));
      return answer(url.endsWith('/api/experiments') ? { experiments: [seen] } : { experiment: seen });
    }),
  );
  return { releaseAll: () => held.splice(0).forEach((release) => release()), finish: () => (stored = { ...stored, status: 'wolfpack_complete' }) };
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('experiment reads and writes', () => {
  it('a read that began before the timer started does not put the stopped timer back', async () => {
    const api = server();
    const client = createQueryClient();
    client.setQueryData(experimentKeys.detail(ID), experiment());
    client.setQueryData(experimentKeys.all, [experiment()]);
    const detail = new QueryObserver(client, { ...experimentQuery(client, ID), refetchInterval: false });
    const unsubscribe = detail.subscribe(() => undefined);

    // A poll and a list read are under way (read by the server before the start) ...
    const poll = client.refetchQueries({ queryKey: experimentKeys.detail(ID) });
    const list = client.fetchQuery({ ...experimentsQuery(client), staleTime: 0 });
    await flush();
    // ... when the timer starts and the server answers the start first.
    await new MutationObserver(client, experimentAction(client, 'replit-start', () => undefined)).mutate({ id: ID, input: undefined });
    expect(client.getQueryData<Experiment>(experimentKeys.detail(ID))?.replitOnlyStartedAt).toBe(started.replitOnlyStartedAt);
    api.releaseAll();
    await Promise.all([poll, list]);

    expect(client.getQueryData<Experiment>(experimentKeys.detail(ID))?.replitOnlyStartedAt).toBe(started.replitOnlyStartedAt);
    expect(client.getQueryData<Experiment[]>(experimentKeys.all)?.[0]?.replitOnlyStartedAt).toBe(started.replitOnlyStartedAt);

    // A read that begins after the start is taken as it comes: the run's end shows.
    api.finish();
    const next = client.refetchQueries({ queryKey: experimentKeys.detail(ID) });
    await flush();
    api.releaseAll();
    await next;
    expect(client.getQueryData<Experiment>(experimentKeys.detail(ID))).toMatchObject({ status: 'wolfpack_complete', replitOnlyStartedAt: started.replitOnlyStartedAt });
    unsubscribe();
  });

  it('reads the experiment again after a refused write', async () => {
    const api = server();
    const client = createQueryClient();
    client.setQueryData(experimentKeys.detail(ID), experiment());
    const detail = new QueryObserver(client, { ...experimentQuery(client, ID), refetchInterval: false });
    const unsubscribe = detail.subscribe(() => undefined);
    const fetches = vi.mocked(fetch).mock.calls.length;
    const refused = await new MutationObserver(client, experimentAction(client, 'replit-complete', () => undefined))
      .mutate({ id: ID, input: undefined })
      .catch((error: unknown) => error);
    expect(String(refused)).toContain('409');
    await flush();
    expect(vi.mocked(fetch).mock.calls.slice(fetches).map(([url, init]) => `${init?.method ?? 'GET'} ${url}`)).toEqual([
      `POST /api/experiments/${ID}/replit-complete`,
      `GET /api/experiments/${ID}`,
    ]);
    api.releaseAll();
    unsubscribe();
  });
});
