import { Option, type Command } from 'commander';
import { listingLimit, pageNumber, SHOWCASE_PAGE_SIZE, SHOWCASE_SORTS } from './command-options.js';
import type { ShowcaseGetOptions, ShowcaseListOptions } from './commands/showcase.js';
import type { CommandContext } from './context.js';

/** The Community Showcase's listings and your PackCast capsules. */
export function addCommunityCommands(program: Command, ctx: (command: Command) => Promise<CommandContext>): void {
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
}

const SHOWCASE_GET_HELP = `
A free listing becomes a project of yours (once: asking again gives the same copy) and its files
are written like \`wolfpack pull\` writes them. A commercial listing prints its Stripe Checkout
link and exits 4; after paying, the same command writes your bought copy. --json prints
{"listingId", "projectId", "dir", "files"}, or {"listingId", "title", "priceCents", "checkoutUrl"}
with exit 4.`;
