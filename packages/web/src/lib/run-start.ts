/**
 * What starts a run on the build screen: a build (spec core §7: POST /api/wolfpack/stream) or
 * "Repair again" (POST /api/projects/{id}/repair). Both answer with the run's event
 * stream, so the same runner follows, reattaches and resumes either by the run's id.
 */
import type { PipelineRole, RepairRequestInput, StreamRequestInput } from '@wolfpack/core';

export const STREAM_URL = '/api/wolfpack/stream';
export const repairUrl = (projectId: string) => `/api/projects/${encodeURIComponent(projectId)}/repair`;

/**
 * What a start asks the server for: a build, or "Repair again" on a project whose Proven Code gate
 * failed (a run of the Proven Code stage alone). Both answer with the run's event stream, and the
 * run is followed, reattached and resumed by its id the same way.
 */
export type RunStart =
  | { kind: 'build'; request: StreamRequestInput }
  | { kind: 'repair'; projectId: string; request: RepairRequestInput };

/** The stages a repair run does; the server names them again in its `run` event. */
export const REPAIR_STAGES: readonly PipelineRole[] = ['Proven Code'];

/** The request that starts a run, and the stages it does when not all five. */
export function startRequest(source: RunStart): { url: string; body: unknown; onlyStages: readonly PipelineRole[] | undefined } {
  switch (source.kind) {
    case 'build':
      return { url: STREAM_URL, body: source.request, onlyStages: undefined };
    case 'repair':
      return { url: repairUrl(source.projectId), body: source.request, onlyStages: REPAIR_STAGES };
    default: {
      const unreachable: never = source;
      return unreachable;
    }
  }
}
