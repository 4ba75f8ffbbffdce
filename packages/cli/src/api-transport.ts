import type { RunTransport } from '@wolfpack/core/client';
import type { ApiClient } from './api.js';

/**
 * The run client's transport over the CLI's API client, so runs and enhancements are followed with
 * the token, the timeouts and the CLI's own wording of refusals and unreachable servers. A
 * Last-Event-ID of 0 is sent too: a resume then replays the run's stored events before what follows.
 */
export function apiTransport(api: ApiClient): RunTransport {
  return {
    server: api.server,
    async stream({ method, path, body, lastEventId, signal }) {
      const response = await api.stream(method, path, { ...(body === undefined ? {} : { body }), ...(lastEventId === undefined ? {} : { lastEventId }), signal });
      return response.body;
    },
    async getJson(path, reply, signal) {
      return api.get(path, { reply, signal });
    },
  };
}
