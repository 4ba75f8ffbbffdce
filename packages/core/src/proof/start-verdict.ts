/**
 * Whether a smoke start succeeded. The rule, for Node and Python alike: it must not exit with an
 * error or crash within the start window. Still running at the deadline, listening on a port, or
 * exiting 0 (a CLI that did its job) all count as started; so does a CLI that printed its usage
 * and stopped because it was given no arguments, which is not a defect of the code.
 */
import { combinedOutput, errorLine, limitSentence, problemFromRun } from './output.js';
import { checkResult, type CheckContext } from './check-context.js';
import type { ExecCheck, ExecProblem } from './report.js';
import type { SandboxResult } from './sandbox.js';

export type StartVerdict = { ok: true; summary: string } | { ok: false; problem: ExecProblem } | { ok: 'skipped'; reason: string };

// Failures that say the sandbox lacks something the code may rightly expect (a database, a
// secret, an install script), not that the code is wrong. Reported as skipped, with what was missing.
const NATIVE_ADDON = /Could not locate the bindings file|ERR_DLOPEN_FAILED|was compiled against a different Node\.js version|Cannot find module '[^']*\.node'|No native build was found/;
const SERVICE = /ECONNREFUSED|Connection refused/;
const SERVICE_ADDRESS = /ECONNREFUSED\s+((?:\d{1,3}\.){3}\d{1,3}|localhost|\[?::1\]?):(\d+)|port (\d+) failed: Connection refused/;
const CONFIG = /\b([A-Z][A-Z0-9]*_[A-Z0-9_]+|[A-Z]{2,}(?:KEY|URL|TOKEN|SECRET))\b[^\n]{0,40}\b(?:is required|is not set|must be set|is missing|not configured)|(?:[Mm]issing|[Rr]equired|[Ss]et the)[^\n]{0,30}\benv(?:ironment)? var(?:iable)?s?\b\W{0,3}([A-Z][A-Z0-9_]{2,})/;

/** What the sandbox lacked, when a failure's output says so; undefined for a real failure. */
export function environmentGap(output: string): string | undefined {
  if (NATIVE_ADDON.test(output)) {
    const pkg = /node_modules\/((?:@[\w.-]+\/)?[\w.-]+)/.exec(output)?.[1];
    return `${pkg ? `package ${pkg}` : 'a package'} needs its native build from an install script, which this server does not run`;
  }
  if (SERVICE.test(output)) {
    const at = SERVICE_ADDRESS.exec(output);
    const where = at ? ` at ${at[1] !== undefined ? `${at[1]}:${at[2]}` : `port ${at[3]}`}` : '';
    return `it needs a service${where} (a database or API), which does not run in the sandbox`;
  }
  const config = CONFIG.exec(output);
  if (config) return `it needs the setting ${config[1] ?? config[2]}, which the sandbox does not have`;
  return undefined;
}

// A crash prints a stack or a traceback; a usage message prints neither.
const CRASH = /Traceback \(most recent call last\)|^\s+at .+:\d+:\d+\)?$|^\w*(Error|Exception)\b/m;

export function startVerdict(
  result: SandboxResult,
  ctx: Pick<CheckContext, 'paths' | 'startMs'>,
  options: { order: 'first' | 'last'; fallbackPath: string; command: string },
): StartVerdict {
  const seconds = Math.round(ctx.startMs / 100) / 10;
  if (result.stopped === 'listening') return { ok: true, summary: 'started and listened on a port' };
  if (result.stopped === 'time') return { ok: true, summary: `started and was still running after ${seconds} s` };
  const output = combinedOutput(result);
  const fail = (message: string): StartVerdict => ({
    ok: false,
    problem: problemFromRun(result, { files: ctx.paths, fallbackPath: options.fallbackPath, order: options.order, message, command: options.command }),
  });
  if (result.stopped !== undefined) return fail(`it started, then ${limitSentence(result, ctx.startMs)}`);
  if (result.exitCode === 0) return { ok: true, summary: 'ran and exited 0' };
  if (!CRASH.test(output) && /\busage:/i.test(output)) {
    return { ok: true, summary: `printed its usage and exited with status ${result.exitCode} (it needs arguments)` };
  }
  const gap = environmentGap(output);
  if (gap) return { ok: 'skipped', reason: gap };
  const status = result.exitCode ?? result.signal;
  const why = errorLine(output);
  return fail(`it exited with status ${status} within ${seconds} s${why ? `: ${why}` : ' without printing why'}`);
}

/** A start verdict as the `start` check. */
export function verdictToCheck(verdict: StartVerdict, runtime: 'node' | 'python', base: Pick<ExecCheck, 'files' | 'command' | 'durationMs'>): ExecCheck {
  if (verdict.ok === 'skipped') return checkResult('start', runtime, { ...base, status: 'skipped', reason: verdict.reason });
  return verdict.ok
    ? checkResult('start', runtime, { ...base, status: 'passed', summary: verdict.summary })
    : checkResult('start', runtime, { ...base, status: 'failed', problems: [verdict.problem] });
}
