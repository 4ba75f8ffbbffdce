import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiTokensReply, newApiTokenReply, type ApiTokenSummary, type NewApiTokenRequest } from '@wolfpack/core';
import { apiRequest } from './client';

const apiTokenKeys = { all: ['/api/tokens'] as const };

/** GET /api/tokens: the signed-in user's personal access tokens that are not revoked. */
export function useApiTokens(enabled: boolean) {
  return useQuery<ApiTokenSummary[]>({
    queryKey: apiTokenKeys.all,
    enabled,
    queryFn: async () => apiTokensReply.parse(await (await apiRequest('GET', '/api/tokens')).json()).tokens,
  });
}

/** POST /api/tokens: a new token, whole, in this reply only. */
export function useCreateApiToken() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (request: NewApiTokenRequest) => newApiTokenReply.parse(await (await apiRequest('POST', '/api/tokens', request)).json()),
    onSuccess: () => client.invalidateQueries({ queryKey: apiTokenKeys.all }),
  });
}

/** DELETE /api/tokens/{id}: the token stops working at once. */
export function useRevokeApiToken() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => {
      await apiRequest('DELETE', `/api/tokens/${encodeURIComponent(id)}`);
    },
    onSuccess: () => client.invalidateQueries({ queryKey: apiTokenKeys.all }),
  });
}
