/**
 * What the build screen shows before a run starts: the body POST /api/wolfpack/estimate
 * is asked with (core's `estimateLine` says how it is shown).
 */
import type { Attachment, StreamRequestInput } from '@wolfpack/core';

/**
 * Characters of a text attachment the engines get (the pipeline cuts longer ones), so no more is
 * sent to be estimated.
 */
export const ESTIMATE_ATTACHMENT_CHARS = 40_000;

export interface EstimateInput {
  idea: string;
  attachments: readonly Attachment[];
  modelOrder: readonly string[];
  /** The project a continued run builds on (its files count). */
  projectId?: string | null | undefined;
}

/**
 * The body a run of `input` would start with, as far as its cost goes: text attachments cut to what
 * the engines read, images left out (the estimate does not count them, and they are the large
 * part of a body), so typing in the prompt never resends megabytes.
 */
export function estimateRequest(input: EstimateInput): StreamRequestInput {
  const body: StreamRequestInput = { idea: input.idea.trim(), modelOrder: [...input.modelOrder], cycles: 1 };
  if (input.projectId) body.projectId = input.projectId;
  const texts = input.attachments
    .filter((a) => !a.mimeType.startsWith('image/'))
    .map((a) => (a.content.length > ESTIMATE_ATTACHMENT_CHARS ? { ...a, content: a.content.slice(0, ESTIMATE_ATTACHMENT_CHARS), size: ESTIMATE_ATTACHMENT_CHARS } : a));
  if (texts.length > 0) body.attachments = texts;
  return body;
}
