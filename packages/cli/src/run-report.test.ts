import type { PipelineEvent } from '@wolfpack/core';
import { initialRunView, reduceRun, type RunView } from '@wolfpack/core/client';
import { describe, expect, it } from 'vitest';
import { eventLine, stageSummary, summaryLines } from './run-report.js';
import { formatDuration } from './ui/run-view.js';
import { stageEvent as stage } from '@wolfpack/core/testing';

const RUN = 'run-1';


const log = (level: 'info' | 'success' | 'warning'): PipelineEvent => ({ type: 'log', id: 'l1', level, message: 'line 1', timestamp: '2026-11-22T10:00:00.000Z' });

/** Core's one reducer, fed events numbered from 1. */
function play(events: PipelineEvent[], state: RunView = initialRunView('starting')): RunView {
  return events.reduce((current, event, i) => reduceRun(current, { type: 'event', id: current.lastEventId + i + 1, event }, 1000), state);
}

describe('plain lines', () => {
  it('says which stage started, finished or failed, and prefixes warnings', () => {
    const start = stage('Building', 1, 5, 'start');
    const running = play([stage('Planning', 0, 5, 'start'), stage('Planning', 0, 5, 'done'), start]);
    expect(eventLine(start, running)).toBe('[stage] Building started (engine demo-alpha)');
    const done = stage('Building', 1, 5, 'done');
    expect(eventLine(done, play([done], running))).toBe('[stage] Building done in 1.5s (engine demo-alpha), 40% of the run');
    const gate = stage('Proven Code', 4, 5, 'failed');
    const gated = play([stage('Proven Code', 4, 5, 'start'), gate]);
    expect(eventLine(gate, gated)).toBe('[stage] Proven Code finished with problems in 1.5s (engine demo-alpha), 100% of the run');
    expect(eventLine(log('warning'), running)).toBe('[log] warning: line 1');
    expect(eventLine(log('success'), running)).toBe('[log] line 1');
    expect(eventLine({ type: 'cost', spentCents: 1250 }, running)).toBe('[cost] $12.50 so far');
  });

  it('names only the stages a repair run does', () => {
    const repairRun: PipelineEvent = { type: 'run', runId: RUN, conversationId: RUN, stages: ['Proven Code'] };
    const state = play([repairRun]);
    expect(eventLine(repairRun, state)).toBe(`[run] Run ${RUN} started: Proven Code only`);
    expect(stageSummary(state)).toEqual([{ role: 'Proven Code', status: 'pending', label: 'Pending' }]);
  });

  it('sums up a completed run with the files that failed which check', () => {
    const lines = summaryLines({
      runId: RUN,
      projectId: 'p1',
      filesGenerated: 2,
      verification: { passed: false, checkedFiles: 2, problems: [{ path: 'app.js', check: 'syntax', message: 'Unexpected token' }] },
    });
    expect(lines).toEqual([
      'Project p1: 2 files generated.',
      `Write the files to a folder with: wolfpack attach ${RUN} --out DIR`,
      'Proven Code: 1 problem in 2 checked files:',
      '  app.js (syntax): Unexpected token',
    ]);
    const repair = summaryLines({ runId: RUN, projectId: 'p1', filesGenerated: 4, executionSeconds: 3, onlyStages: ['Proven Code'] });
    expect(repair[0]).toBe('Project p1: repair run (Proven Code only) on its 4 files in 3s.');
  });

  it('formats durations as m:ss or h:mm:ss', () => {
    expect([formatDuration(0), formatDuration(75.9), formatDuration(3700)]).toEqual(['0:00', '1:15', '1:01:40']);
  });
});
