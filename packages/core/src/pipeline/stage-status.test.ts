import { describe, expect, it } from 'vitest';
import { PIPELINE_STAGES, type PipelineProgress, type StageEvent } from '../schemas/events.js';
import { demoReply } from '../demo/demo-reply.js';
import { AppError } from '../errors.js';
import { PLANNING_SYSTEM } from './prompts/index.js';
import { runPipeline } from './run-pipeline.js';
import {
  failureReason,
  progressDisplay,
  remainingEstimate,
  settleFailedStages,
  stageStatusAfter,
  stageStatusLabel,
  type StageStatus,
  type StageStatusView,
  runStageRecords,
} from './stage-status.js';
import { scriptedEngine, systemOf } from './testing-engines.js';
import { formatProblems, verifyProject } from './verify.js';

const progress = (current: number, total = 5, estimatedRemainingSeconds = 0): PipelineProgress => ({
  current,
  total,
  percent: Math.round((current / total) * 100),
  elapsedSeconds: 1,
  estimatedRemainingSeconds,
});
const stage = (role: StageEvent['role'], ok: boolean, current: number, reason?: string): StageEvent => ({
  type: 'stage',
  role,
  ok,
  executionTime: 0,
  progress: progress(current),
  ...(reason ? { reason } : {}),
});

interface View extends StageStatusView {
  role: StageEvent['role'];
}

/** The client-side fold both web and CLI do: stage events, then an error if the run failed. */
function fold(events: StageEvent[], error?: string): View[] {
  let views: View[] = PIPELINE_STAGES.map((role) => ({ role, status: 'pending' as StageStatus }));
  let last: PipelineProgress | null = null;
  for (const event of events) {
    views = views.map((v) => (v.role === event.role ? { ...v, ...stageStatusAfter(event, v, last) } : v));
    last = event.progress;
  }
  return error === undefined ? views : settleFailedStages(views, error);
}

describe('the stage-status rule', () => {
  it('calls a stage Complete only once it finished with ok', () => {
    const views = fold([stage('Planning', false, 0), stage('Planning', true, 1), stage('Building', false, 1)]);
    expect(views.map((v) => stageStatusLabel(v))).toEqual(['Complete', 'In Progress', 'Pending', 'Pending', 'Pending']);
  });

  it('shows a stage that failed with its words and the stages after it as Not run', () => {
    const views = fold(
      [stage('Planning', false, 0), stage('Planning', true, 1), stage('Building', false, 1), stage('Building', false, 2, 'the engines produced no files')],
      'The engines produced no files for this idea. Try again or describe the project in more detail.',
    );
    expect(views.map((v) => v.status)).toEqual(['complete', 'failed', 'not-run', 'not-run', 'not-run']);
    expect(views.map((v) => stageStatusLabel(v))).toEqual(['Complete', 'Failed: the engines produced no files', 'Not run', 'Not run', 'Not run']);
  });

  it('fails the stage that was running when the run failed, with the error as its words', () => {
    const views = fold([stage('Planning', false, 0), stage('Planning', true, 1), stage('Building', false, 1), stage('Building', true, 2), stage('Checking', false, 2)], 'No engine could do Checking. alpha: 503.');
    expect(views.map((v) => stageStatusLabel(v))).toEqual(['Complete', 'Complete', 'Failed: no engine could do Checking', 'Not run', 'Not run']);
  });

  it('tells a failed gate (ok false, one more stage counted) from a start, and keeps a restarted stage running', () => {
    const gate = fold([stage('Proven Code', false, 4), stage('Proven Code', false, 5)]);
    expect(gate[4]).toMatchObject({ status: 'failed', reason: undefined });
    expect(stageStatusLabel(gate[4]!)).toBe('Did not pass');
    const restarted = fold([stage('Checking', false, 2), stage('Checking', false, 2)]);
    expect(restarted[2]!.status).toBe('running');
  });

  it('keeps skipped stages of a repair run as they are when it fails', () => {
    const views = settleFailedStages<StageStatusView>([{ status: 'skipped' }, { status: 'complete' }, { status: 'running' }, { status: 'pending' }], 'Boom.');
    expect(views.map((v) => v.status)).toEqual(['skipped', 'complete', 'failed', 'not-run']);
  });

  it('words a failure from the first sentence of the error', () => {
    expect(failureReason('The engines produced no files for this idea. Try again.')).toBe('the engines produced no files for this idea');
    expect(failureReason('API key rejected.')).toBe('API key rejected');
  });
});

describe('progressDisplay', () => {
  it('counts the stage that is running: Checking, the third, is stage 3 of 5', () => {
    expect(progressDisplay(progress(2), true)).toEqual({ stage: 3, total: 5, percent: 50 });
    expect(progressDisplay(progress(0), true)).toEqual({ stage: 1, total: 5, percent: 10 });
  });

  it('shows the stages finished when none runs, and 100 % only when all are', () => {
    expect(progressDisplay(progress(2), false)).toEqual({ stage: 2, total: 5, percent: 40 });
    expect(progressDisplay(progress(5), false)).toEqual({ stage: 5, total: 5, percent: 100 });
    expect(progressDisplay(progress(5), true)).toEqual({ stage: 5, total: 5, percent: 100 });
  });
});

describe('remainingEstimate', () => {
  it('does not know before a stage finished, nor once the estimate ran out with stages left', () => {
    expect(remainingEstimate(null)).toBeNull();
    expect(remainingEstimate(progress(0, 5, 0))).toBeNull();
    expect(remainingEstimate(progress(2, 5, 6), 6)).toBeNull();
    expect(remainingEstimate(progress(2, 5, 6), 2)).toBe(4);
    expect(remainingEstimate(progress(5, 5, 0))).toBe(0);
  });
});

describe('a run whose engines write no file', () => {
  it('fails Building with its reason and runs no later stage', async () => {
    // Planning answers as usual; every other answer holds no file block.
    const empty = scriptedEngine('alpha', (req) => (systemOf(req.messages) === PLANNING_SYSTEM ? demoReply(req.messages) : 'I would rather not.'));
    const events: StageEvent[] = [];
    const gen = runPipeline({ idea: 'A recipe tracker', engines: [empty], completionAttempts: 0 });
    let error: unknown;
    try {
      for (let step = await gen.next(); !step.done; step = await gen.next()) if (step.value.type === 'stage') events.push(step.value);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).message).toMatch(/^The engines produced no files/);
    expect(events.map((e) => `${e.role}:${e.ok}`)).toEqual(['Planning:false', 'Planning:true', 'Building:false', 'Building:false']);
    expect(events.at(-1)).toMatchObject({ reason: 'the engines produced no files', progress: { current: 2 } });
    const views = fold(events, (error as AppError).message);
    expect(views.map((v) => stageStatusLabel(v))).toEqual(['Complete', 'Failed: the engines produced no files', 'Not run', 'Not run', 'Not run']);
  });
});

describe('"No problems" in the feed', () => {
  it('is said only when a check read a file', () => {
    expect(formatProblems(verifyProject({ 'app.js': 'export const a = 1;\n' }))).toMatch(/^No problems: 1 file checked/);
    expect(formatProblems(verifyProject({ 'notes.unknownext': 'hello' }))).toBe('Nothing was checked: no file was covered by a check; 1 file not covered by any check (notes.unknownext).');
    expect(formatProblems(verifyProject({}))).toBe('Nothing was checked: no file was covered by a check.');
  });
});

describe('runStageRecords', () => {
  const five = PIPELINE_STAGES;
  const planning = { cycle: 1, role: 'Planning', ok: true, engine: 'a', durationMs: 5, tokens: 9 } as const;

  it('a run that failed in Building lists all five: Building failed with the reason, the rest not run', () => {
    const records = runStageRecords([planning], { status: 'failed', error: 'The engines produced no files for this idea. Try again.', roles: five, cycles: 1 });
    expect(records.map((r) => [r.role, r.status, r.reason])).toEqual([
      ['Planning', 'complete', undefined],
      ['Building', 'failed', 'the engines produced no files for this idea'],
      ['Checking', 'not-run', undefined],
      ['Polishing', 'not-run', undefined],
      ['Proven Code', 'not-run', undefined],
    ]);
    expect(records[0]).toMatchObject({ engine: 'a', durationMs: 5, tokens: 9 });
    expect(records.filter((r) => r.ok)).toHaveLength(1);
  });

  it('a stored stage that failed keeps its place and gets the error as its reason; none after it failed', () => {
    const records = runStageRecords([planning, { cycle: 1, role: 'Building', ok: false }], { status: 'failed', error: 'Boom.', roles: five, cycles: 1 });
    expect(records.map((r) => r.status)).toEqual(['complete', 'failed', 'not-run', 'not-run', 'not-run']);
    expect(records[1]!.reason).toBe('boom');
    // A stage that stored its own reason keeps it.
    const own = runStageRecords([planning, { cycle: 1, role: 'Building', ok: false, reason: 'the engines produced no files' }], { status: 'failed', error: 'Boom.', roles: five, cycles: 1 });
    expect(own[1]!.reason).toBe('the engines produced no files');
  });

  it('a resumable run has its remaining stages pending, over every cycle', () => {
    const records = runStageRecords([planning], { status: 'interrupted', roles: five, cycles: 2 });
    expect(records).toHaveLength(10);
    expect(records.slice(1).every((r) => r.status === 'pending' && !r.ok)).toBe(true);
    expect(records[5]).toMatchObject({ cycle: 2, role: 'Planning' });
  });

  it('a "Repair again" run counts its one stage; a Proven Code gate that did not pass is failed without a reason', () => {
    const records = runStageRecords([{ cycle: 1, role: 'Proven Code', ok: false }], { status: 'completed', roles: ['Proven Code'], cycles: 1 });
    expect(records).toEqual([{ cycle: 1, role: 'Proven Code', ok: false, status: 'failed' }]);
  });
});
