/** The History panel's pure pieces (spec core §2 History panel). */
import { stageStatusLabel, type Conversation } from '@wolfpack/core';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;

/**
 * A run's date as month abbreviation, day, hour:minute am/pm in local time: 'Nov 5, 3:07 pm'.
 * A missing or unparseable date reads 'recently'.
 */
export function formatRunDate(timestamp: string | null | undefined): string {
  if (typeof timestamp !== 'string' || !timestamp.trim()) return 'recently';
  const date = new Date(timestamp);
  if (Number.isNaN(date.getTime())) return 'recently';
  const hours = date.getHours();
  const hour12 = hours % 12 === 0 ? 12 : hours % 12;
  const minutes = String(date.getMinutes()).padStart(2, '0');
  return `${MONTHS[date.getMonth()]} ${date.getDate()}, ${hour12}:${minutes} ${hours < 12 ? 'am' : 'pm'}`;
}

export interface StageSummary {
  completed: number;
  total: number;
  /** Every stage ok (green); otherwise yellow. A run without stages is not all ok. */
  allOk: boolean;
  /** '5/5 stages' */
  label: string;
  /** The stage that failed and why: 'Building: Failed: the engines produced no files'; null when none did. */
  failure: string | null;
}

/**
 * Completed (ok) stages of a run out of all the stages it was to do (the server lists those that
 * failed or never ran too, so a run that failed in Building reads '1/5 stages').
 */
export function stageSummary(stages: Conversation['stages']): StageSummary {
  const completed = stages.filter((stage) => stage.ok).length;
  const total = stages.length;
  const failed = stages.find((stage) => (stage.status ?? (stage.ok ? 'complete' : 'failed')) === 'failed');
  const failure = failed ? `${failed.role}: ${stageStatusLabel({ status: 'failed', reason: failed.reason })}` : null;
  return { completed, total, allOk: total > 0 && completed === total, label: `${completed}/${total} stages`, failure };
}

/** The first line of an idea for a one-line list entry ('Untitled run' when empty). */
export function runTitle(idea: string): string {
  return idea.trim().split('\n')[0]?.trim() || 'Untitled run';
}
