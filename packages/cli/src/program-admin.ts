import { Option, type Command } from 'commander';
import type { AdminSecretOptions, GrantLicenceOptions } from './commands/admin.js';
import type { CommandContext } from './context.js';

const ADMIN_HELP = `
The admin secret is WOLFPACK_ADMIN_SECRET on the server, or else the "adminSecret" field of its
DATA_DIR/secrets.json. It is read from $WOLFPACK_ADMIN_SECRET, from stdin with --secret-stdin,
or asked for on a terminal; never from an argument, which other users of the machine can see.
A licence paid through Stripe is left to Stripe. --json prints {"licence", "changed"}.`;

const SECRET_STDIN = 'read the admin secret from the first line of stdin (default: $WOLFPACK_ADMIN_SECRET, else asked)';

/**
 * `wolfpack admin …`: the operator's commands, kept apart from the user's (program.ts and
 * its program-*.ts groups). Like every command, each loads its module only when it runs.
 */
export function addAdminCommands(program: Command, ctx: (command: Command) => Promise<CommandContext>): void {
  const admin = program.command('admin').description('operator commands for a server you run, authorised by its admin secret (not a login)');
  admin
    .command('grant-licence')
    .description('give a user an njin licence until a date (for servers that take no payments)')
    .argument('<user>', 'the username they sign in with')
    .requiredOption('--until <date>', 'the last day (YYYY-MM-DD, through its end in UTC) or an ISO time such as 2027-01-31T18:00:00Z')
    .option('--secret-stdin', SECRET_STDIN)
    .addOption(refusedSecret())
    .addHelpText('after', ADMIN_HELP)
    .action(async (user: string, options: GrantLicenceOptions, command: Command) => (await import('./commands/admin.js')).grantLicence(user, options, await ctx(command)));
  admin
    .command('revoke-licence')
    .description("end a user's granted njin licence now")
    .argument('<user>', 'the username they sign in with')
    .option('--secret-stdin', SECRET_STDIN)
    .addOption(refusedSecret())
    .addHelpText('after', ADMIN_HELP)
    .action(async (user: string, options: AdminSecretOptions, command: Command) => (await import('./commands/admin.js')).revokeLicence(user, options, await ctx(command)));
}

/**
 * Hidden, and refused when it runs: someone who types --secret VALUE learns why it is not taken,
 * instead of commander's "did you mean --server?", and the value is not echoed back.
 */
function refusedSecret(): Option {
  return new Option('--secret <secret>').hideHelp();
}
