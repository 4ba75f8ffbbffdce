import { formatCents, runValue, runValueText, stageStatusLabel, type PipelineEvent, type PipelineRole, type RunEstimateReply, type StageStatus, type VerificationSummary } from '@wolfpack/core';
import type { RunItem, RunView, StageView } from '@wolfpack/core/client';
import type { CliIo } from './io.js';
import { verdictSummaryLines } from './proof-report.js';

/** The stages the run does (a repair's others are not its work, neither done nor waiting). */
export function shownStages(state: Pick<RunView, 'stages'>): StageView[] {
  return state.stages.filter((stage) => stage.status !== 'skipped');
}

/** Each stage as `--json` and the plain lines report it: role, status, and its words ('Failed: …', 'Not run'). */
export function stageSummary(state: Pick<RunView, 'stages'>): { role: PipelineRole; status: StageStatus; label: string; reason?: string }[] {
  return shownStages(state).map((stage) => ({ role: stage.role, status: stage.status, label: stageStatusLabel(stage), ...(stage.reason ? { reason: stage.reason } : {}) }));
}

/** Shows a run as it goes: the live view, plain lines, or JSON lines. */
export interface RunReporter {
  /** One more item of the stream, with the state after it. */
  update(item: RunItem, state: RunView): void;
  /** Stops drawing; a live view leaves its last frame on screen. */
  close(): Promise<void>;
}

/**
 * `--json`: each event as one JSON line on stdout, the event as the server sent it with its
 * number first as `eventId` (log events have an `id` of their own). Nothing else goes to stdout;
 * word of the connection goes to stderr. `estimate` (what the run would probably cost, asked
 * before it started) goes with the run's `run` event as its `estimate` field. The run's last line
 * (`complete` or `error`) carries `stages`: each stage's status and words, as the live view shows them
 * ('Failed: the engines produced no files', 'Not run'), so a script need not work them out.
 */
export function jsonReporter(io: CliIo, estimate?: RunEstimateReply): RunReporter {
  return {
    update(item, state) {
      if (item.type !== 'event') writeConnectionLine(io, item);
      else if (item.event.type === 'run' && estimate !== undefined) io.stdout.write(`${JSON.stringify({ eventId: item.id, ...item.event, estimate })}\n`);
      else if (item.event.type === 'complete' || item.event.type === 'error') io.stdout.write(`${JSON.stringify({ eventId: item.id, ...item.event, stages: stageSummary(state) })}\n`);
      else io.stdout.write(`${JSON.stringify({ eventId: item.id, ...item.event })}\n`);
    },
    close: async () => {},
  };
}

/** Outside a terminal: one readable line per event on stdout, no colour, no redrawing. */
export function plainReporter(io: CliIo): RunReporter {
  return {
    update(item, state) {
      if (item.type === 'event') io.stdout.write(`${eventLine(item.event, state)}\n`);
      else writeConnectionLine(io, item);
    },
    close: async () => {},
  };
}

/**
 * "[stage] Building started (engine demo-beta)", "[log] warning: …", "[complete] 4 files …".
 * `state` is the state after the event, which knows whether a stage event started or ended it.
 */
export function eventLine(event: PipelineEvent, state: RunView): string {
  switch (event.type) {
    case 'run':
      return `[run] Run ${event.runId} started${event.stages ? `: ${event.stages.join(', ')} only` : ''}`;
    case 'stage': {
      const { role, engine, progress } = event;
      const by = engine === undefined ? '' : ` (engine ${engine})`;
      const stage = state.stages.find((s) => s.role === role);
      if (stage?.status === 'running') return `[stage] ${role} started${by}`;
      const verdict = stage?.status !== 'failed' ? 'done' : stage.reason ? `failed: ${stage.reason}` : 'finished with problems';
      return `[stage] ${role} ${verdict} in ${event.executionTime}s${by}, ${progress.percent}% of the run`;
    }
    case 'cost':
      return `[cost] ${formatCents(event.spentCents)} so far`;
    case 'log':
      return `[log] ${event.level === 'info' || event.level === 'success' ? '' : `${event.level}: `}${event.message}`;
    case 'complete':
      return `[complete] ${event.filesGenerated} ${event.filesGenerated === 1 ? 'file' : 'files'} generated, project ${event.projectId}`;
    case 'error': {
      // How the run ended, stage by stage: which one failed and which never ran.
      const stages = stageSummary(state).map((s) => `${s.role}: ${s.label}`);
      return event.code === 'PAYMENT_REQUIRED' ? `[error] ${event.error}` : `[error] ${event.error}\n[stages] ${stages.join('; ')}`;
    }
    default: {
      const unreachable: never = event;
      return unreachable;
    }
  }
}

function writeConnectionLine(io: CliIo, item: Exclude<RunItem, { type: 'event' }>): void {
  const line = connectionLine(item);
  if (line !== undefined) io.stderr.write(`${line}\n`);
}

/** Word of the connection; undefined when there is nothing to say (events flow again). */
export function connectionLine(item: Exclude<RunItem, { type: 'event' }>): string | undefined {
  switch (item.type) {
    case 'connected':
      return undefined;
    case 'interrupted':
      return `[connection] The run was interrupted on the server; resume it with: wolfpack attach ${item.runId}`;
    case 'reconnecting':
      return `[connection] Connection lost (${item.reason}). Reconnecting… (attempt ${item.attempt} of ${item.maxAttempts})`;
    case 'resuming':
      return `[connection] The run was interrupted on the server; resuming it from its last finished stage.`;
    default: {
      const unreachable: never = item;
      return unreachable;
    }
  }
}

export interface SummaryInput {
  runId: string | undefined;
  projectId: string;
  filesGenerated: number;
  executionSeconds?: number | undefined;
  /** What the run was charged, in cents (its latest `cost` event); undefined when none was reported. */
  spentCents?: number | undefined;
  verification?: VerificationSummary | undefined;
  /** The stages the run did when not all five ("Repair again": Proven Code alone). */
  onlyStages?: readonly PipelineRole[] | undefined;
  /** Where the files went, when --out was given. */
  writtenTo?: { dir: string; count: number } | undefined;
}

/**
 * The lines printed when a run completed: project, files, where they went, the gate's verdict
 * (with what was and was not proven when the server says; older servers only say passed or not).
 */
export function summaryLines(input: SummaryInput): string[] {
  const { projectId, filesGenerated, executionSeconds, spentCents, verification, writtenTo, runId, onlyStages } = input;
  const took = executionSeconds === undefined ? '' : ` in ${executionSeconds}s`;
  const files = `${filesGenerated} ${filesGenerated === 1 ? 'file' : 'files'}`;
  // A repair generated no new project: it ran the named stages again on the project's files.
  const lines = [
    onlyStages === undefined
      ? `Project ${projectId}: ${files} generated${took}.`
      : `Project ${projectId}: repair run (${onlyStages.join(', ')} only) on its ${files}${took}.`,
  ];
  // A build's cost beside its savings estimate, as the web's result card says it.
  if (onlyStages === undefined && executionSeconds !== undefined) lines.push(`${runValueText(runValue(executionSeconds, spentCents))}.`);
  if (writtenTo) lines.push(`Files written to ${writtenTo.dir} (${writtenTo.count}).`);
  else if (runId) lines.push(`Write the files to a folder with: wolfpack attach ${runId} --out DIR`);
  if (verification === undefined) lines.push('Proven Code: no verification was reported.');
  else if (verification.verdict !== undefined) lines.push(...verdictSummaryLines(verification));
  else if (verification.passed) lines.push(`Proven Code: passed (${verification.checkedFiles} ${verification.checkedFiles === 1 ? 'file' : 'files'} checked).`);
  else {
    const count = verification.problems.length;
    lines.push(`Proven Code: ${count} ${count === 1 ? 'problem' : 'problems'} in ${verification.checkedFiles} checked files:`);
    for (const problem of verification.problems) lines.push(`  ${problem.path} (${problem.check}): ${problem.message}`);
  }
  return lines;
}
