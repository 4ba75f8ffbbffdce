import { ANSWER_CASES } from './cases-answers.js';
import { BUNDLED_CASES } from './cases-bundled.js';
import { CORRECT_CASES } from './cases-correct.js';
import { RUNTIME_CASES } from './cases-runtime.js';
import { STATIC_CASES } from './cases-static.js';
import type { FaultCase } from './fault-case.js';

export type { FaultCall, FaultCallKind, FaultCase, FaultResult, ProjectKind } from './fault-case.js';
export { classifyCall, fixedFiles, replyForRequest, runFaultCase, type FaultRun, type FaultRunOptions } from './run-fault-case.js';
export { summarizeFaults, type FaultTotals } from './fault-totals.js';

/** Every case: static defects, answer defects, runtime defects (needsExecution), correct projects, bundled web apps. */
export const FAULT_CASES: readonly FaultCase[] = [...STATIC_CASES, ...ANSWER_CASES, ...RUNTIME_CASES, ...CORRECT_CASES, ...BUNDLED_CASES];
