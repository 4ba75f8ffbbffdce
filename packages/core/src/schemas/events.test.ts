import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  ENHANCEMENT_STEPS,
  PIPELINE_STAGES,
  enhancementEvent,
  pipelineEvent,
  type EnhancementEvent,
  type PipelineEvent,
  type PipelineRole,
} from './events.js';

const progress = { current: 2, total: 5, percent: 40, elapsedSeconds: 12.5, estimatedRemainingSeconds: 18.75 };

/** The exhaustive switch the design asks clients to write; a missing case is a compile error. */
function describePipelineEvent(event: PipelineEvent): string {
  switch (event.type) {
    case 'run':
      return `run ${event.runId}`;
    case 'stage':
      return `${event.role} ${event.ok ? 'complete' : 'running'}`;
    case 'log':
      return `${event.level}: ${event.message}`;
    case 'cost':
      return `${event.spentCents} cents so far`;
    case 'complete':
      return `project ${event.projectId} with ${event.filesGenerated} files`;
    case 'error':
      return `Error: ${event.error}`;
    default: {
      const unreachable: never = event;
      return unreachable;
    }
  }
}

function describeEnhancementEvent(event: EnhancementEvent): string {
  switch (event.type) {
    case 'step':
      return `pass ${event.passNumber} engine ${event.engineOrder}`;
    case 'log':
      return event.message;
    case 'complete':
      return event.finalPrompt;
    case 'error':
      return event.error;
    default: {
      const unreachable: never = event;
      return unreachable;
    }
  }
}

describe('pipelineEvent', () => {
  it('lists the five stages of the build screen in order', () => {
    expect(PIPELINE_STAGES).toEqual(['Planning', 'Building', 'Checking', 'Polishing', 'Proven Code']);
    expectTypeOf<PipelineRole>().toEqualTypeOf<'Planning' | 'Building' | 'Checking' | 'Polishing' | 'Proven Code'>();
  });

  it('parses every event type', () => {
    const events: unknown[] = [
      { type: 'run', runId: 'r1', conversationId: 'c1' },
      { type: 'stage', role: 'Proven Code', ok: true, executionTime: 3.2, progress, engine: 'Engine B' },
      { type: 'log', id: 'l1', level: 'success', message: 'Planning complete', timestamp: '2026-11-01T10:00:00.000Z' },
      { type: 'cost', spentCents: 42 },
      { type: 'complete', projectId: 'p1', filesGenerated: 7 },
      { type: 'error', error: 'The engine did not answer. Try again.', code: 'BAD_GATEWAY' },
    ];
    expect(events.map((event) => describePipelineEvent(pipelineEvent.parse(event)))).toEqual([
      'run r1',
      'Proven Code complete',
      'success: Planning complete',
      '42 cents so far',
      'project p1 with 7 files',
      'Error: The engine did not answer. Try again.',
    ]);
  });

  it('rejects unknown types, unknown roles and malformed progress', () => {
    expect(pipelineEvent.safeParse({ type: 'heartbeat' }).success).toBe(false);
    expect(pipelineEvent.safeParse({ type: 'stage', role: 'Coding', ok: true, executionTime: 1, progress }).success).toBe(
      false,
    );
    expect(
      pipelineEvent.safeParse({ type: 'stage', role: 'Planning', ok: true, executionTime: 1, progress: { ...progress, percent: 140 } })
        .success,
    ).toBe(false);
    expect(pipelineEvent.safeParse({ type: 'complete', projectId: 'p1', filesGenerated: -1 }).success).toBe(false);
    expect(pipelineEvent.safeParse({ type: 'log', id: 'l', level: 'debug', message: '', timestamp: '' }).success).toBe(false);
    // What a run cost so far is whole cents, never negative.
    expect(pipelineEvent.safeParse({ type: 'cost', spentCents: -1 }).success).toBe(false);
    expect(pipelineEvent.safeParse({ type: 'cost', spentCents: 0.5 }).success).toBe(false);
    expect(pipelineEvent.safeParse({ type: 'cost' }).success).toBe(false);
  });

  it('does not take the enhancement complete event for a pipeline one', () => {
    expect(pipelineEvent.safeParse({ type: 'complete', finalPrompt: 'better' }).success).toBe(false);
  });
});

describe('enhancementEvent', () => {
  it('parses step, complete and error events', () => {
    const step = {
      type: 'step',
      passNumber: 2,
      engineOrder: 4,
      progress: { current: 8, total: ENHANCEMENT_STEPS, percent: 100 },
      estimatedRemainingSeconds: 0,
    };
    expect(describeEnhancementEvent(enhancementEvent.parse(step))).toBe('pass 2 engine 4');
    expect(describeEnhancementEvent(enhancementEvent.parse({ type: 'complete', finalPrompt: '' }))).toBe('');
    expect(describeEnhancementEvent(enhancementEvent.parse({ type: 'error', error: 'Failed to enhance prompt' }))).toBe(
      'Failed to enhance prompt',
    );
    expect(ENHANCEMENT_STEPS).toBe(8);
  });

  it('rejects pipeline events and a pass number of 0', () => {
    expect(enhancementEvent.safeParse({ type: 'complete', projectId: 'p1', filesGenerated: 1 }).success).toBe(false);
    expect(enhancementEvent.safeParse({ type: 'stage', role: 'Planning', ok: true, executionTime: 1, progress }).success).toBe(
      false,
    );
    expect(
      enhancementEvent.safeParse({
        type: 'step',
        passNumber: 0,
        engineOrder: 1,
        progress: { current: 0, total: 8, percent: 0 },
        estimatedRemainingSeconds: 1,
      }).success,
    ).toBe(false);
  });
});
