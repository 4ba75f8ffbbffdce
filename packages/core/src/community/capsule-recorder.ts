/**
 * PackCast capsules: what a finished run looks like as a public recording. Pure: the server reads
 * the run's stored events, engine usage, files and the enhancement it came from, and this turns
 * them into the capsule's texts, timeline and metrics. Nothing here may leak a vendor, a model, a
 * key or a URL: engines appear as "Engine 1", "Engine 2", ... in order of first appearance.
 */
import type { CapsuleEventType } from '../schemas/community.js';
import { PIPELINE_STAGES } from '../schemas/events.js';
import type { VerificationRecord, VerificationVerdict } from '../schemas/verification.js';

export const CAPSULE_UNTITLED_TITLE = 'Untitled Project';
/** Titles and descriptions are cut here (cards and Open Graph previews stay short). */
export const CAPSULE_TITLE_MAX = 120;
export const CAPSULE_DESCRIPTION_MAX = 500;

/** One stored run event (run_events.data) with the time it was stored. */
export interface StoredRunEvent {
  data: unknown;
  createdAt: Date | string;
}

/** One engine call of the run or of its enhancement (engine_usage). */
export interface CapsuleUsageRow {
  engineKey: string;
  totalTokens: number;
  /** Thousandths of a cent. */
  costMillicents: number;
}

export interface CapsuleEnhancementInput {
  sourcePrompt: string;
  /** '' when the engines produced nothing usable and the original prompt was kept. */
  finalPrompt: string;
  /** When the enhancement finished (its row is stored then). */
  createdAt: Date | string;
  steps: Array<{ passNumber: number; engineOrder: number; engineKey: string; durationMs: number; ok: boolean }>;
}

export interface CapsuleRunInput {
  idea: string;
  /** Stored events in sequence order. */
  events: StoredRunEvent[];
  /** Engine calls of the run and of its enhancement. */
  usage: CapsuleUsageRow[];
  /** The project's files in file order. */
  files: Array<[path: string, content: string]>;
  /** Proven Code's record of those files (null: none was kept, so nothing is claimed). */
  verification: CapsuleProof | null;
  startedAt: Date | string;
  completedAt: Date | string;
  /** Milliseconds of stage work (the run's executionMs). */
  executionMs: number;
  enhancement?: CapsuleEnhancementInput | null;
}

/**
 * What the capsule may say of the code: the verification record's verdict and its sentences, and
 * (from a record) why it was not proven, piece by piece, so the capsule can say each reason once.
 */
export type CapsuleProof = Pick<VerificationRecord, 'verdict' | 'proven' | 'notProven' | 'coveredFiles'> & {
  problems: Array<{ path: string }>;
  /** Why nothing ran ("not executed: no sandbox on this server (…)"). */
  notExecutedReason?: string | undefined;
  /** The checks that could not run, each with its reason (often that same sentence). */
  skipped?: Array<{ check: string; reason?: string | undefined }>;
  uncoveredFiles?: string[];
};

/** The proof a capsule states: a record's, or "not proven" when its run kept none. */
export function capsuleProof(record: VerificationRecord | null): CapsuleProof {
  if (!record) return { verdict: 'unproven', proven: '', notProven: 'no verification record was kept for this session', coveredFiles: [], problems: [] };
  return {
    verdict: record.verdict,
    proven: record.proven,
    notProven: record.notProven,
    coveredFiles: record.coveredFiles,
    problems: record.checks.flatMap((c) => c.problems),
    notExecutedReason: record.notExecutedReason,
    skipped: record.checks.filter((c) => c.status === 'skipped').map((c) => ({ check: c.check, reason: c.reason })),
    uncoveredFiles: record.uncoveredFiles,
  };
}

export interface RecordedCapsuleEvent {
  eventType: CapsuleEventType;
  timestamp: string;
  data: { model?: string; enhanced: boolean; reason: string; iteration: number };
}

export interface RecordedCapsuleMetrics {
  totalDuration: number;
  totalTokens: number;
  totalCost: number;
  modelVotes: string;
  consensusScore: number;
  outputLength: number;
  /** Proven Code's verdict on the final code (shown beside the figures). */
  verdict: VerificationVerdict;
}

export interface RecordedCapsule {
  title: string;
  description: string;
  originalPrompt: string;
  enhancedPrompt: string | null;
  finalCode: string;
  events: RecordedCapsuleEvent[];
  metrics: RecordedCapsuleMetrics;
}

/** The capsule's title: the idea's first non-empty line, or "Untitled Project". */
export function capsuleTitle(idea: string): string {
  const first = idea.split(/\r?\n/).map((line) => line.trim()).find((line) => line.length > 0);
  return first ? clip(first, CAPSULE_TITLE_MAX) : CAPSULE_UNTITLED_TITLE;
}

/** The rest of the idea after its title line, or a short summary of the build when there is none. */
export function capsuleDescription(idea: string, fileCount: number, verdict: VerificationVerdict): string {
  const lines = idea.split(/\r?\n/);
  const titleAt = lines.findIndex((line) => line.trim().length > 0);
  const rest = titleAt < 0 ? '' : lines.slice(titleAt + 1).join('\n').replace(/\s+/g, ' ').trim();
  if (rest) return clip(rest, CAPSULE_DESCRIPTION_MAX);
  const files = `${fileCount} file${fileCount === 1 ? '' : 's'}`;
  return verdict === 'passed' ? `A Wolfpack build of ${files} that passed Proven Code.` : `A Wolfpack build of ${files}.`;
}

/** The files as one text: a `// path` header line before each file's content. */
export function consolidateCapsuleFiles(files: Array<[string, string]>): string {
  return files.map(([path, content]) => `// ${path}\n${content}${content.endsWith('\n') ? '' : '\n'}`).join('\n');
}

/**
 * consensusScore: the share of the project's files that Proven Code's checks covered (static or
 * run in the sandbox) and found no problem in: how far the engines' code agrees with the
 * verifier. A file no check covered does not count as agreeing; 0 for a project without files.
 */
export function capsuleConsensusScore(filePaths: string[], proof: Pick<CapsuleProof, 'coveredFiles' | 'problems'>): number {
  if (filePaths.length === 0) return 0;
  const broken = new Set(proof.problems.map((p) => p.path));
  const covered = new Set(proof.coveredFiles);
  const clean = filePaths.filter((path) => covered.has(path) && !broken.has(path)).length;
  return Math.round((clean / filePaths.length) * 1000) / 1000;
}

/** Generic labels for engine keys, numbered in order of first appearance. */
class EngineLabels {
  private readonly labels = new Map<string, string>();

  label(key: string | undefined): string | undefined {
    if (!key) return undefined;
    let label = this.labels.get(key);
    if (!label) {
      label = `Engine ${this.labels.size + 1}`;
      this.labels.set(key, label);
    }
    return label;
  }

  all(): string[] {
    return [...this.labels.values()];
  }
}

interface StageView {
  type: 'stage';
  role: string;
  ok: boolean;
  engine?: string;
  progress?: { current?: number };
}
interface LogView {
  type: 'log';
  level: string;
  message: string;
}

function asStage(data: unknown): StageView | undefined {
  const d = data as Partial<StageView> | null;
  return d && d.type === 'stage' && typeof d.role === 'string' && typeof d.ok === 'boolean' ? (d as StageView) : undefined;
}
function asLog(data: unknown): LogView | undefined {
  const d = data as Partial<LogView> | null;
  return d && d.type === 'log' && typeof d.message === 'string' ? (d as LogView) : undefined;
}

/** Log lines worth a stage's reason: its own results, never texts that name an engine. */
const RESULT_LINE = /^(Planned \d+ files?|Wrote \d+ files?|All \d+ files passed|\d+ problem\(s\) in|Polished |Polishing (found|changed) nothing|Proven Code: \d+ files verified|Proven Code gate failed)/;
const STAGES_PER_CYCLE = PIPELINE_STAGES.length;
const REPAIR_LINE = /^Repair round (\d+): (.*)$/s;

/** Turns a finished run into its capsule. */
export function recordCapsule(input: CapsuleRunInput): RecordedCapsule {
  const labels = new EngineLabels();
  const events: RecordedCapsuleEvent[] = [];
  const startedAt = toDate(input.startedAt);
  const enhancement = input.enhancement ?? null;
  const enhancedPrompt = enhancement && enhancement.finalPrompt.trim() ? enhancement.finalPrompt : null;
  const originalPrompt = enhancement ? enhancement.sourcePrompt : input.idea;

  // Enhancement steps carry durations, not times: passes ran one after another and the engines of
  // a pass together, so a pass lasted as long as its slowest engine and the last one ended at
  // the enhancement's createdAt.
  if (enhancement) {
    const end = toDate(enhancement.createdAt).getTime();
    const passes = [...new Set(enhancement.steps.map((s) => s.passNumber))].sort((a, b) => a - b);
    const passLength = new Map(passes.map((p) => [p, Math.max(0, ...enhancement.steps.filter((s) => s.passNumber === p).map((s) => s.durationMs))]));
    let passStart = end - passes.reduce((sum, p) => sum + (passLength.get(p) ?? 0), 0);
    events.push(promptReceived(new Date(passStart), originalPrompt));
    for (const pass of passes) {
      const steps = enhancement.steps.filter((s) => s.passNumber === pass).sort((a, b) => a.engineOrder - b.engineOrder || a.durationMs - b.durationMs);
      for (const step of steps) {
        events.push({
          eventType: 'model_enhanced',
          timestamp: new Date(passStart + step.durationMs).toISOString(),
          data: {
            model: labels.label(step.engineKey) ?? `Engine ${step.engineOrder}`,
            enhanced: step.ok,
            reason: step.ok ? `Pass ${pass}: refined the prompt` : `Pass ${pass}: skipped (the engine failed)`,
            iteration: pass,
          },
        });
      }
      passStart += passLength.get(pass) ?? 0;
    }
    events.push({
      eventType: 'enhancement_selected',
      timestamp: toDate(enhancement.createdAt).toISOString(),
      data: {
        enhanced: enhancedPrompt !== null,
        reason: enhancedPrompt !== null ? 'The refined prompt was chosen for the build' : 'No refinement was usable: the original prompt was kept',
        iteration: passes.length,
      },
    });
  } else {
    events.push(promptReceived(startedAt, originalPrompt));
    events.push({
      eventType: 'enhancement_selected',
      timestamp: startedAt.toISOString(),
      data: { enhanced: false, reason: 'Built from the original prompt (no enhancement)', iteration: 0 },
    });
  }

  // One code_refined per finished stage and per repair round, at the time each was stored. A
  // stage's start carries progress.current = its position, its end position + 1; a start seen
  // again (a resumed run redoing an interrupted stage) replaces the unfinished one.
  let current: { role: string; position: number; results: string[] } | null = null;
  let stagesDone = 0;
  for (const stored of input.events) {
    const at = toDate(stored.createdAt);
    const stage = asStage(stored.data);
    if (stage) {
      const position = stage.progress?.current ?? 0;
      if (current && position === current.position + 1 && stage.role === current.role) {
        stagesDone += 1;
        const result = current.results.at(-1);
        events.push({
          eventType: 'code_refined',
          timestamp: at.toISOString(),
          data: {
            model: labels.label(stage.engine),
            enhanced: stage.ok,
            reason: result ? `${stage.role}: ${result}` : `${stage.role} finished`,
            iteration: Math.floor(current.position / STAGES_PER_CYCLE) + 1,
          },
        });
        current = null;
      } else if (!stage.ok) {
        current = { role: stage.role, position, results: [] };
        labels.label(stage.engine);
      }
      continue;
    }
    const log = asLog(stored.data);
    if (!log || !current) continue;
    const repair = REPAIR_LINE.exec(log.message);
    if (repair) {
      events.push({
        eventType: 'code_refined',
        timestamp: at.toISOString(),
        data: { model: undefined, enhanced: /passed the checks/.test(repair[2]!), reason: `${current.role} repair round ${repair[1]}: ${firstLine(repair[2]!)}`, iteration: Number(repair[1]) },
      });
      // The stage's own reason then tells where the repairs left the code.
      current.results.push(`after repair round ${repair[1]}: ${firstLine(repair[2]!)}`);
    } else if (RESULT_LINE.test(log.message)) {
      current.results.push(firstLine(log.message));
    }
  }
  for (const event of events) if (event.data.model === undefined) delete event.data.model;

  const paths = input.files.map(([path]) => path);
  const finalCode = consolidateCapsuleFiles(input.files);
  const proof = input.verification ?? capsuleProof(null);
  events.push({
    eventType: 'session_complete',
    timestamp: toDate(input.completedAt).toISOString(),
    data: { enhanced: proof.verdict === 'passed', reason: sessionOutcome(paths.length, proof), iteration: stagesDone },
  });
  for (const row of input.usage) labels.label(row.engineKey);

  const enhancementMs = enhancement ? toDate(enhancement.createdAt).getTime() - toDate(events[0]!.timestamp).getTime() : 0;
  const totalMillicents = input.usage.reduce((sum, row) => sum + (Number(row.costMillicents) || 0), 0);
  return {
    title: capsuleTitle(input.idea),
    description: capsuleDescription(input.idea, paths.length, proof.verdict),
    originalPrompt,
    enhancedPrompt,
    finalCode,
    events,
    metrics: {
      // Engine work: the enhancement's passes plus the run's stages (time spent waiting between them is not the session's).
      totalDuration: Math.max(0, Math.round(enhancementMs + input.executionMs)),
      totalTokens: input.usage.reduce((sum, row) => sum + (Number(row.totalTokens) || 0), 0),
      // Cents, kept fractional (shown with 3 decimals of dollars).
      totalCost: Math.round(totalMillicents) / 1000,
      modelVotes: labels.all().join(', '),
      consensusScore: capsuleConsensusScore(paths, proof),
      outputLength: finalCode.length,
      verdict: proof.verdict,
    },
  };
}

/**
 * The timeline's last line: what was generated and what Proven Code said of it, whole (a reader
 * needs every reason, and the timeline scrolls), with each reason said once.
 */
function sessionOutcome(fileCount: number, proof: CapsuleProof): string {
  const generated = `${fileCount} file${fileCount === 1 ? '' : 's'} generated`;
  switch (proof.verdict) {
    case 'passed':
      return `${generated}; Proven Code passed: ${proof.proven}`;
    case 'failed': {
      const files = new Set(proof.problems.map((p) => p.path)).size;
      return `${generated}; Proven Code failed: problems left in ${files} file${files === 1 ? '' : 's'}`;
    }
    case 'unproven':
      return `${generated}; not proven: ${unprovenReasons(proof)}`;
    default: {
      const unreachable: never = proof.verdict;
      return unreachable;
    }
  }
}

/**
 * Why the code is not proven, each reason once. Without a sandbox every check the project needed
 * is skipped with the same sentence the record starts with: the record's own text repeats it per
 * check, so the checks are named after it instead. Without the pieces (no record was kept), the
 * record's sentence as it is.
 */
function unprovenReasons(proof: CapsuleProof): string {
  if (proof.skipped === undefined) return proof.notProven || proof.proven;
  const parts: string[] = [];
  const byReason = new Map<string, string[]>();
  for (const { check, reason } of proof.skipped) {
    const key = reason ?? 'no reason given';
    const checks = byReason.get(key) ?? [];
    if (!checks.includes(check)) checks.push(check);
    byReason.set(key, checks);
  }
  const main = proof.notExecutedReason;
  if (main) {
    const because = byReason.get(main);
    byReason.delete(main);
    parts.push(because ? `${main}, so ${listOf(because)} did not run` : main);
  }
  for (const [reason, checks] of byReason) parts.push(`${listOf(checks)} skipped: ${reason}`);
  const uncovered = proof.uncoveredFiles ?? [];
  if (uncovered.length > 0) {
    const shown = uncovered.slice(0, 5).join(', ') + (uncovered.length > 5 ? `, and ${uncovered.length - 5} more` : '');
    parts.push(`${uncovered.length} file${uncovered.length === 1 ? '' : 's'} not covered by any check (${shown})`);
  }
  return parts.length > 0 ? parts.join('; ') : proof.notProven || proof.proven;
}

/** "a", "a and b", "a, b and c". */
function listOf(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

function promptReceived(at: Date, prompt: string): RecordedCapsuleEvent {
  return {
    eventType: 'prompt_received',
    timestamp: at.toISOString(),
    data: { enhanced: false, reason: `Idea received (${prompt.trim().length} characters)`, iteration: 0 },
  };
}

function firstLine(text: string): string {
  return clip(text.split('\n')[0]!.trim(), 200);
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`;
}

function toDate(value: Date | string): Date {
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? new Date(0) : date;
}
