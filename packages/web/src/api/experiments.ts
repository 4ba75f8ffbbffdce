/**
 * Reads and writes of the cost-comparison lab (companion §7): the user's experiments, one
 * experiment, start, the Replit-only timer and the costs. Every reply is parsed with its core
 * schema (numbers may arrive as strings).
 */
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
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

/** GET /api/experiments: the signed-in user's experiments, newest first. */
export function useExperiments(enabled = true) {
  return useQuery<Experiment[]>({
    queryKey: experimentKeys.all,
    enabled,
    queryFn: async (ctx) => experimentsReply.parse(await readJson(ctx)).experiments,
  });
}

/**
 * GET /api/experiments/{id}: one experiment. It is read again every {@link RUN_REFRESH_MS} while
 * its run is open (the server fills the figures in when asked after the run finished), and each
 * fresh copy replaces the one in the history list. When the run is seen to finish, the figures it
 * adds to (statistics, savings, balance, projects) are read again, as after a build.
 */
export function useExperiment(id: string | null, enabled = true) {
  const client = useQueryClient();
  return useQuery<Experiment>({
    queryKey: experimentKeys.detail(id ?? ''),
    enabled: enabled && id !== null,
    refetchInterval: (query) => (runStillOpen(query.state.data) ? RUN_REFRESH_MS : false),
    queryFn: async (ctx) => {
      const before = client.getQueryData<Experiment>(ctx.queryKey);
      const experiment = experimentReply.parse(await readJson(ctx)).experiment;
      replaceInList(client, experiment);
      if (runStillOpen(before) && !runStillOpen(experiment)) void invalidateAfterRun(client);
      return experiment;
    },
  });
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

/** The three calls on one experiment; each answers the updated experiment. */
function useExperimentAction<T>(path: 'replit-start' | 'replit-complete' | 'submit-costs', body: (input: T) => unknown | undefined) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, input }: { id: string; input: T }): Promise<Experiment> => {
      const res = await apiRequest('POST', `/api/experiments/${encodeURIComponent(id)}/${path}`, body(input));
      return experimentReply.parse(await res.json()).experiment;
    },
    onSuccess: (experiment) => remember(client, experiment),
  });
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
