/**
 * `wolfpack pull ID --version 3`: after a command that has its own `--version <n>` (a project
 * version), `--version` is that command's, while `wolfpack --version` and `wolfpack whoami
 * --version` still print the CLI's version. Only commander here (`--help` loads this file).
 */
import type { Command, Option } from 'commander';

/**
 * Commander reads the program's options anywhere on the line, so its `-v, --version` would take
 * `pull ID --version 3` for itself. Commander's positional options would stop that, but also stop
 * `--json`, `--server` and `--no-color` from working after a command, as every script writes them.
 * So the program's own option reading sees such a `--version N` joined as `--version=N`, a form it
 * leaves to the command (its `--version` takes no value), and the command reads as its own.
 */
export function letCommandsOwnVersion(program: Command): void {
  const parse = program.parseOptions.bind(program);
  program.parseOptions = (args: string[]) => parse(joinCommandVersion(program, args));
}

/** `args` with each `--version N` after a command that declares `--version <n>` written `--version=N`. */
export function joinCommandVersion(program: Command, args: readonly string[]): string[] {
  const at = commandIndex(program, args);
  const name = at === -1 ? undefined : args[at];
  const command = program.commands.find((candidate) => candidate.name() === name || candidate.aliases().includes(name ?? ''));
  if (command === undefined || !command.options.some((option) => option.long === '--version')) return [...args];
  const joined = args.slice(0, at + 1);
  for (let i = at + 1; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') {
      joined.push(...args.slice(i));
      break;
    }
    if (arg === '--version') {
      // Without a value it still goes to the command, whose parser says what it needs.
      joined.push(`--version=${args[i + 1] ?? ''}`);
      i++;
      continue;
    }
    joined.push(arg);
    // Another option's value is passed on as it is, even when it reads "--version".
    if (takesValue(findOption(command, arg)) && i + 1 < args.length) joined.push(args[++i]!);
  }
  return joined;
}

/** Where the command's name is: the first word that is neither a program option nor its value; -1 for none. */
function commandIndex(program: Command, args: readonly string[]): number {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') return -1;
    if (!arg.startsWith('-') || arg === '-') return i;
    if (takesValue(findOption(program, arg))) i++;
  }
  return -1;
}

function findOption(command: Command, arg: string): Option | undefined {
  return command.options.find((option) => option.long === arg || option.short === arg);
}

function takesValue(option: Option | undefined): boolean {
  return option !== undefined && (option.required || option.optional);
}
