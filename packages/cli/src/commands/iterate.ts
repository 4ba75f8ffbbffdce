import { mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import {
  AppError,
  codeForStatus,
  errorReply,
  NJIN_MAX_FILES,
  NJIN_MAX_TOTAL_BYTES,
  njinApiKey,
  njinIterateReply,
  njinKeyProblem,
  njinNoPassingReply,
  type NjinCandidate,
  type NjinIterateMode,
  type NjinIterateReply,
} from '@wolfpack/core';
import { unreachableMessage } from '../api.js';
import { readConfig } from '../config.js';
import { serverFor, spinnerOptions, type CommandContext } from '../context.js';
import { EXIT_PAYMENT_REQUIRED, ExitCode } from '../exit-code.js';
import { plural } from '../format.js';
import { withSpinner } from '../ui/spinner.js';
import { UsageError } from '../usage-error.js';

/**
 * How long one iteration may take: consensus asks several engines and then has them vote, which
 * is far slower than the CLI's usual 30 s request.
 */
export const ITERATE_TIMEOUT_MS = 5 * 60_000;

export interface IterateOptions {
  instruction: string;
  /** Else NJIN_API_KEY. */
  key?: string | undefined;
  /** Write the changed files instead of printing the patch. */
  apply?: boolean | undefined;
  /** @default 'auto' */
  mode?: NjinIterateMode | undefined;
}

const WHERE_KEYS_ARE = 'the /njin page of the web app (Setup tab), then pass it with --key or set NJIN_API_KEY.';
const GET_A_KEY = `Create one on ${WHERE_KEYS_ARE}`;
/** After a refused key; --key and NJIN_API_KEY are where the person typed it. */
const CHECK_THE_KEY = 'Check the key, or create a new one on the /njin page of the web app.';

/**
 * The key from --key or NJIN_API_KEY, checked for its shape and checksum (core's njinKeyProblem,
 * as the server checks it) before anything is read or sent.
 */
export function resolveKey(flag: string | undefined, env: NodeJS.ProcessEnv): string {
  const given = flag ?? env['NJIN_API_KEY'];
  if (given === undefined || given.trim() === '') throw new UsageError(`An njin API key is required. ${GET_A_KEY}`);
  const parsed = njinApiKey.safeParse(given);
  if (!parsed.success) throw new UsageError(`${parsed.error.issues[0]?.message ?? 'The njin API key is not valid'}. ${GET_A_KEY}`);
  const problem = njinKeyProblem(parsed.data);
  if (problem !== null) throw new UsageError(`${withoutAdvice(problem)} Copy it again from ${WHERE_KEYS_ARE}`);
  return parsed.data;
}

/**
 * The problem alone, without the advice that follows it: core's and the server's sentences about a
 * key end by sending the person to "the njin page", and the CLI says instead where that is and
 * where the key goes, once.
 */
function withoutAdvice(message: string): string {
  return sentence(/^.*?[.!?](?=\s|$)/.exec(message.trim())?.[0] ?? message);
}

/**
 * A file argument as the path the server sees: relative to the working directory, with forward
 * slashes. Paths that leave the working directory are refused, so a reply can only ever name
 * files inside it.
 */
export function sanitizePath(cwd: string, given: string): string {
  if (given.trim() === '' || given.includes('\0')) throw new UsageError(`"${given}" is not a file path.`);
  const rel = relative(cwd, resolve(cwd, given));
  if (rel === '' || rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) {
    throw new UsageError(`${given} is outside the current folder. Run wolfpack iterate from a folder that holds every file you send.`);
  }
  return rel.split(sep).join('/');
}

/** Reads the files to send, keyed by their sanitised path, within the server's limits. */
export async function readFiles(cwd: string, given: readonly string[]): Promise<Record<string, string>> {
  if (given.length === 0) throw new UsageError('Name at least one file to change: wolfpack iterate --instruction "…" src/app.ts');
  const files: Record<string, string> = {};
  let bytes = 0;
  for (const arg of given) {
    const path = sanitizePath(cwd, arg);
    if (path in files) continue;
    const absolute = join(cwd, path);
    const info = await stat(absolute).catch(() => undefined);
    if (!info) throw new UsageError(`${arg} does not exist.`);
    if (!info.isFile()) throw new UsageError(`${arg} is not a file. Name the files themselves (a shell glob like src/*.ts works).`);
    const content = await readFile(absolute, 'utf8');
    bytes += Buffer.byteLength(content, 'utf8');
    files[path] = content;
  }
  if (Object.keys(files).length > NJIN_MAX_FILES) throw new UsageError(`Send at most ${NJIN_MAX_FILES} files at once.`);
  if (bytes > NJIN_MAX_TOTAL_BYTES) throw new UsageError('The files must total at most 2 MB. Send only the files the change needs.');
  return files;
}

/**
 * Writes the reply's changed files, but only when it applies cleanly: every file that was sent
 * still has the content that was sent, and every new file does not exist yet. Otherwise nothing
 * is written. The patch was made against what was sent, so those files are exactly the patch
 * applied. Returns the paths written.
 */
export async function applyChanges(cwd: string, sent: Record<string, string>, changed: Record<string, string>): Promise<string[]> {
  const paths = Object.keys(changed).sort();
  const stale: string[] = [];
  for (const path of paths) {
    // The server's paths are checked like ours: a reply never writes outside the folder.
    let clean: string | undefined;
    try {
      clean = sanitizePath(cwd, path);
    } catch {
      clean = undefined;
    }
    if (clean !== path) throw new AppError('BAD_GATEWAY', `The server sent a change to ${path}, outside the folder or not in the form sent. Nothing was written.`);
    const now = await readFile(join(cwd, path), 'utf8').catch(() => undefined);
    const expected = sent[path];
    if (now !== expected) stale.push(path);
  }
  if (stale.length > 0) {
    throw new AppError(
      'CONFLICT',
      `The patch no longer applies cleanly: ${stale.join(', ')} changed since the request. Nothing was written; run wolfpack iterate again.`,
    );
  }
  for (const path of paths) {
    const target = join(cwd, path);
    await mkdir(dirname(target), { recursive: true });
    // Written beside the file and renamed over it, so an interrupted write never leaves half a file.
    const temp = `${target}.wolfpack-${process.pid}.tmp`;
    await writeFile(temp, changed[path] ?? '', 'utf8');
    await rename(temp, target);
  }
  return paths;
}

/** "consensus, consensus score 0.67, 2 candidates passed, 1 failed (iteration 12 on this licence)". */
export function summaryLine(reply: NjinIterateReply): string {
  const passed = reply.candidates.filter((c) => c.passed).length;
  const failed = reply.candidates.length - passed;
  const how = reply.mode === 'consensus' ? 'consensus' : 'single engine';
  return `njin: ${how}, consensus score ${reply.consensusScore.toFixed(2)}, ${plural(passed, 'candidate')} passed, ${failed} failed (iteration ${reply.usageCount} on this licence).`;
}

/** One line per candidate of a 422: which checks it failed. */
export function candidateLines(candidates: readonly NjinCandidate[]): string[] {
  return candidates.map((c) => `  ${c.engine}: ${c.passed ? 'passed' : `failed ${c.failedChecks.length > 0 ? c.failedChecks.join('; ') : 'the checks'}`}`);
}

/**
 * `wolfpack iterate --instruction TEXT FILES…`: sends the files and the instruction to the njin
 * iteration API (POST /api/njin/iterate, authorised by the njin key, not the login) and prints
 * the unified patch on stdout with a one-line summary on stderr; `--apply` writes the changed
 * files instead, only when they still hold what was sent. No passing candidate: each one's
 * failures, exit 1. No active licence: the server's sentence, exit 4. Rate limited: when to retry.
 */
export async function iterate(given: readonly string[], options: IterateOptions, context: CommandContext): Promise<void> {
  const key = resolveKey(options.key, context.io.env);
  const instruction = options.instruction.trim();
  if (instruction === '') throw new UsageError('Say what to change with --instruction "…".');
  const files = await readFiles(context.io.cwd, given);
  const server = serverFor(context, await readConfig(context.configPath));
  const body = { files, instruction, mode: options.mode ?? 'auto' };

  const reply = await withSpinner(
    `Iterating on ${plural(Object.keys(files).length, 'file')}`,
    () => postIterate(server, key, body),
    spinnerOptions(context),
  ).catch((error: unknown) => {
    throw explainFailure(error, context);
  });

  if (options.apply) {
    const written = await applyChanges(context.io.cwd, files, reply.files);
    if (!context.output.json) context.io.stderr.write(`${summaryLine(reply)}\n`);
    const human = written.length === 0 ? 'No changes to apply.' : `Applied the patch to ${plural(written.length, 'file')}: ${written.join(', ')}`;
    context.output.result(human, { ...reply, applied: written });
    return;
  }
  if (context.output.json) return context.output.result('', { ...reply, applied: [] });
  context.io.stderr.write(`${summaryLine(reply)}\n`);
  if (reply.patch === '') context.io.stderr.write('The engines proposed no change.\n');
  else context.io.stdout.write(reply.patch.endsWith('\n') ? reply.patch : `${reply.patch}\n`);
}

/** A 422 whose candidates the command prints before it fails. */
class NoPassingCandidate extends AppError {
  constructor(
    message: string,
    readonly candidates: NjinCandidate[],
  ) {
    super('UNPROCESSABLE', message, { candidates });
  }
}

/** POSTs the request; every non-ok answer becomes an AppError carrying the server's sentence. */
export async function postIterate(server: string, key: string, body: unknown): Promise<NjinIterateReply> {
  let response: Response;
  try {
    response = await fetch(`${server}/api/njin/iterate`, {
      method: 'POST',
      headers: { accept: 'application/json', 'content-type': 'application/json', authorization: `Bearer ${key}` },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(ITERATE_TIMEOUT_MS),
      redirect: 'manual',
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'TimeoutError') {
      throw new AppError('SERVICE_UNAVAILABLE', `The njin server at ${server} did not answer within ${ITERATE_TIMEOUT_MS / 60_000} minutes. Try again with fewer files.`, undefined, { cause: error });
    }
    throw new AppError('SERVICE_UNAVAILABLE', unreachableMessage(server), undefined, { cause: error });
  }
  const data: unknown = await response.json().catch(() => undefined);
  if (response.ok) {
    const parsed = njinIterateReply.safeParse(data);
    if (parsed.success) return parsed.data;
    throw new AppError('BAD_GATEWAY', `The server at ${server} sent an iteration reply this CLI does not understand. Is it a Wolfpack server of the same version?`);
  }
  if (response.status === 422) {
    const parsed = njinNoPassingReply.safeParse(data);
    if (parsed.success) throw new NoPassingCandidate(parsed.data.error, parsed.data.candidates);
  }
  const parsed = errorReply.safeParse(data);
  if (!parsed.success) {
    throw new AppError(codeForStatus(response.status), `The server at ${server} answered ${response.status} ${response.statusText}. Is it a Wolfpack server?`.trim());
  }
  const header = Number(response.headers.get('retry-after'));
  const retryAfterSeconds = parsed.data.retryAfterSeconds ?? (Number.isFinite(header) && header > 0 ? header : undefined);
  throw new AppError(codeForStatus(response.status), parsed.data.error, retryAfterSeconds === undefined ? undefined : { retryAfterSeconds });
}

/** Turns the answers the iteration API is known for into what the person should do next. */
function explainFailure(error: unknown, context: CommandContext): unknown {
  if (!(error instanceof AppError)) return error;
  switch (error.code) {
    case 'UNAUTHORIZED':
      return new AppError('UNAUTHORIZED', `${withoutAdvice(error.message)} ${CHECK_THE_KEY}`, undefined, { cause: error });
    case 'PAYMENT_REQUIRED':
      if (context.output.json) context.output.result('', { error: error.message, code: error.code });
      return new ExitCode(EXIT_PAYMENT_REQUIRED, context.output.json ? '' : error.message);
    case 'UNPROCESSABLE':
      if (error instanceof NoPassingCandidate) {
        if (context.output.json) {
          context.output.result('', { error: error.message, code: error.code, candidates: error.candidates });
          return new ExitCode(1);
        }
        context.io.stderr.write(`No candidate passed the checks:\n${candidateLines(error.candidates).join('\n')}\n`);
      }
      return error;
    case 'TOO_MANY_REQUESTS': {
      const seconds = error.details?.retryAfterSeconds;
      // The server's sentence usually says when already; only add it when it does not.
      if (seconds === undefined || new RegExp(`\\b${Math.ceil(seconds)}\\b`).test(error.message)) return error;
      return new AppError('TOO_MANY_REQUESTS', `${sentence(error.message)} Try again in ${plural(Math.ceil(seconds), 'second')}.`, error.details);
    }
    default:
      return error;
  }
}

function sentence(text: string): string {
  const trimmed = text.trim();
  return /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}
