/**
 * The words and colours of the Versions tab, kept apart from the components so they can be
 * tested without rendering.
 */
import type { FileDiff, VerificationVerdict, VersionSummary } from '@wolfpack/core';
import { VERDICT_LABEL } from './verification-view';

/** A version's Proven Code verdict as its badge says it; null: its files were never checked. */
export function versionVerdictLabel(verdict: VerificationVerdict | null): string {
  return verdict === null ? 'Not checked' : VERDICT_LABEL[verdict];
}

/** Green for passed only, as on the Proven Code tab: "not proven" must never look like success. */
export const VERDICT_BADGE_CLASS: Record<VerificationVerdict | 'none', string> = {
  passed: 'bg-emerald-600 text-white',
  failed: 'bg-red-600 text-white',
  unproven: 'bg-amber-100 text-amber-900 dark:bg-amber-500/20 dark:text-amber-200',
  none: 'bg-zinc-100 text-zinc-600 dark:bg-zinc-800 dark:text-zinc-400',
};

/** "+2 ~1 −0": files added, changed and removed against the version before. */
export function changeCounts(counts: Pick<VersionSummary, 'added' | 'changed' | 'removed'>): string {
  return `+${counts.added} ~${counts.changed} \u2212${counts.removed}`;
}

/** The same counts in words, for a screen reader and the tooltip. */
export function changeCountsSentence(counts: Pick<VersionSummary, 'added' | 'changed' | 'removed'>): string {
  return `${counts.added} added, ${counts.changed} changed, ${counts.removed} removed`;
}

export const FILE_STATUS_LABEL: Record<FileDiff['status'], string> = {
  added: 'Added',
  changed: 'Changed',
  removed: 'Removed',
};

export const FILE_STATUS_CLASS: Record<FileDiff['status'], string> = {
  added: 'bg-emerald-100 text-emerald-800 dark:bg-emerald-500/15 dark:text-emerald-300',
  changed: 'bg-sky-100 text-sky-800 dark:bg-sky-500/15 dark:text-sky-300',
  removed: 'bg-red-100 text-red-800 dark:bg-red-500/15 dark:text-red-300',
};

/** What a diff compares, as its heading says it: "Version 2 against version 1". */
export function diffHeading(from: number, to: number): string {
  return from === 0 ? `Version ${to}: every file is new` : `Version ${to} against version ${from}`;
}

/**
 * How many files of a diff open at once: the rest start folded, so a version that touched
 * hundreds of files does not lay out hundreds of editors before the first can be read.
 */
export const FILES_OPEN_AT_FIRST = 8;
