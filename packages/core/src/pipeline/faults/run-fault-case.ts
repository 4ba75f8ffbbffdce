/**
 * Runs one corpus case through the real pipeline with scripted engines and judges the outcome:
 * was the defect detected, repaired (within how many calls), and is the verdict honest.
 */
import type { LogEvent, StageEvent } from '../../schemas/events.js';
import { formatFileBlock } from '../file-blocks.js';
import { formatFileOperation } from '../file-operations.js';
import { runPipeline, type PipelineOutcome } from '../run-pipeline.js';
import { scriptedEngine, systemOf, userOf, type ScriptedAnswer } from '../testing-engines.js';
import type { ProjectCheck } from '../verify.js';
import type { FaultCall, FaultCallKind, FaultCase, FaultResult } from './fault-case.js';

export interface FaultRunOptions {
  /** A check beyond the static ones (the execution gate); cases that need execution run only with it. */
  verify?: ProjectCheck;
  /** @default 2 */
  repairRounds?: number;
}

export interface FaultRun {
  result: FaultResult;
  outcome: PipelineOutcome;
  logs: LogEvent[];
  stages: StageEvent[];
  calls: (FaultCall & { system: string })[];
}

/** Which call a request is, from the prompts the stages send. */
export function classifyCall(system: string, user: string): { kind: FaultCallKind; path?: string } {
  if (/Planning engine/.test(system)) return { kind: 'plan' };
  if (/Polishing engine/.test(system)) return { kind: 'polish' };
  if (/Checking engine/.test(system)) return { kind: 'repair' };
  const completion = /previous answer for (\S+) was incomplete/.exec(user);
  if (completion) return { kind: 'completion', path: completion[1]! };
  const single = /Write the complete file (\S+) \(/.exec(user);
  if (single) return { kind: 'build', path: single[1]! };
  return { kind: 'build-all' };
}

function blocks(files: Readonly<Record<string, string>>): string {
  return Object.entries(files)
    .map(([path, content]) => formatFileBlock(path, content))
    .join('\n');
}

/** The case's files after its fix: what completion calls and default checks compare with. */
export function fixedFiles(fault: FaultCase): Record<string, string> {
  const files: Record<string, string> = { ...fault.files };
  for (const op of fault.fix?.operations ?? []) {
    if (op.kind === 'delete') delete files[op.path];
    else {
      files[op.to] = files[op.from] ?? '';
      delete files[op.from];
    }
  }
  return Object.assign(files, fault.fix?.files ?? {});
}

/** The reply a case's engine gives when the case does not script the call itself. */
function defaultReply(fault: FaultCase, call: FaultCall): ScriptedAnswer {
  switch (call.kind) {
    case 'plan':
      return `${fault.defect ?? 'A small project'}.\n\n${Object.keys(fault.files).map((p) => `FILE: ${p} - part of the project`).join('\n')}`;
    case 'build': {
      const content = fault.files[call.path!];
      return content === undefined ? 'I could not write that file.' : `Here it is:\n\n${formatFileBlock(call.path!, content)}`;
    }
    case 'build-all':
      return blocks(fault.files);
    case 'completion': {
      const content = fixedFiles(fault)[call.path!] ?? fault.files[call.path!];
      return content === undefined ? 'I could not write that file.' : formatFileBlock(call.path!, content);
    }
    case 'repair': {
      if (!fault.engineFixes) {
        // Says it fixed the files and sends them back as they were.
        const paths = Object.keys(fault.fix?.files ?? {}).filter((p) => fault.files[p] !== undefined);
        const same = Object.fromEntries(paths.map((p) => [p, fault.files[p]!]));
        return `I fixed the problems.\n\n${blocks(same)}`;
      }
      const ops = (fault.fix?.operations ?? []).map(formatFileOperation).join('\n');
      return `Fixed.\n\n${ops}${ops ? '\n\n' : ''}${blocks(fault.fix?.files ?? {})}`;
    }
    case 'polish':
      return 'UNCHANGED';
    default: {
      const unreachable: never = call.kind;
      return unreachable;
    }
  }
}

/**
 * What a case's engine answers to one chat request, for a fake OpenAI server that plays the case
 * through a real Wolfpack server (browser tests): the case's own reply, else the default.
 */
export function replyForRequest(fault: FaultCase, messages: readonly { role: string; content: unknown }[], attempt = 0): ScriptedAnswer {
  const text = (role: string) => messages.filter((m) => m.role === role).map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content))).join('\n');
  const call: FaultCall = { ...classifyCall(text('system'), text('user')), attempt, engine: 'alpha', user: text('user') };
  return fault.reply?.(call) ?? defaultReply(fault, call);
}

function defaultIsFixed(fault: FaultCase, files: Readonly<Record<string, string>>): boolean {
  for (const [path, content] of Object.entries(fault.fix?.files ?? {})) if (files[path] !== content) return false;
  for (const op of fault.fix?.operations ?? []) {
    if (op.kind === 'delete' && files[op.path] !== undefined) return false;
    if (op.kind === 'move' && (files[op.from] !== undefined || files[op.to] === undefined)) return false;
  }
  return true;
}

const problemLine = (p: { path: string; check: string; message: string }) => `${p.path}: ${p.check}: ${p.message}`;

/** Runs the case and judges it. Throws only when the pipeline itself throws (a bug, not a verdict). */
export async function runFaultCase(fault: FaultCase, options: FaultRunOptions = {}): Promise<FaultRun> {
  const calls: FaultRun['calls'] = [];
  const counts = new Map<FaultCallKind, number>();
  const engines = (fault.engines ?? ['alpha']).map((key) =>
    scriptedEngine(key, (request) => {
      const system = systemOf(request.messages);
      const user = userOf(request.messages);
      const { kind, path } = classifyCall(system, user);
      const attempt = counts.get(kind) ?? 0;
      counts.set(kind, attempt + 1);
      const call: FaultCall = { kind, attempt, engine: key, user, ...(path === undefined ? {} : { path }) };
      calls.push({ ...call, system });
      return fault.reply?.(call) ?? defaultReply(fault, call);
    }),
  );
  const logs: LogEvent[] = [];
  const stages: StageEvent[] = [];
  const run = runPipeline({
    idea: `${fault.id}: ${fault.defect ?? 'a correct project'}`,
    engines,
    repairRounds: options.repairRounds ?? 2,
    ...(options.verify ? { extraCheck: options.verify } : {}),
  });
  let step = await run.next();
  while (!step.done) {
    if (step.value.type === 'log') logs.push(step.value);
    else if (step.value.type === 'stage') stages.push(step.value);
    step = await run.next();
  }
  const outcome = step.value;
  return { result: judge(fault, outcome, logs, stages, calls), outcome, logs, stages, calls };
}

function judge(fault: FaultCase, outcome: PipelineOutcome, logs: LogEvent[], stages: StageEvent[], calls: FaultRun['calls']): FaultResult {
  const problems = outcome.verification.problems.map(problemLine);
  const passed = outcome.verification.passed;
  const repairCalls = calls.filter((c) => c.kind === 'repair').length;
  const completionCalls = calls.filter((c) => c.kind === 'completion').length;
  const rounds = repairCalls + completionCalls;
  const notes: string[] = [];
  // The last Proven Code event is the stage's end: ok false means the gate said it failed.
  const provenFailed = stages.filter((s) => s.role === 'Proven Code').at(-1)?.ok === false;
  const named = (pattern: RegExp) => problems.some((p) => pattern.test(p));

  if (fault.defect === null) {
    const clean = passed && problems.length === 0 && rounds === 0;
    if (!clean) notes.push(`a correct project was not passed clean: ${problems[0] ?? `${rounds} repair or completion call(s)`}`);
    return { id: fault.id, kind: fault.kind, detected: null, repaired: clean, rounds, repairCalls, completionCalls, honest: clean, ok: clean, passed, problems, notes };
  }

  const fixed = (fault.isFixed ?? ((files) => defaultIsFixed(fault, files)))(outcome.files);
  const repaired = passed && fixed;
  const seen = [...logs.map((l) => l.message), ...problems, ...calls.filter((c) => c.kind === 'repair' || c.kind === 'completion').map((c) => c.user)];
  const detected = fault.expect ? seen.some((text) => fault.expect!.test(text)) : rounds > 0 || !passed;
  const honest = repaired || (!passed && provenFailed && (fault.expect ? named(fault.expect) : problems.length > 0));
  if (!detected) notes.push('the defect was never detected');
  if (passed && !fixed) notes.push('the run says the project passed, but the defect is still there');
  if (!passed && !honest) notes.push(`the failure does not name the problem (${problems[0] ?? 'no problems listed'})`);
  if (repaired && rounds > 2) notes.push(`repaired only after ${rounds} calls`);
  if (fault.engineFixes && !repaired) notes.push('the engine fixes what it is told, yet the project was not repaired');
  for (const [kind, expected] of Object.entries(fault.expectCalls ?? {})) {
    const actual = kind === 'repair' ? repairCalls : completionCalls;
    if (actual !== expected) notes.push(`${actual} ${kind} call(s), expected ${expected}`);
  }
  const withinTarget = (repaired && rounds <= 2) || (!repaired && honest);
  const ok = detected && withinTarget && notes.length === 0;
  return { id: fault.id, kind: fault.kind, detected, repaired, rounds, repairCalls, completionCalls, honest, ok, passed, problems, notes };
}
