/**
 * What an engine is asked when it proposes a change: the instruction, the files, and the two
 * answer formats njin reads (whole files in fenced blocks with paths, or one unified diff).
 */
import type { ChatMessage } from '../engines/engine.js';
import { formatFilesForPrompt, selectFilesForContext } from '../pipeline/context-budget.js';
import { FILE_BLOCK_INSTRUCTIONS } from '../pipeline/file-blocks.js';

export const PROPOSAL_SYSTEM_PROMPT = [
  'You change a software project as instructed. Change only what the instruction needs; keep everything else exactly as it is.',
  'Your change is applied to the files and must pass static checks: valid syntax, every local import names a file that exists, types that check, well-formed HTML.',
  'Answer in ONE of two ways:',
  '1. Every file you change or add, whole, in fenced blocks:',
  FILE_BLOCK_INSTRUCTIONS,
  '2. Or one unified diff in a ```diff block, with "--- a/path" and "+++ b/path" headers ("--- /dev/null" for a new file) and at least 3 lines of context around each change.',
  'Do not repeat files you do not change. A short explanation before the change is fine.',
].join('\n');

/** The proposal call's messages; files that do not fit `budgetChars` are listed by path only. */
export function proposalMessages(files: Readonly<Record<string, string>>, instruction: string, budgetChars: number): ChatMessage[] {
  const selection = selectFilesForContext({ ...files }, instruction, budgetChars);
  const user = [`Instruction:\n${instruction}`, `The project's files:\n\n${formatFilesForPrompt(selection)}`, 'Write your change now.'].join('\n\n');
  return [
    { role: 'system', content: PROPOSAL_SYSTEM_PROMPT },
    { role: 'user', content: user },
  ];
}
