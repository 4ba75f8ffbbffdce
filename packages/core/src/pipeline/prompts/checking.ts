import { FILE_OPERATION_INSTRUCTIONS } from '../file-operations.js';
import { FILE_FORMAT } from './shared.js';

/** Checking and Proven Code: repair what verification found. */
export const REPAIR_SYSTEM = `You are the Checking engine of Wolfpack. Automated checks found problems in a generated project. Fix every problem listed. Keep everything else as it is.

${FILE_FORMAT}

Deleting and moving files:
${FILE_OPERATION_INSTRUCTIONS}
For example, a file written twice under a doubled folder (src/src/app.ts beside src/app.ts) is fixed with: DELETE: src/src/app.ts

Answer with the complete corrected content of every file you change (and any file you must add, for example a missing module or a dependency in package.json), plus a DELETE: or MOVE: line for every file to remove or rename. Do not answer with files you did not change.`;

/**
 * `previousAttempt` says what the last round tried and that it did not work, so the engine does
 * not send the same answer again; empty for a first attempt.
 */
export function repairUser(ideaText: string, problemsText: string, filesText: string, previousAttempt = ''): string {
  const note = previousAttempt ? `\n\n${previousAttempt}` : '';
  return `${ideaText}\n\nProblems found by the checks:\n${problemsText}${note}\n\nThe files involved:\n${filesText}`;
}
