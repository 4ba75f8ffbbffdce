import { describe, expect, it } from 'vitest';
import {
  COSTS_ALREADY_SUBMITTED,
  COSTS_BEFORE_TIMER,
  COSTS_WHILE_TIMING,
  experimentStep,
  experimentTransition,
  TIMER_ALREADY_COMPLETED,
  TIMER_ALREADY_STARTED,
  TIMER_NOT_STARTED,
  type ExperimentAction,
  type ExperimentFlowState,
} from './experiment-flow.js';

const NEW: ExperimentFlowState = {
  replitOnlyStartedAt: null,
  replitOnlyCompletedAt: null,
  costsSubmittedAt: null,
  wolfpackReplitAssemblyCostCents: null,
  wolfpackReplitAssemblyTimeMs: null,
  replitOnlyCostCents: null,
};
const RUNNING = { ...NEW, replitOnlyStartedAt: '2026-05-04T10:00:00Z' };
const TIMED = { ...RUNNING, replitOnlyCompletedAt: '2026-05-04T10:01:00Z' };
const SUBMITTED = { ...TIMED, costsSubmittedAt: '2026-05-04T10:02:00Z', wolfpackReplitAssemblyCostCents: 300, wolfpackReplitAssemblyTimeMs: null, replitOnlyCostCents: 2000 };

const start: ExperimentAction = { type: 'replit-start' };
const complete: ExperimentAction = { type: 'replit-complete' };
const submit = (wolfpackReplitAssemblyCostCents: number, replitOnlyCostCents: number, wolfpackReplitAssemblyTimeMs?: number): ExperimentAction => ({
  type: 'submit-costs',
  costs: { wolfpackReplitAssemblyCostCents, replitOnlyCostCents, wolfpackReplitAssemblyTimeMs },
});

describe('the experiment flow', () => {
  it('reads the step from the stored times and costs', () => {
    expect([NEW, RUNNING, TIMED, SUBMITTED].map(experimentStep)).toEqual(['timer_not_started', 'timer_running', 'timer_completed', 'costs_submitted']);
  });

  it('goes start, complete, submit in that order', () => {
    expect(experimentTransition(NEW, start)).toEqual({ kind: 'apply', next: 'timer_running' });
    expect(experimentTransition(RUNNING, complete)).toEqual({ kind: 'apply', next: 'timer_completed' });
    expect(experimentTransition(TIMED, submit(300, 2000))).toEqual({ kind: 'apply', next: 'costs_submitted' });
  });

  it('refuses costs before the Replit-only timer was started, and while it runs', () => {
    expect(experimentTransition(NEW, submit(300, 2000))).toEqual({ kind: 'refuse', message: COSTS_BEFORE_TIMER });
    expect(COSTS_BEFORE_TIMER).toMatch(/^Start the Replit-only timer first/);
    expect(experimentTransition(RUNNING, submit(300, 2000))).toEqual({ kind: 'refuse', message: COSTS_WHILE_TIMING });
  });

  it('keeps the first costs: the same costs again change nothing, other costs are refused', () => {
    expect(experimentTransition(SUBMITTED, submit(300, 2000))).toEqual({ kind: 'unchanged' });
    expect(experimentTransition(SUBMITTED, submit(300, 2000, 0))).toEqual({ kind: 'refuse', message: COSTS_ALREADY_SUBMITTED });
    expect(experimentTransition(SUBMITTED, submit(300, 180))).toEqual({ kind: 'refuse', message: COSTS_ALREADY_SUBMITTED });
    expect(experimentTransition({ ...SUBMITTED, wolfpackReplitAssemblyTimeMs: 45_000 }, submit(300, 2000, 45_000))).toEqual({ kind: 'unchanged' });
  });

  it('starts and completes the timer once each', () => {
    expect(experimentTransition(NEW, complete)).toEqual({ kind: 'refuse', message: TIMER_NOT_STARTED });
    for (const state of [RUNNING, TIMED, SUBMITTED]) expect(experimentTransition(state, start)).toEqual({ kind: 'refuse', message: TIMER_ALREADY_STARTED });
    for (const state of [TIMED, SUBMITTED]) expect(experimentTransition(state, complete)).toEqual({ kind: 'refuse', message: TIMER_ALREADY_COMPLETED });
  });
});
