/**
 * The five stage handlers by role. Each lives with its helpers: Planning and Building in
 * stage-building.ts, Checking and Proven Code in stage-repair.ts, Polishing in stage-polishing.ts.
 */
import type { PipelineRole } from '../schemas/events.js';
import { building, planning } from './stage-building.js';
import type { StageHandler } from './stage-context.js';
import { polishing } from './stage-polishing.js';
import { checking, provenCode } from './stage-repair.js';

export type { StageContext, StageHandler, StageResult, StageState } from './stage-context.js';

export const STAGE_HANDLERS: Record<PipelineRole, StageHandler> = {
  Planning: planning,
  Building: building,
  Checking: checking,
  Polishing: polishing,
  'Proven Code': provenCode,
};
