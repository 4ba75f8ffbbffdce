/**
 * The faulty-engine corpus: each case is a whole run's scripted replies (plan, files, repairs)
 * with one defect of a kind real models produce, or a correct project that must pass untouched.
 * The replies go through the real pipeline, so a case measures what a user would get.
 */
import type { ScriptedAnswer } from '../testing-engines.js';
import type { FileOperation } from '../file-operations.js';

export type ProjectKind = 'node-js' | 'node-ts' | 'python' | 'static-web' | 'bundled-web';

/** What a scripted call is, read from its prompts. */
export type FaultCallKind = 'plan' | 'build' | 'build-all' | 'completion' | 'repair' | 'polish';

export interface FaultCall {
  kind: FaultCallKind;
  /** The file a build or completion call asks for. */
  path?: string;
  /** How many calls of this kind came before this one in the run (0 for the first). */
  attempt: number;
  /** The engine answering. */
  engine: string;
  user: string;
}

export interface FaultCase {
  /** Short, unique, kebab-case. */
  id: string;
  kind: ProjectKind;
  /** The defect in words; null for a correct project. */
  defect: string | null;
  /** The project as the engine builds it, defect included; planned in this order. */
  files: Record<string, string>;
  /** What a repair that does what it is told writes. */
  fix?: { files?: Record<string, string>; operations?: FileOperation[] };
  /**
   * Does the scripted engine fix what it is told? A few cases never do, to check that the run
   * then reports failure and names the problem.
   */
  engineFixes: boolean;
  /** The problem the run must find and, when unrepaired, name: matched against problem lines and the log. */
  expect?: RegExp;
  /** Only running the code shows the defect: skipped unless an execution check is plugged in. */
  needsExecution?: boolean;
  /** Engine keys in modelOrder. @default ['alpha'] */
  engines?: string[];
  /** A reply of its own for some calls; undefined falls back to the script built from the fields above. */
  reply?: (call: FaultCall) => ScriptedAnswer | undefined;
  /** Is the final project really free of the defect? @default the fix's files and operations are in place */
  isFixed?: (files: Readonly<Record<string, string>>) => boolean;
  /** Exact engine calls the case must take, where that is the point of the case. */
  expectCalls?: Partial<Record<'repair' | 'completion', number>>;
}

export interface FaultResult {
  id: string;
  kind: ProjectKind;
  /** null for a correct project (nothing to detect). */
  detected: boolean | null;
  /** The final project passed and is really fixed; for a correct project: passed clean. */
  repaired: boolean;
  /** Repair and completion calls the run made. */
  rounds: number;
  repairCalls: number;
  completionCalls: number;
  /** The verdict matches the truth: passed only when fixed; failed with the problem named otherwise. */
  honest: boolean;
  /** Meets the corpus targets (see {@link meetsTarget}). */
  ok: boolean;
  passed: boolean;
  problems: string[];
  /** Why the case missed its target, when it did. */
  notes: string[];
}
