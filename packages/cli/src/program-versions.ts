import { Argument, type Command } from 'commander';
import { fromVersionArgument, versionArgument } from './command-options.js';
import { letCommandsOwnVersion } from './command-version-option.js';
import type { ImportOptions } from './commands/import.js';
import type { DiffOptions } from './commands/versions.js';
import type { CommandContext } from './context.js';

/**
 * The commands on a project's versions: list, diff and restore them, and import a project from a
 * folder, a zip or GitHub as its version 1. Also lets `export`, `pull` and `publish` take
 * `--version N` after their name (see command-version-option.ts).
 */
export function addVersionCommands(program: Command, ctx: (command: Command) => Promise<CommandContext>): void {
  program
    .command('versions')
    .description('list a project\'s versions, newest first: what made each, Proven Code\'s verdict and what changed')
    .argument('<id>', 'the project id (its first 8 characters are enough)')
    .addHelpText('after', VERSIONS_HELP)
    .action(async (id: string, options: object, command: Command) => (await import('./commands/versions.js')).versionsList(id, options, await ctx(command)));

  program
    .command('diff')
    .description('print what changed between two versions of a project, as a unified diff')
    .argument('<id>', 'the project id (its first 8 characters are enough)')
    .addArgument(new Argument('[from]', 'the older version; 0 for nothing (default: the version before TO)').argParser(fromVersionArgument))
    .addArgument(new Argument('[to]', 'the newer version (default: the current one)').argParser(versionArgument))
    .option('--stat', 'list the changed files with their added and removed lines instead of the diff')
    .addHelpText('after', DIFF_HELP)
    .action(async (id: string, from: number | undefined, to: number | undefined, options: DiffOptions, command: Command) =>
      (await import('./commands/versions.js')).diff(id, from, to, options, await ctx(command)),
    );

  program
    .command('restore')
    .description('make an earlier version\'s files the project\'s files again, as a new version')
    .argument('<id>', 'the project id (its first 8 characters are enough)')
    .addArgument(new Argument('<version>', 'the version to bring back').argParser(versionArgument))
    .addHelpText('after', RESTORE_HELP)
    .action(async (id: string, version: number, options: object, command: Command) => (await import('./commands/versions.js')).restore(id, version, options, await ctx(command)));

  program
    .command('import')
    .description('make a new project from a folder, a zip file or a GitHub repository')
    .argument('<source>', 'a folder, a .zip file, or github:OWNER/REPO[@REF]')
    .option('--idea <text>', 'the project\'s idea (default: the first paragraph of its README)')
    .addHelpText('after', IMPORT_HELP)
    .action(async (source: string, options: ImportOptions, command: Command) => (await import('./commands/import.js')).importProject(source, options, await ctx(command)));

  letCommandsOwnVersion(program);
}

const VERSIONS_HELP = `
Every change to a project's files is a new version: a build, a continued build, a repair, an edit
in the browser, a restore or an import. Nothing replaces a version, so any of them can be diffed,
pulled, exported, published or restored. The current version is marked. --json prints
{"current", "versions": [...]} as the server sends it.`;

const DIFF_HELP = `
Without versions it shows what the current version changed; with FROM alone, what changed from FROM
to the current version. Colours only on a terminal. Exit code 0 whether or not the versions
differ (2 for a usage error, 1 when the server refuses). --json prints the server's reply: from,
to, the counts and every file with its text before and after and its patch.`;

const RESTORE_HELP = `
The project's files become that version's, as a new version ("Restored from version N"); the
versions in between stay. Files Proven Code checked before keep their verdict. --json prints
{"version", "verification"}.`;

const IMPORT_HELP = `
A folder is zipped in memory and sent; symbolic links are not followed, and node_modules/, .git/,
build output and the like are left out, as the server leaves them out of a zip. Binary files are
skipped too: Wolfpack keeps text. A GitHub repository is read by the server with GITHUB_TOKEN
(sent with this request only), else the token saved in Settings; @REF picks a branch, tag or commit. Prints the new project's id, idea and file count
and every path left out with the reason; --json prints {"project", "version", "skipped"}.`;
