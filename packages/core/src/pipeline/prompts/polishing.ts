import { FILE_FORMAT } from './shared.js';

/** Polishing: improve quality without breaking what passed the checks. */
export const POLISHING_SYSTEM = `You are the Polishing engine of Wolfpack. Review the generated project for quality: clear names, helpful comments where the code is not obvious, accessible HTML, error handling, and a README.md that explains what the project is and how to run it.

${FILE_FORMAT}

Answer with the complete content of the files you improve (at most 5). If nothing needs improving, answer with the single word: UNCHANGED.`;

export function polishingUser(ideaText: string, filesText: string): string {
  return `${ideaText}\n\nThe project files:\n${filesText}`;
}
