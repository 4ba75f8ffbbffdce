import { readFileSync } from 'node:fs';
import { Command, InvalidArgumentError, Option } from 'commander';
import { ITERATE_MODES, parsePort } from './command-options.js';
import type { IterateOptions } from './commands/iterate.js';
import type { ServeOptions } from './commands/serve.js';
import type { CommandContext } from './context.js';
import type { CliIo } from './io.js';
import { addAccountCommands } from './program-account.js';
import { addAdminCommands } from './program-admin.js';
import { addCommunityCommands } from './program-community.js';
import { addProjectCommands } from './program-projects.js';
import { addRunCommands } from './program-runs.js';
import { addVersionCommands } from './program-versions.js';
import { DEFAULT_SERVER } from './server-url.js';

export type { CliIo } from './io.js';

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };

const ENVIRONMENT_HELP = `
Environment:
  WOLFPACK_URL        server to talk to, like --server
  WOLFPACK_TOKEN      personal access token (\`wolfpack tokens create\`): no login or config file needed
  WOLFPACK_CONFIG     config file (default: $XDG_CONFIG_HOME/wolfpack/config.json or ~/.config/wolfpack/config.json)
  GITHUB_TOKEN        GitHub token for \`wolfpack publish\` (else the one saved in Settings on the server)
  WOLFPACK_ADMIN_SECRET  the server's admin secret, for \`wolfpack admin\` (else --secret-stdin, or asked)
  NO_COLOR            no colours, like --no-color`;

/**
 * Builds the `wolfpack` program. Commander never exits the process or prints an error itself:
 * usage errors are thrown as CommanderError and reported by the one catch in index.ts.
 */
export function createProgram(io: CliIo): Command {
  // Each command loads its module (and @wolfpack/core, Ink, the server) only when it runs, so
  // `wolfpack --help` and usage errors answer at once.
  const ctx = async (command: Command): Promise<CommandContext> => (await import('./context.js')).contextFor(io, command);
  const program = new Command('wolfpack')
    .description('Turn a project idea into generated project files, from your terminal.')
    .version(version, '-v, --version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .option('--server <url>', `Wolfpack server (default: $WOLFPACK_URL, else the last one logged in to, else ${DEFAULT_SERVER})`)
    .option('--json', 'print JSON on stdout instead of sentences: one object, or one per line for commands that stream events')
    .option('--no-color', 'never print colours')
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
      // index.ts prints the one-line error.
      outputError: () => {},
    })
    .configureHelp({ showGlobalOptions: true })
    .showSuggestionAfterError()
    .addHelpText('after', ENVIRONMENT_HELP);

  program
    .command('serve')
    .description('run a Wolfpack server in the foreground (Ctrl+C stops it)')
    .addOption(new Option('-p, --port <port>', 'port to listen on; 0 picks a free one (default: $PORT, else 3000)').argParser(portArgument))
    .option('--host <host>', 'address to listen on; 0.0.0.0 exposes the server to the network (default: 127.0.0.1)')
    .option('--data-dir <dir>', 'where the database and files live (default: $WOLFPACK_DATA_DIR, else ./data)')
    .action(async (options: ServeOptions, command: Command) => (await import('./commands/serve.js')).serve(options, await ctx(command)));

  // The commands by group, each in its own file (help lists them in this order).
  addAccountCommands(program, ctx);
  addRunCommands(program, ctx);
  addProjectCommands(program, ctx);
  addVersionCommands(program, ctx);
  addCommunityCommands(program, ctx);

  program
    .command('iterate')
    .description('change files with the njin iteration engine: print the verified patch, or --apply it')
    .argument('<files...>', 'the files to send, inside the current folder')
    .requiredOption('--instruction <text>', 'what to change, in your words (quote it)')
    .option('--key <key>', 'your njin API key (default: $NJIN_API_KEY)')
    .option('--apply', 'write the changed files instead of printing the patch (only when they still hold what was sent)')
    .addOption(new Option('--mode <mode>', 'auto: one engine for light changes, consensus for heavy ones').choices(ITERATE_MODES).default('auto'))
    .addHelpText('after', ITERATE_HELP)
    .action(async (files: string[], options: IterateOptions, command: Command) => (await import('./commands/iterate.js')).iterate(files, options, await ctx(command)));

  addAdminCommands(program, ctx);

  return program;
}

const ITERATE_HELP = `
Needs an njin licence ($29/month; on a server that takes no payments, its operator grants one
with wolfpack admin grant-licence) and an API key from the /njin page of the web app. stdout
carries the unified patch alone (wolfpack iterate … > change.patch); a one-line summary goes to
stderr. --json prints the whole reply plus "applied". Exit codes: 0 done, 1 no candidate passed
the checks (each one's failures are listed) or the server refused, 2 usage error, 4 no active
licence.`;

function portArgument(value: string): number {
  const port = parsePort(value);
  if (port === undefined) throw new InvalidArgumentError('Use a whole number from 0 to 65535.');
  return port;
}
