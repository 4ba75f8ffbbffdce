import { InvalidArgumentError, Option, type Command } from 'commander';
import { costLimit, cycleCount, parseEngineList } from './command-options.js';
import type { AttachOptions } from './commands/attach.js';
import type { BuildOptions } from './commands/build.js';
import type { EnhanceOptions } from './commands/enhance.js';
import type { RepairOptions } from './commands/repair.js';
import type { CommandContext } from './context.js';

/** The commands that start or follow a run on the server: build, repair, attach, and enhance a prompt. */
export function addRunCommands(program: Command, ctx: (command: Command) => Promise<CommandContext>): void {
  program
    .command('build')
    .description('turn an idea into a project: run the five stages on the server and show them live (Ctrl+C detaches)')
    .argument('<idea>', 'what to build, in your words (quote it)')
    .addOption(new Option('--cycles <n>', 'how many times the five stages run, 1 to 5 (default: 1)').argParser(cycleCount))
    .option('--engines <keys>', 'engine keys in stage order, separated by commas (default: the server\'s order)', parseEngineList)
    .option('--attach <files...>', 'send up to 5 files with the idea (text, code or images, 5 MB each); put the idea first')
    .option('--continue <project-id>', 'build on an existing project instead of starting a new one')
    .option('--enhance', 'enhance the idea first (2 passes of 4 engines, shown on stderr) and build from the result')
    .option('-o, --out <dir>', 'write the generated files into this folder when the run completes')
    .option('--force', 'write into --out even if the folder has files in it')
    .option('--strict', 'exit 3 when the Proven Code gate finds problems (default: exit 0, problems listed)')
    .option('--require-proof', 'exit 3 when Proven Code failed and 5 when it proved nothing (not run: no sandbox on the server)')
    .addOption(new Option('--max-cost <cents>', 'the most this run may spend, in cents: no engine call is given more than what is left of it (default: no limit but your balance)').argParser(costLimit))
    .addHelpText('after', RUN_HELP)
    .action(async (idea: string, options: BuildOptions, command: Command) => (await import('./commands/build.js')).build(idea, options, await ctx(command)));

  program
    .command('repair')
    .description('repair again after a failed Proven Code gate: a new run of Proven Code alone on the project\'s current files (Ctrl+C detaches)')
    .argument('<project-id>', 'the project id (its first 8 characters are enough)')
    .option('--engines <keys>', 'engine keys in the order the repair rounds use them, separated by commas (default: the server\'s order)', parseEngineList)
    .option('-o, --out <dir>', 'write the project\'s files into this folder when the run completes')
    .option('--force', 'write into --out even if the folder has files in it')
    .option('--strict', 'exit 3 when the Proven Code gate still finds problems (default: exit 0, problems listed)')
    .option('--require-proof', 'exit 3 when Proven Code still fails and 5 when it proved nothing (not run: no sandbox on the server)')
    .addOption(new Option('--max-cost <cents>', 'the most this run may spend, in cents: no engine call is given more than what is left of it (default: no limit but your balance)').argParser(costLimit))
    .addHelpText('after', REPAIR_HELP + RUN_HELP)
    .action(async (id: string, options: RepairOptions, command: Command) => (await import('./commands/repair.js')).repair(id, options, await ctx(command)));

  program
    .command('attach')
    .description('follow a run started earlier: replay its events, show it live, and resume it if it was interrupted')
    .argument('<run-id>', 'the run id that build printed (or the Detached line)')
    .addOption(new Option('--since <event-id>', 'replay only the events after this one (default: all)').argParser(eventNumber))
    .option('-o, --out <dir>', 'write the generated files into this folder when the run completes')
    .option('--force', 'write into --out even if the folder has files in it')
    .option('--strict', 'exit 3 when the Proven Code gate finds problems')
    .option('--require-proof', 'exit 3 when Proven Code failed and 5 when it proved nothing')
    .addHelpText('after', RUN_HELP)
    .action(async (runId: string, options: AttachOptions, command: Command) => (await import('./commands/attach.js')).attach(runId, options, await ctx(command)));

  program
    .command('enhance')
    .description('refine a prompt with 2 passes of 4 engines and print the result on stdout')
    .argument('<prompt>', 'the prompt or idea to enhance (quote it)')
    .option('--attach <files...>', 'send up to 5 files with the prompt (text, code or images, 5 MB each); put the prompt first')
    .addHelpText('after', ENHANCE_HELP)
    .action(async (prompt: string, options: EnhanceOptions, command: Command) => (await import('./commands/enhance.js')).enhance(prompt, options, await ctx(command)));
}

const RUN_HELP = `
Exit codes: 0 the run completed, 1 it failed (or the server refused), 2 usage error,
3 --strict or --require-proof and the Proven Code gate found problems, 4 out of credits (the run
is paused: \`wolfpack attach RUN_ID\` resumes it after a top-up) or at --max-cost, 5
--require-proof and the project was not proven (nothing failed, but what applies could not run,
such as on a server without a sandbox), 130 detached with Ctrl+C (the run goes on).
With --json, stdout carries one JSON object per event: the event plus its number as eventId.`;

const REPAIR_HELP = `
Only a project whose current Proven Code verdict is failed has something to repair: the server
refuses one that passed or is not proven (\`wolfpack verify\` checks it again instead, free), and
one another run is working on (exit 1, with the server's sentence). The repair rounds are reserved
and charged like a stage, and refunded when they do not make the code pass. The repaired files are
a new version of the same project.`;

const ENHANCE_HELP = `
stdout carries the enhanced prompt alone (PROMPT=$(wolfpack enhance "…")); the progress goes to
stderr. An empty result prints the original prompt, with a warning on stderr.
With --json, stdout carries one JSON object per event instead: the event plus its number as eventId.`;

function eventNumber(value: string): number {
  if (!/^\d{1,12}$/.test(value.trim())) throw new InvalidArgumentError('Use the number of an event (0 or more).');
  return Number(value);
}
