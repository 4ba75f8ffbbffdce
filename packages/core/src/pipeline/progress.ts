import type { PipelineProgress } from '../schemas/events.js';

/**
 * Progress of a run after `current` of `total` stages: percent of stages done, seconds since the
 * start, and the remaining time estimated from the average stage so far (0 before any finished).
 */
export function pipelineProgress(current: number, total: number, startedAt: number, now: number): PipelineProgress {
  const elapsedSeconds = Math.max(0, (now - startedAt) / 1000);
  const done = Math.min(current, total);
  const perStage = done > 0 ? elapsedSeconds / done : 0;
  return {
    current: done,
    total,
    percent: total > 0 ? Math.round((done / total) * 100) : 0,
    elapsedSeconds: round1(elapsedSeconds),
    estimatedRemainingSeconds: round1(perStage * (total - done)),
  };
}

function round1(n: number): number {
  return Math.round(n * 10) / 10;
}
