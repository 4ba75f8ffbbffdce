/** A project's prompt history (GET /api/projects/{id}/prompt-history) as the Prompt Evolution tab shows it. */
import type { EnhancementStep, PromptHistoryReply } from '@wolfpack/core';

export interface EvolutionPass {
  passNumber: number;
  /** The engines of this pass in their order. */
  steps: EnhancementStep[];
  /** The longest step: the engines of a pass run side by side. */
  wallMs: number;
}

export interface PromptEvolution {
  /** The idea as the user wrote it. */
  original: string;
  passes: EvolutionPass[];
  /** The enhanced prompt the project was built from. */
  final: string;
  cyclesRun: number;
}

/**
 * Groups the steps by pass (cycle), passes and engines in order. Null when the project has no
 * enhancement: AI Enhance was not used for it.
 */
export function groupPromptHistory(reply: PromptHistoryReply): PromptEvolution | null {
  if (!reply.enhancement) return null;
  const byPass = new Map<number, EnhancementStep[]>();
  for (const step of reply.steps) {
    const steps = byPass.get(step.passNumber) ?? [];
    steps.push(step);
    byPass.set(step.passNumber, steps);
  }
  const passes = [...byPass.entries()]
    .sort(([a], [b]) => a - b)
    .map(([passNumber, steps]) => {
      const ordered = [...steps].sort((a, b) => a.engineOrder - b.engineOrder);
      return { passNumber, steps: ordered, wallMs: Math.max(0, ...ordered.map((s) => s.durationMs)) };
    });
  return {
    original: reply.enhancement.sourcePrompt,
    passes,
    final: reply.enhancement.finalPrompt,
    cyclesRun: reply.enhancement.cyclesRun,
  };
}

/** A step's duration in seconds with one decimal: 1234 ms is '1.2s'. */
export function formatStepDuration(durationMs: number): string {
  return `${(Math.max(0, durationMs) / 1000).toFixed(1)}s`;
}
