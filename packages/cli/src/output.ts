import { styleText } from 'node:util';
import { isCi, type CliIo } from './io.js';

type Style = Parameters<typeof styleText>[0];

/** How a command talks to the person or script that ran it. */
export interface Output {
  /** `--json`: stdout carries JSON and nothing else: one object, or one per event for the commands that follow a run. */
  readonly json: boolean;
  /** ANSI colours on stdout. */
  readonly color: boolean;
  /** Live views (spinners, prompts redrawn in place) on stderr: a terminal, not CI, not `--json`. */
  readonly live: boolean;
  /** Prints the human sentence, or under `--json` the data object, as the command's one result. */
  result(human: string, data: Record<string, unknown>): void;
  /** Applies a style when colours are on; returns the text unchanged otherwise. */
  style(format: Style, text: string): string;
}

export interface OutputOptions {
  json?: boolean | undefined;
  /** false for `--no-color`. */
  color?: boolean | undefined;
}

/**
 * Decides colour the way people expect: `--no-color` and NO_COLOR always win, FORCE_COLOR turns it
 * on, otherwise only a terminal outside CI gets colour.
 */
export function wantsColor(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv, flag?: boolean): boolean {
  if (flag === false) return false;
  if (env['NO_COLOR'] !== undefined && env['NO_COLOR'] !== '') return false;
  const force = env['FORCE_COLOR'];
  if (force !== undefined && force !== '') return force !== '0' && force !== 'false';
  return stream.isTTY === true && !isCi(env);
}

export function createOutput(io: CliIo, options: OutputOptions): Output {
  const json = options.json === true;
  const color = !json && wantsColor(io.stdout, io.env, options.color);
  const live = !json && io.stderr.isTTY === true && !isCi(io.env);
  return {
    json,
    color,
    live,
    result(human, data) {
      io.stdout.write(json ? `${JSON.stringify(data)}\n` : `${human}\n`);
    },
    style(format, text) {
      return color ? styleText(format, text, { validateStream: false }) : text;
    },
  };
}
