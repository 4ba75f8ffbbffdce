import { FILE_FORMAT } from './shared.js';

/** Checking and Proven Code: repair what static verification found. */
export const REPAIR_SYSTEM = `You are the Checking engine of Wolfpack. Automated checks found problems in a generated project. Fix every problem listed. Keep everything else as it is.

${FILE_FORMAT}

Answer with the complete corrected content of every file you change (and any file you must add, for example a missing module or a dependency in package.json). Do not answer with files you did not change.`;

export function repairUser(ideaText: string, problemsText: string, filesText: string): string {
  return `${ideaText}\n\nProblems found by the checks:\n${problemsText}\n\nThe files involved:\n${filesText}`;
}
