import { Option, type Command } from 'commander';
import { PROJECT_SORTS, projectLimit, versionArgument } from './command-options.js';
import type { ExportOptions } from './commands/export.js';
import type { FoldersCreateOptions, FoldersRemoveOptions } from './commands/folders.js';
import type { PreviewOptions } from './commands/preview.js';
import type { ProjectsListOptions, ProjectsMoveOptions, ProjectsRemoveOptions } from './commands/projects.js';
import type { PublishOptions } from './commands/publish.js';
import type { PullOptions } from './commands/pull.js';
import type { VerifyOptions } from './commands/verify.js';
import type { CommandContext } from './context.js';

/** The commands on saved projects: list, show, move and delete them, check, export, preview, pull and publish them, and their folders. */
export function addProjectCommands(program: Command, ctx: (command: Command) => Promise<CommandContext>): void {
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
    .addOption(new Option('--version <n>', 'zip this version of the project (default: the current one)').argParser(versionArgument))
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
    .addOption(new Option('--version <n>', 'write this version\'s files (default: the current one)').argParser(versionArgument))
    .action(async (id: string, options: PullOptions, command: Command) => (await import('./commands/pull.js')).pull(id, options, await ctx(command)));

  program
    .command('publish')
    .description('publish a project to a GitHub repository and print its URL')
    .argument('<id>', 'the project id (its first 8 characters are enough)')
    .requiredOption('--repo <name>', 'repository name on the token\'s GitHub account (letters, digits, . _ -)')
    .option('--private', 'create the repository as private')
    .option('--description <text>', 'the repository\'s description')
    .addOption(new Option('--version <n>', 'publish this version of the project (default: the current one)').argParser(versionArgument))
    .option('--history', 'push every version up to it as a commit of its own, oldest first, its source as the message (a new repository only)')
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
}

const VERIFY_HELP = `
A re-check runs the static checks and, in the server's sandbox, the project's tests, a start and
a page load (no engine call, nothing charged; it can take up to about 30 s). It prints one line per
check (status, check, read or ran, files, command, skip reason, tests), the problems with
file:line and their output, then the verdict with what was and was not proven. --json prints the
record alone (null when there is none). Exit codes: 0 passed, 1 the server refused, 2 usage error,
3 failed, 5 not proven (what applies could not run) or no record yet.`;

const PUBLISH_HELP = `
The GitHub token comes from GITHUB_TOKEN (sent to the server with this request only, never
stored); without it the server uses the token saved in Settings. stdout carries the repository
URL alone; --json prints {"repoUrl", "replitUrl"}. Publishing the same project to the same
repository again adds a commit on top.`;
