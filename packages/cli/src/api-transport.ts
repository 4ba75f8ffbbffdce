import type { RunTransport } from '@wolfpack/core/client';
import type { ApiClient } from './api.js';

/**
 * The run client's transport over the CLI's API client, so runs and enhancements are followed with
 * the token, the timeouts and the CLI's own wording of refusals and unreachable servers.
 */
export function apiTransport(api: ApiClient): RunTransport {
  return {
    server: api.server,
    async stream({ method, path, body, lastEventId, signal }) {
      const response = await api.stream(method, path, { ...(body === undefined ? {} : { body }), ...(lastEventId ? { lastEventId } : {}), signal });
      return response.body;
    },
    async getJson(path, reply, signal) {
      return api.get(path, { reply, signal });
    },
  };
}
