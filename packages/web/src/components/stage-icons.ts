import type { PipelineRole } from '@wolfpack/core';
import { BadgeCheck, ClipboardList, Hammer, SearchCheck, Sparkles, type LucideIcon } from 'lucide-react';

/** The picture of each pipeline stage. */
export const stageIcons: Record<PipelineRole, LucideIcon> = {
  Planning: ClipboardList,
  Building: Hammer,
  Checking: SearchCheck,
  Polishing: Sparkles,
  'Proven Code': BadgeCheck,
};

/** One line on what each stage does, for tooltips and screen readers. */
export const stageDescriptions: Record<PipelineRole, string> = {
  Planning: 'Turns the idea into a plan of files and steps.',
  Building: 'Writes the files of the plan.',
  Checking: 'Reviews the files for bugs and gaps.',
  Polishing: 'Refines the code and the documentation.',
  'Proven Code': 'Verifies every file before it is delivered.',
};
