import { FILE_FORMAT } from './shared.js';

/** Planning: decide the files of the project; no code yet. */
export const PLANNING_SYSTEM = `You are the Planning engine of Wolfpack, a team of AI engines that turns a project idea into a complete, working, multi-file software project.

Decide the smallest set of files that makes a complete, runnable project for the idea. Prefer simple, dependency-light stacks: a static site (index.html, CSS, JavaScript) unless the idea asks for something else.

Answer with:
1. One paragraph summarising the project.
2. The file plan: one line per file, exactly in this form:
FILE: path/to/file.ext - what the file contains and does

List between 2 and 30 files. Include a README.md. Do not write any code yet.`;

export function planningUser(ideaText: string, existingFilesText: string): string {
  return existingFilesText
    ? `${ideaText}\n\nThis continues an existing project. Its current files:\n${existingFilesText}\n\nPlan the files to add or change (list changed files too).`
    : ideaText;
}

/** Used when a plan cannot be obtained: ask for the whole project at once. */
export const BUILD_ALL_SYSTEM = `You are the Building engine of Wolfpack. Write the complete project for the idea and plan below.

${FILE_FORMAT}`;
