import { describe, expect, it } from 'vitest';
import { experimentsReply, startExperimentReply, startExperimentRequest, submitCostsRequest } from './experiments.js';

const BOTH = 'Please enter both project name and prompt';

describe('experiments', () => {
  it('starts with medium complexity by default', () => {
    expect(startExperimentRequest.parse({ projectName: ' Todo ', testPrompt: 'a todo app' })).toEqual({
      projectName: 'Todo',
      testPrompt: 'a todo app',
      promptType: 'medium',
    });
  });

  it.each([
    { projectName: '', testPrompt: 'x' },
    { projectName: 'x', testPrompt: '   ' },
    { projectName: 'x' },
  ])('rejects a missing name or prompt with the spec message (%j)', (payload) => {
    const result = startExperimentRequest.safeParse(payload);
    expect(result.error?.issues.map((issue) => issue.message)).toEqual([BOTH]);
  });

  it('rejects an unknown complexity', () => {
    expect(startExperimentRequest.safeParse({ projectName: 'x', testPrompt: 'y', promptType: 'hard' }).success).toBe(false);
  });

  it('takes whole cents and optional milliseconds', () => {
    expect(submitCostsRequest.parse({ wolfpackReplitAssemblyCostCents: 150, replitOnlyCostCents: 1500 })).toEqual({
      wolfpackReplitAssemblyCostCents: 150,
      replitOnlyCostCents: 1500,
    });
    expect(
      submitCostsRequest.parse({ wolfpackReplitAssemblyCostCents: 0, wolfpackReplitAssemblyTimeMs: 60000, replitOnlyCostCents: 0 })
        .wolfpackReplitAssemblyTimeMs,
    ).toBe(60000);
    for (const bad of [1.5, -1, '150']) {
      expect(submitCostsRequest.safeParse({ wolfpackReplitAssemblyCostCents: bad, replitOnlyCostCents: 1 }).success).toBe(false);
    }
  });

  it('parses experiments with string numbers and open timers', () => {
    const reply = experimentsReply.parse({
      experiments: [
        {
          id: 'e1',
          projectName: 'Todo',
          testPrompt: 'a todo app',
          promptType: 'complex',
          status: 'replit_running',
          wolfpackCostCents: '120',
          wolfpackProcessingTimeMs: '42000',
          wolfpackReplitAssemblyCostCents: null,
          wolfpackReplitAssemblyTimeMs: null,
          replitOnlyStartedAt: '2026-11-01T10:00:00Z',
          replitOnlyCompletedAt: null,
          replitOnlyTotalTimeMs: null,
          replitOnlyCostCents: null,
          savingsPercent: null,
          createdAt: '2026-11-01T09:00:00Z',
        },
      ],
    });
    expect(reply.experiments[0]).toMatchObject({ wolfpackCostCents: 120, replitOnlyCompletedAt: null });
    expect(startExperimentReply.parse({ experimentId: 'e1' })).toEqual({ experimentId: 'e1' });
  });
});
