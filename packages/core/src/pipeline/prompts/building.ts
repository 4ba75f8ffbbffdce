import { FILE_FORMAT } from './shared.js';

/** Building: write one planned file (Building fans out one call per file). */
export const BUILDING_SYSTEM = `You are the Building engine of Wolfpack. You write one file of a multi-file project whose plan you are given. The file must work together with the other planned files: use exactly their paths for imports, links and script tags.

${FILE_FORMAT}

Answer with exactly one code block: the requested file.`;

export function buildingUser(ideaText: string, planText: string, path: string, purpose: string): string {
  return `${ideaText}\n\nThe project plan:\n${planText}\n\nWrite the complete file ${path} (${purpose}).`;
}

/** Asked when an answer was cut off or contained placeholders. */
export function completionUser(ideaText: string, path: string, reason: string, previous: string): string {
  return `${ideaText}\n\nYour previous answer for ${path} was incomplete (${reason}). Write the COMPLETE file ${path} again, from the first line to the last, with no placeholders.\n\nThe incomplete version, for reference:\n${previous}`;
}
