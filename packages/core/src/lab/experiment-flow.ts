/**
 * The cost-comparison lab's steps as a state machine (companion §4: start the experiment, start
 * the Replit-only timer, complete it, submit the costs). The Wolfpack run goes on by itself; this
 * is the user's side, which must go in order: costs measured without a timed Replit-only build
 * compare nothing, and costs once submitted are the experiment's result.
 */

/** Where an experiment's Replit-only side stands. */
export type ExperimentStep = 'timer_not_started' | 'timer_running' | 'timer_completed' | 'costs_submitted';

/** What the step is read from: the experiment's stored times and costs. */
export interface ExperimentFlowState {
  replitOnlyStartedAt: Date | string | null;
  replitOnlyCompletedAt: Date | string | null;
  costsSubmittedAt: Date | string | null;
  /** The submitted costs, compared with a repeated submission. */
  wolfpackReplitAssemblyCostCents: number | null;
  wolfpackReplitAssemblyTimeMs: number | null;
  replitOnlyCostCents: number | null;
}

/** The costs a submission carries (the time is optional). */
export interface SubmittedCosts {
  wolfpackReplitAssemblyCostCents: number;
  wolfpackReplitAssemblyTimeMs?: number | undefined;
  replitOnlyCostCents: number;
}

export type ExperimentAction = { type: 'replit-start' } | { type: 'replit-complete' } | { type: 'submit-costs'; costs: SubmittedCosts };

/**
 * The answer to an action: `apply` moves the experiment to `next` (the caller stores it);
 * `unchanged` is a repeat of what was already done (a double click, a retried request) and is
 * answered with the experiment as it stands; `refuse` is a 409 with a sentence that says what to
 * do instead.
 */
export type ExperimentTransition = { kind: 'apply'; next: ExperimentStep } | { kind: 'unchanged' } | { kind: 'refuse'; message: string };

export const TIMER_ALREADY_STARTED = 'The Replit-only timer has already started for this experiment.';
export const TIMER_NOT_STARTED = 'Start the Replit-only timer before completing it.';
export const TIMER_ALREADY_COMPLETED = 'The Replit-only timer has already been completed for this experiment.';
export const COSTS_BEFORE_TIMER =
  'Start the Replit-only timer first: time building the same prompt on Replit alone, complete the timer, then submit the costs.';
export const COSTS_WHILE_TIMING = 'Complete the Replit-only timer first: the costs are submitted once the Replit-only build is done.';
export const COSTS_ALREADY_SUBMITTED =
  'The costs of this experiment were already submitted, and its savings are computed from them. To compare other costs, start a new experiment.';

/** The step an experiment is at. */
export function experimentStep(state: Pick<ExperimentFlowState, 'replitOnlyStartedAt' | 'replitOnlyCompletedAt' | 'costsSubmittedAt'>): ExperimentStep {
  if (state.costsSubmittedAt !== null) return 'costs_submitted';
  if (state.replitOnlyCompletedAt !== null) return 'timer_completed';
  if (state.replitOnlyStartedAt !== null) return 'timer_running';
  return 'timer_not_started';
}

/**
 * What an action does at the experiment's step. The timer starts once and completes once, in
 * that order. Costs are taken once, after the timer completed: the same costs sent again are
 * answered as they stand (idempotent), different ones are refused, so the result a user saw
 * (85 % saved) is never silently replaced by another (−66.67 %).
 */
export function experimentTransition(state: ExperimentFlowState, action: ExperimentAction): ExperimentTransition {
  const step = experimentStep(state);
  switch (action.type) {
    case 'replit-start':
      return step === 'timer_not_started' ? { kind: 'apply', next: 'timer_running' } : { kind: 'refuse', message: TIMER_ALREADY_STARTED };
    case 'replit-complete':
      if (step === 'timer_not_started') return { kind: 'refuse', message: TIMER_NOT_STARTED };
      return step === 'timer_running' ? { kind: 'apply', next: 'timer_completed' } : { kind: 'refuse', message: TIMER_ALREADY_COMPLETED };
    case 'submit-costs':
      switch (step) {
        case 'timer_not_started':
          return { kind: 'refuse', message: COSTS_BEFORE_TIMER };
        case 'timer_running':
          return { kind: 'refuse', message: COSTS_WHILE_TIMING };
        case 'timer_completed':
          return { kind: 'apply', next: 'costs_submitted' };
        case 'costs_submitted':
          return sameCosts(state, action.costs) ? { kind: 'unchanged' } : { kind: 'refuse', message: COSTS_ALREADY_SUBMITTED };
        default: {
          const unreachable: never = step;
          return unreachable;
        }
      }
    default: {
      const unreachable: never = action;
      return unreachable;
    }
  }
}

function sameCosts(state: ExperimentFlowState, costs: SubmittedCosts): boolean {
  return (
    state.wolfpackReplitAssemblyCostCents === costs.wolfpackReplitAssemblyCostCents &&
    state.replitOnlyCostCents === costs.replitOnlyCostCents &&
    (state.wolfpackReplitAssemblyTimeMs ?? null) === (costs.wolfpackReplitAssemblyTimeMs ?? null)
  );
}
