/**
 * njin's iteration: engines propose a change to the files sent, each proposal is applied to a copy
 * and run through Proven Code's static verification, and only proposals that pass are ranked, by
 * one anonymised voting round among the engines. What no other tool does: the consensus is only
 * ever among patches that are known to pass the checks.
 *
 * Wall time: proposals run concurrently and votes run concurrently, so an iteration with engines of
 * latency L takes about 2 L plus verification (see packages/server/bench/consensus.bench.ts). The
 * files as sent are verified while the engines think; candidates that arrive together are verified
 * in one batch (one TypeScript program for all of them).
 */
import { AppError } from '../errors.js';
import { MAX_OUTPUT_TOKENS_PER_CALL } from '../billing/guardrail.js';
import { EngineError, type ChatMessage, type Engine, type EngineResult } from '../engines/engine.js';
import { contextBudgetChars } from '../pipeline/context-budget.js';
import { sanitizePath } from '../pipeline/safe-path.js';
import type { VerifyReport } from '../pipeline/verify.js';
import type { NjinCandidate, NjinIterateMode } from '../schemas/njin.js';
import { checkCandidate, failedChecks, hasManifest, problemBaseline, type IterationCheck, type ProblemBaseline, type ProjectVerifier } from './candidate-check.js';
import { proposalMessages } from './candidate-prompt.js';
import { chooseIterationMode, DEFAULT_MAX_CANDIDATES, type IterationMode } from './consensus-mode.js';
import { applyProposal } from './patch-apply.js';
import { changedLineCount, formatUnifiedPatch } from './patch-format.js';
import { ballotFor, parseVote, pickWinner, voteMessages } from './vote.js';

/** Output cap of a vote call: a short review and the "VOTE: X" line. */
export const VOTE_MAX_TOKENS = 1024;

export interface IterationOptions {
  /** The files to change, path → content (paths relative, "/"-separated). */
  files: Readonly<Record<string, string>>;
  /** What to change. */
  instruction: string;
  /** @default 'auto': one engine for light requests, consensus otherwise (see consensus-mode.ts). */
  mode?: NjinIterateMode;
  /**
   * Engines in order of preference (e.g. `registry.resolve([])`). Single mode uses the first (the
   * next ones only when it fails to answer); consensus the first `maxCandidates`.
   */
  engines: readonly Engine[];
  /** Proven Code's static verification: pass `verifyProjects` from `@wolfpack/core/pipeline`. */
  verify: ProjectVerifier;
  /** Engines that propose in consensus mode. @default 3 */
  maxCandidates?: number;
  /** Aborts every engine call; the iteration then rejects with the abort reason. */
  signal?: AbortSignal;
  /** Called after every engine call that answered, also when the iteration ends in a 422. */
  onCall?: (record: IterationCallRecord) => void;
  /** Shuffles the ballots. @default Math.random */
  random?: () => number;
}

/** One engine call, for usage records and billing. Server-side: it names the engine's key. */
export interface IterationCallRecord {
  /** Generic label ("Engine 1"), as candidates and votes name the engine. */
  engine: string;
  engineKey: string;
  purpose: 'proposal' | 'vote';
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
  durationMs: number;
  attempts: number;
  /** The engine's price when the call was made, cents per 1,000 tokens. */
  pricePer1kTokensCents: number;
  /** pricePer1kTokensCents x totalTokens: thousandths of a cent, an exact integer. */
  costMillicents: number;
}

/** Tokens per engine over the whole iteration. */
export interface IterationUsage {
  engine: string;
  engineKey: string;
  calls: number;
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
  costMillicents: number;
}

export interface IterationOutcome {
  mode: IterationMode;
  /** Unified diff (Git dialect) of every changed, added and deleted file. */
  patch: string;
  /** Changed and added files, whole. */
  files: Record<string, string>;
  /** Files the winner deletes (also in `patch`). */
  deleted: string[];
  /**
   * Votes for the winner / votes cast, 0..1. 1 when a single candidate passed (or single mode: no
   * vote needed); 0 when several passed but no vote could be read (fewest changed lines decided).
   */
  consensusScore: number;
  /**
   * Comma-separated labels of the engines that voted for the winner; the proposer's label when no
   * vote was needed; '' when no vote could be read.
   */
  modelVotes: string;
  /** The same labels as a list. */
  voters: string[];
  /** The label of the engine whose proposal won. */
  winner: string;
  /** The winner's checks. */
  checks: IterationCheck[];
  /** Every proposal, passing or not, in engine order. */
  candidates: NjinCandidate[];
  /** Tokens per engine that answered (failed calls report none). */
  usage: IterationUsage[];
  calls: IterationCallRecord[];
}

interface Candidate {
  label: string;
  index: number;
  passed: boolean;
  checks: IterationCheck[];
  written: Record<string, string>;
  deleted: string[];
  patch: string;
  changedLines: number;
}

const label = (position: number): string => `Engine ${position + 1}`;

function engineFailure(error: unknown): string {
  // Engine error messages may name the engine's key or provider: the label is all callers see.
  if (error instanceof EngineError) {
    return error.kind === 'aborted' ? 'The engine call was cancelled.' : `The engine did not answer (${error.kind.replace('_', ' ')}).`;
  }
  return 'The engine did not answer.';
}

function normaliseFiles(files: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [raw, content] of Object.entries(files)) {
    const safe = sanitizePath(raw);
    if (!safe.ok) throw new AppError('BAD_REQUEST', `${safe.reason}.`);
    if (Object.hasOwn(out, safe.path)) throw new AppError('BAD_REQUEST', `${raw} names the same file as another path in files; send each file once.`);
    out[safe.path] = content;
  }
  return out;
}

/**
 * Runs one iteration. Rejects with AppError UNPROCESSABLE (details.candidates: every candidate and
 * its failed checks) when no proposal passes, BAD_REQUEST for unsafe input paths,
 * SERVICE_UNAVAILABLE without engines, and the abort reason when `signal` aborts.
 *
 * @example
 * // Server-side only: this module loads the pipeline's parser (and with it esbuild).
 * import { runIteration, verifyProjects } from '@wolfpack/core/pipeline';
 *
 * const outcome = await runIteration({
 *   files: request.files,
 *   instruction: request.instruction,
 *   mode: request.mode, // 'auto' | 'single' | 'consensus'
 *   engines: registry.resolve([]),
 *   verify: verifyProjects,
 *   signal,
 *   onCall: (call) => usageRecords.push(call), // billed even when it ends in a 422
 * });
 * // outcome.patch, outcome.files, outcome.consensusScore, outcome.modelVotes, outcome.checks,
 * // outcome.candidates, outcome.mode: the iterate reply (plus the licence's usageCount).
 */
export async function runIteration(options: IterationOptions): Promise<IterationOutcome> {
  const { engines, signal, verify } = options;
  if (engines.length === 0) throw new AppError('SERVICE_UNAVAILABLE', 'No engine is configured.');
  signal?.throwIfAborted();
  const files = normaliseFiles(options.files);
  const instruction = options.instruction;
  const mode = chooseIterationMode(files, instruction, options.mode ?? 'auto');
  const proposerCount = mode === 'single' ? 1 : Math.max(1, Math.min(options.maxCandidates ?? DEFAULT_MAX_CANDIDATES, engines.length));
  const calls: IterationCallRecord[] = [];

  const call = async (position: number, purpose: IterationCallRecord['purpose'], messages: ChatMessage[], maxTokens: number): Promise<EngineResult> => {
    const engine = engines[position]!;
    const result = await engine.complete({ messages, maxTokens, signal });
    const record: IterationCallRecord = {
      engine: label(position),
      engineKey: engine.key,
      purpose,
      inputTokens: result.usage.inputTokens,
      outputTokens: result.usage.outputTokens,
      totalTokens: result.usage.totalTokens,
      durationMs: result.durationMs,
      attempts: result.attempts,
      pricePer1kTokensCents: engine.pricePer1kTokensCents,
      costMillicents: Math.round(engine.pricePer1kTokensCents * result.usage.totalTokens),
    };
    calls.push(record);
    options.onCall?.(record);
    return result;
  };

  const budget = Math.min(...engines.slice(0, Math.max(proposerCount, 1)).map((e) => contextBudgetChars(e.contextTokens)));
  const messages = proposalMessages(files, instruction, budget);
  let baseline: { problems: ProblemBaseline; manifest: boolean } | undefined;
  const baselineOf = () => (baseline ??= { problems: problemBaseline(verify([files])[0]!), manifest: hasManifest(files) });
  const checkArrivals = arrivalBatcher(verify);
  const propose = async (position: number): Promise<Candidate> => {
    const base = { label: label(position), index: position, written: {}, deleted: [], patch: '', changedLines: 0 };
    let result: EngineResult;
    try {
      result = await call(position, 'proposal', messages, MAX_OUTPUT_TOKENS_PER_CALL);
    } catch (error) {
      if (signal?.aborted) throw signal.reason ?? error;
      return { ...base, passed: false, checks: [{ check: 'engine', ok: false, detail: engineFailure(error) }] };
    }
    const proposal = applyProposal(files, result.text);
    if (result.finishReason === 'length') {
      proposal.problems.push({ check: 'format', message: 'The answer was cut off at the output limit, so the change is incomplete.' });
    }
    // A candidate is checked as soon as it arrives, while slower engines are still answering;
    // candidates arriving together are checked together.
    const report = proposal.problems.length === 0 ? await checkArrivals(proposal.files) : undefined;
    const { problems, manifest } = baselineOf();
    const checks = checkCandidate(proposal, report, problems, manifest);
    const change = { before: files, written: proposal.written, deleted: proposal.deleted };
    return {
      ...base,
      passed: checks.every((c) => c.ok),
      checks,
      written: proposal.written,
      deleted: proposal.deleted,
      patch: formatUnifiedPatch(change),
      changedLines: changedLineCount(change),
    };
  };

  let candidates: Candidate[];
  if (mode === 'single') {
    // One engine; the next ones only stand in when it does not answer at all.
    candidates = [];
    for (let position = 0; position < engines.length; position++) {
      const pending = propose(position);
      baselineOf();
      const candidate = await pending;
      candidates.push(candidate);
      if (candidate.checks[0]?.check !== 'engine') break;
    }
  } else {
    const pending = Array.from({ length: proposerCount }, (_, position) => propose(position));
    // The files as sent are verified while the engines think.
    baselineOf();
    candidates = await Promise.all(pending);
  }

  const listed: NjinCandidate[] = candidates.map((c) => ({ engine: c.label, passed: c.passed, failedChecks: failedChecks(c.checks) }));
  const passing = candidates.filter((c) => c.passed);
  if (passing.length === 0) {
    const why = candidates.map((c) => `${c.label} failed ${c.checks.filter((k) => !k.ok).map((k) => k.check).join(', ')}`).join('; ');
    throw new AppError(
      'UNPROCESSABLE',
      `No proposed change passed the checks: ${why}. Try a more specific instruction, or send the files the change depends on.`,
      { candidates: listed },
    );
  }

  let winner = passing[0]!;
  let voters = [winner.label];
  let consensusScore = 1;
  if (passing.length > 1) {
    const votes = await voteRound(options, passing, proposerCount, call);
    const cast = [...votes.values()].reduce((sum, v) => sum + v.length, 0);
    const counts = new Map([...votes].map(([i, v]) => [i, v.length]));
    const chosen = pickWinner(passing.map((c) => ({ candidate: c.index, changedLines: c.changedLines })), counts);
    winner = passing.find((c) => c.index === chosen)!;
    voters = votes.get(chosen) ?? [];
    consensusScore = cast === 0 ? 0 : voters.length / cast;
  }

  return {
    mode,
    patch: winner.patch,
    files: winner.written,
    deleted: winner.deleted,
    consensusScore,
    modelVotes: voters.join(', '),
    voters,
    winner: winner.label,
    checks: winner.checks,
    candidates: listed,
    usage: usageOf(calls),
    calls,
  };
}

/**
 * Verification of projects that arrive within one turn of the event loop, in one call: engines
 * answering at the same moment (or the same timer tick) are verified in one batch, which
 * type-checks them in one TypeScript program.
 */
function arrivalBatcher(verify: ProjectVerifier): (files: Readonly<Record<string, string>>) => Promise<VerifyReport> {
  let waiting: { files: Readonly<Record<string, string>>; resolve: (report: VerifyReport) => void; reject: (error: unknown) => void }[] = [];
  const flush = () => {
    const batch = waiting;
    waiting = [];
    try {
      const reports = verify(batch.map((entry) => entry.files));
      batch.forEach((entry, i) => entry.resolve(reports[i]!));
    } catch (error) {
      for (const entry of batch) entry.reject(error);
    }
  };
  return (files) =>
    new Promise((resolve, reject) => {
      if (waiting.length === 0) setImmediate(flush);
      waiting.push({ files, resolve, reject });
    });
}

/** One concurrent round: each proposing engine votes once; unreadable or failed votes count for nothing. */
async function voteRound(
  options: IterationOptions,
  passing: readonly Candidate[],
  voterCount: number,
  call: (position: number, purpose: 'vote', messages: ChatMessage[], maxTokens: number) => Promise<EngineResult>,
): Promise<Map<number, string[]>> {
  const random = options.random ?? Math.random;
  const patches = passing.map((c) => c.patch);
  const budget = contextBudgetChars(Math.min(...options.engines.slice(0, voterCount).map((e) => e.contextTokens)));
  const charsPerPatch = Math.max(2000, Math.floor(budget / passing.length));
  const ballots = Array.from({ length: voterCount }, () => ballotFor(patches, random));
  const choices = await Promise.all(
    ballots.map(async (ballot, position) => {
      try {
        const result = await call(position, 'vote', voteMessages(options.instruction, ballot, charsPerPatch), VOTE_MAX_TOKENS);
        const letter = parseVote(result.text, ballot.map((b) => b.letter));
        const picked = ballot.find((b) => b.letter === letter);
        return picked === undefined ? null : { voter: label(position), candidate: passing[picked.candidate]!.index };
      } catch (error) {
        if (options.signal?.aborted) throw options.signal.reason ?? error;
        return null;
      }
    }),
  );
  const votes = new Map<number, string[]>();
  for (const choice of choices) if (choice) votes.set(choice.candidate, [...(votes.get(choice.candidate) ?? []), choice.voter]);
  return votes;
}

function usageOf(calls: readonly IterationCallRecord[]): IterationUsage[] {
  const byEngine = new Map<string, IterationUsage>();
  for (const c of calls) {
    const u = byEngine.get(c.engine) ?? { engine: c.engine, engineKey: c.engineKey, calls: 0, inputTokens: 0, outputTokens: 0, totalTokens: 0, costMillicents: 0 };
    u.calls++;
    u.inputTokens += c.inputTokens;
    u.outputTokens += c.outputTokens;
    u.totalTokens += c.totalTokens;
    u.costMillicents += c.costMillicents;
    byEngine.set(c.engine, u);
  }
  return [...byEngine.values()];
}
