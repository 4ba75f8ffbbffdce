/** The build screen's browser-stored values (keys in storage-keys.ts). */
import { z } from 'zod';
import { createStoredValue } from '../hooks/use-stored-value';
import { STORAGE_KEYS } from './storage-keys';

const optionalId = (raw: string | null): string | null => (raw && raw.trim() ? raw.trim() : null);
const idString = (value: string | null): string => value ?? '';

/** Learn More open (default) or closed. */
export const marketingOpenStore = createStoredValue<boolean>(
  STORAGE_KEYS.marketingOpen,
  (raw) => raw !== 'false',
  (open) => String(open),
);

export const currentPipelineIdStore = createStoredValue<string | null>(STORAGE_KEYS.currentPipelineId, optionalId, idString);
export const completedProjectIdStore = createStoredValue<string | null>(
  STORAGE_KEYS.completedProjectId,
  optionalId,
  idString,
);
export const continueProjectIdStore = createStoredValue<string | null>(
  STORAGE_KEYS.continueProjectId,
  optionalId,
  idString,
);

export const enhanceTipShownStore = createStoredValue<boolean>(
  STORAGE_KEYS.enhanceTipShown,
  (raw) => raw === 'true',
  (shown) => String(shown),
);

/** What the stored pipeline progress holds while a run is under way. */
export interface StoredProgress {
  current: number;
  total: number;
  percent: number;
}

const storedProgress = z.object({ current: z.number(), total: z.number(), percent: z.number() });

export const pipelineProgressStore = createStoredValue<StoredProgress | null>(
  STORAGE_KEYS.pipelineProgress,
  (raw) => {
    try {
      const parsed = raw ? storedProgress.safeParse(JSON.parse(raw)) : undefined;
      return parsed?.success ? parsed.data : null;
    } catch {
      return null;
    }
  },
  (value) => JSON.stringify(value),
);

/** A run another screen asked for (tweak a project): run by /?autostart=true, then removed. */
export const tweakRequest = z.object({ idea: z.string().trim().min(1), projectId: z.string().min(1).optional() });
export type TweakRequest = z.infer<typeof tweakRequest>;

/** The stored tweak request, left in place; undefined when there is none or it is unreadable. */
export function peekTweakRequest(storage: Pick<Storage, 'getItem'> = localStorage): TweakRequest | undefined {
  const raw = storage.getItem(STORAGE_KEYS.tweakRequest);
  if (raw === null) return undefined;
  try {
    const parsed = tweakRequest.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** Reads and removes the stored tweak request; undefined when there is none or it is unreadable. */
export function takeTweakRequest(storage: Pick<Storage, 'getItem' | 'removeItem'> = localStorage): TweakRequest | undefined {
  const request = peekTweakRequest(storage);
  storage.removeItem(STORAGE_KEYS.tweakRequest);
  return request;
}
