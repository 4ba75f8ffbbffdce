/**
 * Reads and writes of the cost-comparison lab (companion §7): the user's experiments, one
 * experiment, start, the Replit-only timer and the costs. Every reply is parsed with its core
 * schema (numbers may arrive as strings).
 */
import { useMutation, useQuery, useQueryClient, type Query, type QueryClient, type QueryFunctionContext, type QueryKey } from '@tanstack/react-query';
import {
  experimentReply,
  experimentsReply,
  startExperimentReply,
  type Experiment,
  type StartExperimentRequestInput,
  type SubmitCostsRequest,
} from '@wolfpack/core';
import { apiRequest, getQueryFn } from './client';
import { invalidateAfterRun } from './queries';

/** Query keys double as URLs (the default query function joins them with '/'). */
export const experimentKeys = {
  /** Every experiment key starts with it, so one invalidation refreshes the list and the pages. */
  all: ['/api/experiments'] as const,
  detail: (id: string) => ['/api/experiments', encodeURIComponent(id)] as const,
};

/** While the Wolfpack run is open the experiment is read again this often, to pick up its figures. */
export const RUN_REFRESH_MS = 1000;

const readJson = getQueryFn<unknown>({ on401: 'throw' });

/** True while the experiment's Wolfpack run has not finished, so its figures are still to come. */
export function runStillOpen(experiment: Experiment | undefined): boolean {
  return experiment?.status === 'wolfpack_running';
}

/**
 * Writes begun on each experiment, per query client. A read that was under way when a write on
 * an experiment began may carry that experiment as it stood before the write (the server can
 * answer the read first); it must not replace the copy the write answers, or the page would show
 * a started timer as never started, for good once the run stops being read again.
 */
const writesBegun = new WeakMap<QueryClient, Map<string, number>>();

function writeCounts(client: QueryClient): Map<string, number> {
  let counts = writesBegun.get(client);
  if (!counts) writesBegun.set(client, (counts = new Map()));
  return counts;
}

/**
 * Starts a read: the function it answers keeps a copy the read brought unless a write on that
 * experiment began since, in which case the cached copy stands (the write puts its own in).
 */
function beginRead(client: QueryClient): (experiment: Experiment) => Experiment {
  const counts = writeCounts(client);
  const before = new Map(counts);
  return (experiment) => {
    if ((counts.get(experiment.id) ?? 0) === (before.get(experiment.id) ?? 0)) return experiment;
    return client.getQueryData<Experiment>(experimentKeys.detail(experiment.id)) ?? experiment;
  };
}

/** GET /api/experiments: the signed-in user's experiments, newest first. */
export function experimentsQuery(client: QueryClient, enabled = true) {
  return {
    queryKey: experimentKeys.all,
    enabled,
    queryFn: async (ctx: QueryFunctionContext): Promise<Experiment[]> => {
      const settle = beginRead(client);
      return experimentsReply.parse(await readJson(ctx)).experiments.map(settle);
    },
  };
}

export function useExperiments(enabled = true) {
  return useQuery<Experiment[]>(experimentsQuery(useQueryClient(), enabled));
}

/**
 * GET /api/experiments/{id}: one experiment. It is read again every {@link RUN_REFRESH_MS} while
 * its run is open (the server fills the figures in when asked after the run finished), and each
 * fresh copy replaces the one in the history list. When the run is seen to finish, the figures it
 * adds to (statistics, savings, balance, projects) are read again, as after a build.
 */
export function experimentQuery(client: QueryClient, id: string | null, enabled = true) {
  return {
    queryKey: experimentKeys.detail(id ?? ''),
    enabled: enabled && id !== null,
    refetchInterval: (query: Query<Experiment, Error, Experiment, QueryKey>) => (runStillOpen(query.state.data) ? RUN_REFRESH_MS : false),
    queryFn: async (ctx: QueryFunctionContext): Promise<Experiment> => {
      const settle = beginRead(client);
      const before = client.getQueryData<Experiment>(ctx.queryKey);
      const experiment = settle(experimentReply.parse(await readJson(ctx)).experiment);
      replaceInList(client, experiment);
      if (runStillOpen(before) && !runStillOpen(experiment)) void invalidateAfterRun(client);
      return experiment;
    },
  };
}

export function useExperiment(id: string | null, enabled = true) {
  return useQuery<Experiment, Error, Experiment, QueryKey>(experimentQuery(useQueryClient(), id, enabled));
}

/** Puts a fresh copy of an experiment in its place in the cached list (and in its own query). */
function remember(client: QueryClient, experiment: Experiment): void {
  client.setQueryData(experimentKeys.detail(experiment.id), experiment);
  replaceInList(client, experiment);
}

function replaceInList(client: QueryClient, experiment: Experiment): void {
  client.setQueryData<Experiment[]>(experimentKeys.all, (list) => {
    if (!list) return list;
    return list.some((e) => e.id === experiment.id) ? list.map((e) => (e.id === experiment.id ? experiment : e)) : [experiment, ...list];
  });
}

/** POST /api/experiments/start: starts the Wolfpack run of the prompt; answers the new experiment. */
export function useStartExperiment() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (request: StartExperimentRequestInput): Promise<{ id: string; experiment?: Experiment }> => {
      const res = await apiRequest('POST', '/api/experiments/start', request);
      const reply = startExperimentReply.parse(await res.json());
      return { id: reply.experimentId, ...(reply.experiment ? { experiment: reply.experiment } : {}) };
    },
    onSuccess: ({ experiment }) => {
      if (experiment) remember(client, experiment);
      else void client.invalidateQueries({ queryKey: experimentKeys.all });
    },
  });
}

/**
 * The three calls on one experiment; each answers the updated experiment. Reads under way when
 * one begins cannot put back the copy from before it; after a refusal the experiment is read again,
 * as another tab may have changed it.
 */
export function experimentAction<T>(client: QueryClient, path: 'replit-start' | 'replit-complete' | 'submit-costs', body: (input: T) => unknown | undefined) {
  return {
    onMutate: ({ id }: { id: string; input: T }) => {
      const counts = writeCounts(client);
      counts.set(id, (counts.get(id) ?? 0) + 1);
    },
    mutationFn: async ({ id, input }: { id: string; input: T }): Promise<Experiment> => {
      const res = await apiRequest('POST', `/api/experiments/${encodeURIComponent(id)}/${path}`, body(input));
      return experimentReply.parse(await res.json()).experiment;
    },
    onSuccess: (experiment: Experiment) => remember(client, experiment),
    onError: (_error: unknown, { id }: { id: string; input: T }) => void client.invalidateQueries({ queryKey: experimentKeys.detail(id) }),
  };
}

function useExperimentAction<T>(path: 'replit-start' | 'replit-complete' | 'submit-costs', body: (input: T) => unknown | undefined) {
  return useMutation(experimentAction(useQueryClient(), path, body));
}

/** POST /api/experiments/{id}/replit-start (empty body): the Replit-only timer starts now. */
export function useReplitStart() {
  return useExperimentAction<void>('replit-start', () => undefined);
}

/** POST /api/experiments/{id}/replit-complete (empty body): the timer stops and its total is kept. */
export function useReplitComplete() {
  return useExperimentAction<void>('replit-complete', () => undefined);
}

/** POST /api/experiments/{id}/submit-costs: the measured costs (and the optional assembly time). */
export function useSubmitCosts() {
  return useExperimentAction<SubmitCostsRequest>('submit-costs', (costs) => costs);
}
