import { InvalidArgumentError, Option, type Command } from 'commander';
import { DEFAULT_USAGE_LIMIT, MAX_USAGE_LIMIT, tokenDays } from './command-options.js';
import type { LoginOptions } from './commands/login.js';
import type { LogoutOptions } from './commands/logout.js';
import type { TokensCreateOptions } from './commands/tokens.js';
import type { UsageOptions } from './commands/usage.js';
import type { CommandContext } from './context.js';

/** The account's commands: signing in and out, API tokens, who you are, credits and usage. */
export function addAccountCommands(program: Command, ctx: (command: Command) => Promise<CommandContext>): void {
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
}

const TOKENS_CREATE_HELP = `
stdout carries the token alone (TOKEN=$(wolfpack tokens create ci)); a note on stderr says it is
shown once. The server keeps only a hash of it. In CI, set WOLFPACK_TOKEN and WOLFPACK_URL and
every command runs without \`wolfpack login\`. --json prints {"id", "name", "token", "createdAt",
"expiresAt"}.`;

const TOPUP_HELP = `
Packs: $10; $25 + 2% bonus; $50 + 4% (popular); $100 + 4%. stdout carries the checkout URL alone
(open "$(wolfpack topup 25)"); the credits arrive once Stripe confirms the payment. --json prints
{"amountDollars", "bonusDollars", "checkoutUrl"}. A server without Stripe keys says so (exit 1).`;

function usageLimit(value: string): number {
  const limit = /^\d{1,6}$/.test(value.trim()) ? Number(value) : NaN;
  if (!(limit >= 1 && limit <= MAX_USAGE_LIMIT)) throw new InvalidArgumentError(`Use a whole number from 1 to ${MAX_USAGE_LIMIT}.`);
  return limit;
}
