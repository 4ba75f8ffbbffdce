import { readFileSync } from 'node:fs';
import { Command, InvalidArgumentError, Option } from 'commander';
import {
  costLimit,
  cycleCount,
  DEFAULT_USAGE_LIMIT,
  ITERATE_MODES,
  listingLimit,
  MAX_USAGE_LIMIT,
  pageNumber,
  tokenDays,
  parseEngineList,
  parsePort,
  PROJECT_SORTS,
  projectLimit,
  SHOWCASE_PAGE_SIZE,
  SHOWCASE_SORTS,
} from './command-options.js';
import type { AttachOptions } from './commands/attach.js';
import type { BuildOptions } from './commands/build.js';
import type { EnhanceOptions } from './commands/enhance.js';
import type { ExportOptions } from './commands/export.js';
import type { FoldersCreateOptions, FoldersRemoveOptions } from './commands/folders.js';
import type { IterateOptions } from './commands/iterate.js';
import type { LogoutOptions } from './commands/logout.js';
import type { LoginOptions } from './commands/login.js';
import type { ProjectsListOptions, ProjectsMoveOptions, ProjectsRemoveOptions } from './commands/projects.js';
import type { PublishOptions } from './commands/publish.js';
import type { PreviewOptions } from './commands/preview.js';
import type { PullOptions } from './commands/pull.js';
import type { RepairOptions } from './commands/repair.js';
import type { ServeOptions } from './commands/serve.js';
import type { ShowcaseGetOptions, ShowcaseListOptions } from './commands/showcase.js';
import type { TokensCreateOptions } from './commands/tokens.js';
import type { UsageOptions } from './commands/usage.js';
import type { VerifyOptions } from './commands/verify.js';
import type { CommandContext } from './context.js';
import type { CliIo } from './io.js';
import { addAdminCommands } from './program-admin.js';
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
    .addOption(new Option('--workers <n>', 'server processes sharing the port, PostgreSQL only (default: $WOLFPACK_WORKERS, else 1)').argParser(workersArgument))
    .action(async (options: ServeOptions, command: Command) => (await import('./commands/serve.js')).serve(options, await ctx(command)));

  program
    .command('login')
    .description('log in to a Wolfpack server and keep an API token for it')
    .option('-u, --username <name>', 'your username (asked for when left out)')
    .option('--password-stdin', 'read the password from the first line of stdin, for scripts')
    .action(async (options: LoginOptions, command: Command) => (await import('./commands/login.js')).login(options, await ctx(command)));

  program
    .command('logout')
    .description('revoke and forget the API token for the server')
    .option('--everywhere', 'sign out everywhere: every browser session, every API token and every preview link of the account')
    .action(async (options: LogoutOptions, command: Command) => (await import('./commands/logout.js')).logout(options, await ctx(command)));

  const tokens = program.command('tokens').description('create, list and revoke personal access tokens for scripts and CI (WOLFPACK_TOKEN)');
  tokens
    .command('list', { isDefault: true })
    .alias('ls')
    .description('list your API tokens: name, id, created, last used and expiry (the default)')
    .action(async (options: object, command: Command) => (await import('./commands/tokens.js')).tokensList(options, await ctx(command)));
  tokens
    .command('create')
    .description('create a named API token and print it on stdout, this once')
    .argument('<name>', 'what the token is for, such as github-actions')
    .addOption(new Option('--expires <days>', 'days until it stops working, 1 to 365, or never (default: never)').argParser(tokenDays))
    .addHelpText('after', TOKENS_CREATE_HELP)
    .action(async (name: string, options: TokensCreateOptions, command: Command) => (await import('./commands/tokens.js')).tokensCreate(name, options, await ctx(command)));
  tokens
    .command('revoke')
    .description('revoke an API token: it stops working at once')
    .argument('<id>', 'the token id, as `wolfpack tokens list` shows it (its first 8 characters are enough)')
    .action(async (id: string, options: object, command: Command) => (await import('./commands/tokens.js')).tokensRevoke(id, options, await ctx(command)));

  program
    .command('whoami')
    .description('show who you are logged in as on the server')
    .action(async (_options: object, command: Command) => (await import('./commands/whoami.js')).whoami({}, await ctx(command)));

  program
    .command('balance')
    .description('show your credits, the monthly free grant and your referral code')
    .action(async (_options: object, command: Command) => (await import('./commands/balance.js')).balance({}, await ctx(command)));

  program
    .command('usage')
    .description('list your newest engine calls: date, stage, tokens and what each was billed')
    .addOption(new Option('-n, --limit <n>', `how many calls, 1 to ${MAX_USAGE_LIMIT}`).argParser(usageLimit).default(DEFAULT_USAGE_LIMIT))
    .action(async (options: UsageOptions, command: Command) => (await import('./commands/usage.js')).usage(options, await ctx(command)));

  program
    .command('topup')
    .description('buy credits: print the Stripe Checkout link for a credit pack')
    .argument('<amount>', 'the pack in dollars: 10, 25, 50 or 100 ($25 and 25 both work)')
    .addHelpText('after', TOPUP_HELP)
    .action(async (amount: string, _options: object, command: Command) => (await import('./commands/topup.js')).topup(amount, {}, await ctx(command)));

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

  const projects = program.command('projects').description('list, show, move and delete your projects');
  projects
    .command('ls', { isDefault: true })
    .description('list your projects (the default)')
    .addOption(new Option('--sort <order>', 'order of the list').choices(PROJECT_SORTS).default('newest'))
    .option('--folder <id>', 'only the projects in this folder; root for those in no folder')
    .option('--limit <n>', 'only the first n projects (default: all of them)', projectLimit)
    .action(async (options: ProjectsListOptions, command: Command) => (await import('./commands/projects.js')).projectsList(options, await ctx(command)));
  projects
    .command('show')
    .description('show a project: its idea, dates, folder and files')
    .argument('<id>', 'the project id (its first 8 characters are enough)')
    .action(async (id: string, options: object, command: Command) => (await import('./commands/projects.js')).projectsShow(id, options, await ctx(command)));
  projects
    .command('rm')
    .description('delete a project (asks first; outside a terminal, --yes is needed)')
    .argument('<id>', 'the project id (its first 8 characters are enough)')
    .option('-y, --yes', 'delete without asking')
    .action(async (id: string, options: ProjectsRemoveOptions, command: Command) => (await import('./commands/projects.js')).projectsRemove(id, options, await ctx(command)));
  projects
    .command('mv')
    .description('move a project into a folder, or back to the root')
    .argument('<id>', 'the project id (its first 8 characters are enough)')
    .requiredOption('--folder <id>', 'the folder id, or root')
    .action(async (id: string, options: ProjectsMoveOptions, command: Command) => (await import('./commands/projects.js')).projectsMove(id, options, await ctx(command)));

  program
    .command('verify')
    .description('run every Proven Code check again on a project and print each check and the verdict')
    .argument('<id>', 'the project id (its first 8 characters are enough)')
    .option('--no-recheck', 'print the stored record instead of checking again')
    .addHelpText('after', VERIFY_HELP)
    .action(async (id: string, options: VerifyOptions, command: Command) => (await import('./commands/verify.js')).verify(id, options, await ctx(command)));

  program
    .command('export')
    .description('download a project as a zip file')
    .argument('<id>', 'the project id (its first 8 characters are enough)')
    .option('-o, --out <file>', 'file to write, a folder to write into, or - for stdout (default: the server\'s file name, project-XXXXXXXX.zip, here)')
    .option('--force', 'replace the file if it exists')
    .action(async (id: string, options: ExportOptions, command: Command) => (await import('./commands/export.js')).exportProject(id, options, await ctx(command)));

  program
    .command('preview')
    .description('print the link that shows a project\'s app: its pages, or its sandboxed build')
    .argument('<id>', 'the project id (its first 8 characters are enough)')
    .action(async (id: string, options: PreviewOptions, command: Command) => (await import('./commands/preview.js')).preview(id, options, await ctx(command)));

  program
    .command('pull')
    .description('write a project\'s files into a folder')
    .argument('<id>', 'the project id (its first 8 characters are enough)')
    .requiredOption('-o, --out <dir>', 'the folder to write into (created when missing)')
    .option('--force', 'write into the folder even if it has files in it')
    .action(async (id: string, options: PullOptions, command: Command) => (await import('./commands/pull.js')).pull(id, options, await ctx(command)));

  program
    .command('publish')
    .description('publish a project to a GitHub repository and print its URL')
    .argument('<id>', 'the project id (its first 8 characters are enough)')
    .requiredOption('--repo <name>', 'repository name on the token\'s GitHub account (letters, digits, . _ -)')
    .option('--private', 'create the repository as private')
    .option('--description <text>', 'the repository\'s description')
    .addHelpText('after', PUBLISH_HELP)
    .action(async (id: string, options: PublishOptions, command: Command) => (await import('./commands/publish.js')).publish(id, options, await ctx(command)));

  const folders = program.command('folders').description('organise projects in folders');
  folders
    .command('ls', { isDefault: true })
    .description('show your folders as a tree (the default)')
    .action(async (options: object, command: Command) => (await import('./commands/folders.js')).foldersList(options, await ctx(command)));
  folders
    .command('create')
    .description('create a folder')
    .argument('<name>', 'the folder name')
    .option('--parent <id>', 'create it inside this folder (default: at the root)')
    .action(async (name: string, options: FoldersCreateOptions, command: Command) => (await import('./commands/folders.js')).foldersCreate(name, options, await ctx(command)));
  folders
    .command('rename')
    .description('rename a folder')
    .argument('<id>', 'the folder id (its first 8 characters are enough)')
    .argument('<name>', 'the new name')
    .action(async (id: string, name: string, options: object, command: Command) => (await import('./commands/folders.js')).foldersRename(id, name, options, await ctx(command)));
  folders
    .command('rm')
    .description('delete a folder; its projects and subfolders move to the root (asks first)')
    .argument('<id>', 'the folder id (its first 8 characters are enough)')
    .option('-y, --yes', 'delete without asking')
    .action(async (id: string, options: FoldersRemoveOptions, command: Command) => (await import('./commands/folders.js')).foldersRemove(id, options, await ctx(command)));

  const showcase = program.command('showcase').description('browse the Community Showcase and copy free listings into your projects');
  showcase
    .command('ls', { isDefault: true })
    .description('list showcase listings, newest first (the default; no login needed)')
    .option('--search <text>', 'only listings whose title, summary or tags match')
    .addOption(new Option('--free', 'only free listings').conflicts('commercial'))
    .addOption(new Option('--commercial', 'only listings for sale').conflicts('free'))
    .addOption(new Option('--sort <order>', 'order of the list').choices(SHOWCASE_SORTS).default('newest'))
    .addOption(new Option('-n, --limit <n>', 'listings per page, 1 to 100').argParser(listingLimit).default(SHOWCASE_PAGE_SIZE))
    .addOption(new Option('--page <n>', 'which page, from 1').argParser(pageNumber).default(1))
    .action(async (options: ShowcaseListOptions, command: Command) => (await import('./commands/showcase.js')).showcaseList(options, await ctx(command)));
  showcase
    .command('get')
    .description('copy a free listing into your projects and write its files into a folder')
    .argument('<id>', 'the listing id, as `wolfpack showcase ls` shows it (its first 8 characters are enough)')
    .requiredOption('-o, --out <dir>', 'the folder to write into (created when missing)')
    .option('--force', 'write into the folder even if it has files in it')
    .addHelpText('after', SHOWCASE_GET_HELP)
    .action(async (id: string, options: ShowcaseGetOptions, command: Command) => (await import('./commands/showcase.js')).showcaseGet(id, options, await ctx(command)));

  const capsules = program.command('capsules').description('list your PackCast capsules (recorded builds) and publish or hide them');
  capsules
    .command('ls', { isDefault: true })
    .description('list your capsules: visibility, views, shares and link (the default)')
    .action(async (options: object, command: Command) => (await import('./commands/capsules.js')).capsulesList(options, await ctx(command)));
  capsules
    .command('publish')
    .description('make a capsule public and print its link')
    .argument('<id>', 'the capsule id (its first 8 characters are enough) or its link')
    .action(async (id: string, options: object, command: Command) => (await import('./commands/capsules.js')).capsulesPublish(id, true, options, await ctx(command)));
  capsules
    .command('unpublish')
    .description('make a capsule private again (only you can open it)')
    .argument('<id>', 'the capsule id (its first 8 characters are enough) or its link')
    .action(async (id: string, options: object, command: Command) => (await import('./commands/capsules.js')).capsulesPublish(id, false, options, await ctx(command)));

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

const TOKENS_CREATE_HELP = `
stdout carries the token alone (TOKEN=$(wolfpack tokens create ci)); a note on stderr says it is
shown once. The server keeps only a hash of it. In CI, set WOLFPACK_TOKEN and WOLFPACK_URL and
every command runs without \`wolfpack login\`. --json prints {"id", "name", "token", "createdAt",
"expiresAt"}.`;

const ITERATE_HELP = `
Needs an njin licence ($29/month; on a server that takes no payments, its operator grants one
with wolfpack admin grant-licence) and an API key from the /njin page of the web app. stdout
carries the unified patch alone (wolfpack iterate … > change.patch); a one-line summary goes to
stderr. --json prints the whole reply plus "applied". Exit codes: 0 done, 1 no candidate passed
the checks (each one's failures are listed) or the server refused, 2 usage error, 4 no active
licence.`;

const ENHANCE_HELP = `
stdout carries the enhanced prompt alone (PROMPT=$(wolfpack enhance "…")); the progress goes to
stderr. An empty result prints the original prompt, with a warning on stderr.
With --json, stdout carries one JSON object per event instead: the event plus its number as eventId.`;

const SHOWCASE_GET_HELP = `
A free listing becomes a project of yours (once: asking again gives the same copy) and its files
are written like \`wolfpack pull\` writes them. A commercial listing prints its Stripe Checkout
link and exits 4; after paying, the same command writes your bought copy. --json prints
{"listingId", "projectId", "dir", "files"}, or {"listingId", "title", "priceCents", "checkoutUrl"}
with exit 4.`;

const PUBLISH_HELP = `
The GitHub token comes from GITHUB_TOKEN (sent to the server with this request only, never
stored); without it the server uses the token saved in Settings. stdout carries the repository
URL alone; --json prints {"repoUrl", "replitUrl"}. Publishing the same project to the same
repository again adds a commit on top.`;

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

const VERIFY_HELP = `
A re-check runs the static checks and, in the server's sandbox, the project's tests, a start and
a page load (no engine call, nothing charged; it can take up to about 30 s). It prints one line per
check (status, check, read or ran, files, command, skip reason, tests), the problems with
file:line and their output, then the verdict with what was and was not proven. --json prints the
record alone (null when there is none). Exit codes: 0 passed, 1 the server refused, 2 usage error,
3 failed, 5 not proven (what applies could not run) or no record yet.`;

const TOPUP_HELP = `
Packs: $10; $25 + 2% bonus; $50 + 4% (popular); $100 + 4%. stdout carries the checkout URL alone
(open "$(wolfpack topup 25)"); the credits arrive once Stripe confirms the payment. --json prints
{"amountDollars", "bonusDollars", "checkoutUrl"}. A server without Stripe keys says so (exit 1).`;

function usageLimit(value: string): number {
  const limit = /^\d{1,6}$/.test(value.trim()) ? Number(value) : NaN;
  if (!(limit >= 1 && limit <= MAX_USAGE_LIMIT)) throw new InvalidArgumentError(`Use a whole number from 1 to ${MAX_USAGE_LIMIT}.`);
  return limit;
}

function eventNumber(value: string): number {
  if (!/^\d{1,12}$/.test(value.trim())) throw new InvalidArgumentError('Use the number of an event (0 or more).');
  return Number(value);
}

function workersArgument(value: string): number {
  // The same range as WOLFPACK_WORKERS.
  if (!/^\d{1,3}$/.test(value.trim()) || Number(value) < 1 || Number(value) > 256) throw new InvalidArgumentError('Use a whole number of processes from 1 to 256.');
  return Number(value);
}

function portArgument(value: string): number {
  const port = parsePort(value);
  if (port === undefined) throw new InvalidArgumentError('Use a whole number from 0 to 65535.');
  return port;
}
