import type { PipelineEvent, PipelineRole } from '../schemas/events.js';

/** The stage event the server sends for the stage at `position` of `total` as it starts, ends or fails (tests of the run clients). */
export function stageEvent(role: PipelineRole, position: number, total: number, phase: 'start' | 'done' | 'failed'): PipelineEvent {
  const current = phase === 'start' ? position : position + 1;
  return {
    type: 'stage',
    role,
    ok: phase === 'done',
    executionTime: phase === 'start' ? 0 : 1.5,
    progress: { current, total, percent: Math.round((current / total) * 100), elapsedSeconds: current * 2, estimatedRemainingSeconds: (total - current) * 2 },
    engine: 'demo-alpha',
  };
}
