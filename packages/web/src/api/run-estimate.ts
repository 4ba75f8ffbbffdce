/**
 * POST /api/wolfpack/estimate: what the run the prompt describes would probably cost,
 * asked while the user writes it, once the idea has settled.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { runEstimateReply, type RunEstimateReply } from '@wolfpack/core';
import { useEffect, useState } from 'react';
import { estimateRequest, type EstimateInput } from '../lib/run-estimate';
import { throwIfResNotOk } from './client';

export const ESTIMATE_URL = '/api/wolfpack/estimate';

/** How long the prompt rests before it is estimated: one request per pause in typing, not per key. */
export const ESTIMATE_DELAY_MS = 400;

/** `body`: the request as JSON. */
async function fetchEstimate(body: string, signal: AbortSignal): Promise<RunEstimateReply> {
  const res = await fetch(ESTIMATE_URL, { method: 'POST', credentials: 'include', headers: { 'Content-Type': 'application/json' }, body, signal });
  await throwIfResNotOk(res);
  return runEstimateReply.parse(await res.json());
}

/**
 * The estimate of a run of `input`, or undefined while there is none to show: no input (signed
 * out, a blank idea), the first answer still coming, or a body the server refused (starting the
 * run says why). A newer prompt keeps the last range on screen until its own arrives.
 */
export function useRunEstimate(input: EstimateInput | null): RunEstimateReply | undefined {
  // Compared as text: the screen hands a new input object to every render.
  const body = input && input.idea.trim() ? JSON.stringify(estimateRequest(input)) : null;
  const settled = useSettled(body, ESTIMATE_DELAY_MS);
  const query = useQuery<RunEstimateReply>({
    queryKey: [ESTIMATE_URL, settled],
    enabled: settled !== null,
    queryFn: ({ signal }) => fetchEstimate(settled!, signal),
    placeholderData: keepPreviousData,
    // Prices and past runs change: an estimate is good for a minute, not for the session.
    staleTime: 60_000,
  });
  return body === null || query.isError ? undefined : query.data;
}

/** `value` once it has stayed the same for `delayMs` (null at once: nothing to wait for). */
function useSettled(value: string | null, delayMs: number): string | null {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    if (value === null) {
      setSettled(null);
      return;
    }
    const timer = setTimeout(() => setSettled(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return settled;
}
