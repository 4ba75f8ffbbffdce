import { AppError, projectDetailReply, runInfoReply, type PipelineRole, type RepairRequest, type RunEstimateReply, type StreamRequest } from '@wolfpack/core';
import { followRun, initialRunView, isPartialRun, reduceRun, RunFollowError, withLocalLine, type RunItem, type RunSource as CoreRunSource, type RunView } from '@wolfpack/core/client';
import type { ApiClient } from './api.js';
import { apiTransport } from './api-transport.js';
import { explainLoggedOut, type CommandContext } from './context.js';
import { EXIT_INTERRUPTED, EXIT_PAYMENT_REQUIRED, EXIT_STRICT, ExitCode } from './exit-code.js';
import { shellQuote } from './format.js';
import { summaryVerdict, verdictExitCode } from './proof-report.js';
import { wantsColor } from './output.js';
import { jsonReporter, plainReporter, summaryLines, type RunReporter } from './run-report.js';
import { writeProject, type WriteProjectResult } from './write-project.js';

/**
 * Start a new run, start "Repair again" on a project (a new run of Proven Code alone; its reply is
 * the same event stream), or follow a run that exists, from just after event `after` (0: from the
 * start).
 */
export type RunSource =
  | { kind: 'start'; request: StreamRequest }
  | { kind: 'repair'; projectId: string; request: RepairRequest }
  | { kind: 'attach'; runId: string; after: number };

/** The stages a repair run does; its `run` event names them again. */
export const REPAIR_STAGES: readonly PipelineRole[] = ['Proven Code'];

function coreSource(source: RunSource): CoreRunSource {
  switch (source.kind) {
    case 'start':
      return { kind: 'open', path: '/api/wolfpack/stream', body: source.request };
    case 'repair':
      return { kind: 'open', path: `/api/projects/${encodeURIComponent(source.projectId)}/repair`, body: source.request };
    case 'attach':
      return { kind: 'attach', runId: source.runId, after: source.after };
    default: {
      const unreachable: never = source;
      return unreachable;
    }
  }
}

/** What `build`, `repair` and `attach` share: where the files go and how strict the exit code is. */
export interface FollowOptions {
  /** Write the project's files into this folder once the run completes. */
  out?: string | undefined;
  /** Write into a folder that already has files. */
  force?: boolean | undefined;
  /** Exit 3 when the Proven Code gate found problems. */
  strict?: boolean | undefined;
  /** Exit non-zero unless the verdict is passed: 3 when it failed, 5 when it is not proven. */
  requireProof?: boolean | undefined;
  /** What the run would probably cost, asked before it started (`build`): under `--json`, a field of its `run` line. */
  estimate?: RunEstimateReply | undefined;
}

/**
 * Follows a run to its end and shows it (live view, plain lines or JSON lines), then writes the
 * files and prints the summary. Ctrl+C detaches: the run goes on on the server, the person is told
 * how to reattach, and the exit code is 130. A failed run exits 1; a run paused for lack of
 * credits (or at its --max-cost) exits 4; a completed run 0, or 3 under `--strict` when the Proven
 * Code gate found problems; under `--require-proof` 3 when it failed and 5 when it proved nothing
 * (the checks that apply could not run).
 */
export async function followToEnd(context: CommandContext, api: ApiClient, source: RunSource, options: FollowOptions): Promise<void> {
  const { io, output } = context;
  // A run followed from the middle has its `run` event behind it: the server says which stages it does.
  const only = source.kind === 'repair' ? REPAIR_STAGES : source.kind === 'attach' && source.after > 0 ? await stagesOf(api, source.runId) : undefined;
  let state: RunView = initialRunView('starting', source.kind === 'attach' ? source.runId : null, only ?? null);
  const reporter: RunReporter = output.json
    ? jsonReporter(io, options.estimate)
    : output.live
      ? (await import('./ui/run-view.js')).liveReporter(io.stderr, state, wantsColor(io.stderr, io.env, context.globals.color))
      : plainReporter(io);

  const detach = new AbortController();
  const onSigint = () => {
    // A second Ctrl+C while detaching means "now".
    if (detach.signal.aborted) process.exit(EXIT_INTERRUPTED);
    detach.abort(new Error('detached'));
  };
  process.on('SIGINT', onSigint);
  try {
    for await (const item of followRun({ transport: apiTransport(api), source: coreSource(source), signal: detach.signal })) {
      const now = Date.now();
      state = reduceRun(state, item, now);
      const note = connectionNote(item);
      if (note !== undefined) state = withLocalLine(state, 'warning', note, now);
      reporter.update(item, state);
    }
  } catch (error) {
    await reporter.close();
    if (detach.signal.aborted) {
      io.stderr.write(
        state.runId === null
          ? 'Detached before the server said which run it started; it may still run there.\n'
          : `Detached. The run continues on the server; reattach with: ${attachCommand(state.runId, options)}\n`,
      );
      throw new ExitCode(EXIT_INTERRUPTED);
    }
    throw explainLoggedOut(inCliWords(error, api.server), api.server);
  } finally {
    process.off('SIGINT', onSigint);
  }
  await reporter.close();
  await finish(context, api, state, options);
}

/** The activity line for word of the connection, in the CLI's words. */
function connectionNote(item: RunItem): string | undefined {
  switch (item.type) {
    case 'reconnecting': {
      const seconds = Math.max(1, Math.round(item.delayMs / 1000));
      return `Connection lost (${item.reason}). Reconnecting in ${seconds}s, attempt ${item.attempt} of ${item.maxAttempts}.`;
    }
    case 'resuming':
      return 'The run was interrupted on the server; resuming it from its last finished stage.';
    default:
      return undefined;
  }
}

/** What to type next, for the ways following can stop short that the CLI can name a command for. */
function inCliWords(error: unknown, server: string): unknown {
  if (!(error instanceof RunFollowError) || error.runId === undefined) return error;
  switch (error.failure) {
    case 'gave-up':
      return new AppError(error.code, `Lost the connection to ${server} and could not reconnect (${error.reason}). The run may still be going; reattach with: wolfpack attach ${error.runId}`);
    case 'interrupted-again':
      return new AppError(error.code, `The run was interrupted on the server again. Resume it with: wolfpack attach ${error.runId}`);
    case 'not-found':
      return new AppError(error.code, `There is no run ${error.runId} of yours on ${server}. Check the id; it is printed when a run starts.`);
    default:
      return error;
  }
}

async function finish(context: CommandContext, api: ApiClient, state: RunView, options: FollowOptions): Promise<void> {
  const { result } = state;
  if (state.paymentRequired) {
    throw new ExitCode(EXIT_PAYMENT_REQUIRED, paymentRequiredMessage(state.error ?? 'Not enough credits.', state.runId ?? undefined, isPartialRun(state) ? 'repair' : 'build', options));
  }
  if (state.phase === 'failed' || state.phase === 'interrupted') throw new AppError(state.errorCode ?? 'INTERNAL', state.error ?? 'The run failed.');
  if (result === null) throw new AppError('BAD_GATEWAY', 'The event stream ended before the run did. Reattach with `wolfpack attach`.');
  const outcome = result;

  let written: WriteProjectResult | undefined;
  if (options.out !== undefined) {
    const { project } = await api.get(`/api/projects/${encodeURIComponent(outcome.projectId)}`, { reply: projectDetailReply });
    written = await writeProject(options.out, project.fsIndex, { force: options.force });
  }
  const lines = summaryLines({
    runId: state.runId ?? undefined,
    projectId: outcome.projectId,
    filesGenerated: outcome.filesGenerated,
    executionSeconds: outcome.executionSeconds,
    spentCents: state.spentCents ?? undefined,
    verification: outcome.verification,
    onlyStages: isPartialRun(state) ? (state.onlyStages ?? undefined) : undefined,
    writtenTo: written && { dir: written.dir, count: written.written.length },
  });
  // Under --json stdout carries the events only; the summary is for the person watching.
  const stream = context.output.json ? context.io.stderr : context.io.stdout;
  stream.write(`${lines.join('\n')}\n`);

  if (written && written.refused.length > 0) {
    const { refused } = written;
    const count = refused.length === 1 ? '1 file' : `${refused.length} files`;
    const reasons = refused.slice(0, 3).map((r) => r.reason.replace(/\.$/, '')).join('; ');
    const more = refused.length > 3 ? `; and ${refused.length - 3} more` : '';
    throw new AppError('BAD_GATEWAY', `Did not write ${count} of the project: ${reasons}${more}. The other files are in ${written.dir}.`);
  }
  if (options.requireProof) {
    const code = verdictExitCode(summaryVerdict(outcome.verification));
    if (code === EXIT_STRICT) throw new ExitCode(code, `Proven Code failed (see above); exiting with ${code} because of --require-proof.`);
    if (code !== 0) throw new ExitCode(code, `The project was not proven (see above); exiting with ${code} because of --require-proof.`);
  }
  if (options.strict && outcome.verification?.passed === false) {
    throw new ExitCode(EXIT_STRICT, 'The Proven Code gate found problems (see above); exiting with 3 because of --strict.');
  }
}

/**
 * The server's sentence and what to do next. Out of credits, the run is paused (interrupted) and
 * `attach` resumes it once credits are in; stopped at its own cost limit, it would stop there
 * again (the limit is the run's), so only a new build (or repair) with a higher --max-cost goes
 * further.
 */
export function paymentRequiredMessage(error: string, runId: string | undefined, command: 'build' | 'repair' = 'build', options: FollowOptions = {}): string {
  // core's costCapMessage starts so; notEnoughCreditsMessage does not.
  if (error.startsWith('Cost limit reached')) {
    const again = command === 'repair' ? 'repair again' : 'build again';
    return `${error.replace(/ Raise maxCostCents.*$/, '')} The run stopped at its --max-cost limit; ${again} with a higher --max-cost to go further.`;
  }
  const resume = `resume it with: ${attachCommand(runId ?? 'RUN_ID', options)}`;
  return `${error} The run is paused; once credits are in (\`wolfpack topup 25\` prints a checkout link), ${resume}`;
}

/**
 * The `wolfpack attach` line that picks a run up again as it was followed: attach takes the same
 * --out, --force, --strict and --require-proof, and without --out the files would not be written.
 */
export function attachCommand(runId: string, options: FollowOptions): string {
  const words = ['wolfpack', 'attach', runId];
  if (options.out !== undefined) words.push('--out', shellQuote(options.out));
  if (options.force) words.push('--force');
  if (options.strict) words.push('--strict');
  if (options.requireProof) words.push('--require-proof');
  return words.join(' ');
}

/** The stages a run does when not all five; undefined when unknown (followRun reports a missing run itself). */
async function stagesOf(api: ApiClient, runId: string): Promise<PipelineRole[] | undefined> {
  try {
    return (await api.get(`/api/wolfpack/runs/${encodeURIComponent(runId)}`, { reply: runInfoReply })).run.stages;
  } catch {
    return undefined;
  }
}
