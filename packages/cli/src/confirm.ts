import type { CommandContext } from './context.js';
import { ExitCode } from './exit-code.js';
import { wantsColor } from './output.js';
import { UsageError } from './usage-error.js';

/**
 * Deleting needs a "yes": `--yes` up front, or an answer in the terminal. Without a terminal to
 * ask in (a script, CI), leaving out `--yes` is a usage error, reported before anything is sent.
 */
export function checkCanConfirm(context: CommandContext, yes: boolean | undefined): void {
  if (yes || screenFor(context) !== undefined) return;
  throw new UsageError('Deleting needs confirmation and there is no terminal to ask in. Add --yes to delete without asking.');
}

/**
 * Asks `question` ("Delete project …?") unless `--yes` was given; the question is drawn on stderr
 * so `--json` output stays clean. Anything but y ends the command with exit 1.
 */
export async function confirmDeletion(context: CommandContext, yes: boolean | undefined, question: string): Promise<void> {
  if (yes) return;
  checkCanConfirm(context, yes);
  const screen = screenFor(context)!;
  const color = wantsColor(screen, context.io.env, context.globals.color);
  // Ink only when asking: a script's or CI's command never loads it.
  const { askToConfirm } = await import('./ui/confirm-prompt.js');
  if (!(await askToConfirm({ stdin: context.io.stdin, stdout: screen, question, color }))) {
    throw new ExitCode(1, 'Cancelled; nothing was deleted.');
  }
}

/** A terminal to ask in: stdin is one, and so is stderr (or stdout). */
function screenFor(context: CommandContext): (NodeJS.WritableStream & { isTTY?: boolean }) | undefined {
  const { stdin, stdout, stderr } = context.io;
  if (!stdin.isTTY) return undefined;
  return stderr.isTTY ? stderr : stdout.isTTY ? stdout : undefined;
}
