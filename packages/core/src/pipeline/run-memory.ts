/**
 * What a run remembers about its problems, so later stages cannot undo earlier repairs and a
 * repair round that did not work is not simply asked again. It travels in the checkpoint (plain
 * JSON), so a resumed run remembers too.
 */
import { createHash } from 'node:crypto';
import type { PipelineRole } from '../schemas/events.js';
import type { VerifyProblem, VerifyReport } from './verify.js';

/** One repair round that did not work, as the next round's prompt describes it. */
export interface FailedRepair {
  role: PipelineRole;
  round: number;
  engine: string;
  /** Files the answer wrote, deleted or moved (before any refusal). */
  changed: string[];
  /** Files whose change was refused, with the reason. */
  refused: string[];
  /** Files the answer left cut off at the token limit. */
  cut: string[];
  /** The problems it was asked to fix that are still there, as prompt lines. */
  unresolved: string[];
}

export interface RunMemory {
  /** Every problem any verified version of the project had, by {@link problemKey}. */
  seen: Record<string, VerifyProblem>;
  /** Per path, hashes of versions a repair replaced while they had problems: known bad. */
  replaced: Record<string, string[]>;
  /** The last repair round, when it did not work. */
  lastFailed: FailedRepair | null;
  /** Repair rounds that did not work so far: each moves the next round to another engine. */
  failedRounds: number;
}

export function emptyMemory(): RunMemory {
  return { seen: {}, replaced: {}, lastFailed: null, failedRounds: 0 };
}

/**
 * The identity of a problem across versions: where, which check, what, but not the line (code
 * above it moves) nor the list of importing files a dependency problem names (it grows).
 */
export function problemKey(problem: Pick<VerifyProblem, 'path' | 'check' | 'message'>): string {
  // U+001F separates; never U+0000, which PostgreSQL refuses in the jsonb the checkpoint is stored as.
  const message = problem.message.replace(/ \(in (?:[^()]|\([^()]*\))*\)/, '').replaceAll('\u0000', '');
  return `${problem.path}\u001f${problem.check}\u001f${message}`;
}

export function problemLine(p: VerifyProblem): string {
  return `${p.path}: ${p.check}: ${p.message.replaceAll('\u0000', '')}${p.line === undefined ? '' : ` (line ${p.line})`}`;
}

/** Remembers every problem of a verified version. */
export function remember(memory: RunMemory, report: Pick<VerifyReport, 'problems'>): void {
  for (const p of report.problems) memory.seen[problemKey(p)] ??= { path: p.path, check: p.check, message: p.message.replaceAll('\u0000', '') };
}

/** Problems of `after` that an earlier version had, `before` did not: fixed once, back again. */
export function regressions(memory: RunMemory, before: Pick<VerifyReport, 'problems'>, after: Pick<VerifyReport, 'problems'>): VerifyProblem[] {
  const current = new Set(before.problems.map(problemKey));
  return after.problems.filter((p) => {
    const key = problemKey(p);
    return !current.has(key) && memory.seen[key] !== undefined;
  });
}

function hash(content: string): string {
  return createHash('sha1').update(content).digest('base64');
}

/** Records that a repair replaced this (problematic) version of `path`. */
export function markReplaced(memory: RunMemory, path: string, content: string): void {
  const list = (memory.replaced[path] ??= []);
  const h = hash(content);
  if (!list.includes(h)) list.push(h);
}

/**
 * Is `content` a version of `path` that a repair already replaced? Such a version is refused
 * even when no check can see what was wrong with it now (a runtime failure, for example).
 */
export function isReplacedVersion(memory: RunMemory, path: string, content: string): boolean {
  return memory.replaced[path]?.includes(hash(content)) ?? false;
}

/** A deep copy for a checkpoint: later stages must not change what was stored. */
export function snapshotMemory(memory: RunMemory): RunMemory {
  return structuredClone(memory);
}
