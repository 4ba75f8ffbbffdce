import { describe, expect, it } from 'vitest';
import { capsuleEvent, capsuleMetrics } from '../schemas/community.js';
import { buildVerificationRecord } from '../verification/verification-record.js';
import { capsuleConsensusScore, capsuleDescription, capsuleProof, capsuleTitle, consolidateCapsuleFiles, recordCapsule, type CapsuleProof, type CapsuleRunInput, type StoredRunEvent } from './capsule-recorder.js';

const T0 = Date.parse('2026-03-01T10:00:00Z');
const at = (seconds: number) => new Date(T0 + seconds * 1000);
const ROLES = ['Planning', 'Building', 'Checking', 'Polishing', 'Proven Code'] as const;

/** The stored events of a one-cycle run: start and end of every stage with a result line between. */
function runEvents(options: { gatePasses?: boolean; engine?: (role: string) => string } = {}): StoredRunEvent[] {
  const engine = options.engine ?? (() => 'alpha');
  const results: Record<string, string[]> = {
    Planning: ['Planning with engine alpha', 'Planned 2 files: index.html, app.js'],
    Building: ['Wrote 2 files (1.2 KB).'],
    Checking: ['1 problem(s) in 1 file(s): app.js: syntax', 'Repair round 1: 1 file(s) changed. All 2 files passed the checks.'],
    Polishing: ['Engine alpha gave no file plan', 'Polishing changed nothing.'],
    'Proven Code': options.gatePasses === false ? ['Proven Code gate failed:\napp.js: imports'] : ['Proven Code: 2 files verified (syntax).'],
  };
  const out: StoredRunEvent[] = [{ data: { type: 'run', runId: 'r', conversationId: 'r' }, createdAt: at(0) }];
  let t = 1;
  ROLES.forEach((role, position) => {
    out.push({ data: { type: 'stage', role, ok: false, executionTime: 0, progress: { current: position }, engine: engine(role) }, createdAt: at(t++) });
    for (const message of results[role]!) out.push({ data: { type: 'log', id: `l${t}`, level: 'info', message, timestamp: at(t).toISOString() }, createdAt: at(t++) });
    const ok = role !== 'Proven Code' || options.gatePasses !== false;
    out.push({ data: { type: 'stage', role, ok, executionTime: 1, progress: { current: position + 1 }, engine: engine(role) }, createdAt: at(t++) });
  });
  return out;
}

const PASSED: CapsuleProof = { verdict: 'passed', proven: '2 files checked (syntax), the page loads without errors', notProven: '', coveredFiles: ['app.js', 'index.html'], problems: [] };

function input(overrides: Partial<CapsuleRunInput> = {}): CapsuleRunInput {
  return {
    idea: 'A recipe tracker\nKeeps recipes and\nshopping lists.',
    events: runEvents(),
    usage: [
      { engineKey: 'alpha', totalTokens: 1200, costMillicents: 3660 },
      { engineKey: 'beta', totalTokens: 300, costMillicents: 915 },
    ],
    files: [['app.js', 'console.log(1);'], ['index.html', '<!doctype html>\n']],
    verification: PASSED,
    startedAt: at(0),
    completedAt: at(40),
    executionMs: 35_000,
    enhancement: null,
    ...overrides,
  };
}

describe('capsule texts', () => {
  it('takes the title from the first line and the description from the rest', () => {
    expect(capsuleTitle('\n  A recipe tracker  \nmore')).toBe('A recipe tracker');
    expect(capsuleTitle('   \n ')).toBe('Untitled Project');
    expect(capsuleDescription('Title\nline one\n\nline two', 3, 'passed')).toBe('line one line two');
    expect(capsuleDescription('Title only', 3, 'passed')).toBe('A Wolfpack build of 3 files that passed Proven Code.');
    expect(capsuleDescription('Title only', 3, 'unproven')).toBe('A Wolfpack build of 3 files.');
    expect(capsuleDescription('', 1, 'failed')).toBe('A Wolfpack build of 1 file.');
  });

  it('joins the files with // path headers in file order', () => {
    expect(consolidateCapsuleFiles([['b.js', 'b'], ['a.js', 'a\n']])).toBe('// b.js\nb\n\n// a.js\na\n');
  });

  it('scores consensus as the share of files a check covered and found no problem in', () => {
    const all = ['a', 'b', 'c', 'd'];
    expect(capsuleConsensusScore(all, { coveredFiles: all, problems: [{ path: 'b' }, { path: 'b' }] })).toBe(0.75);
    // A file no check read is not counted as agreeing with the verifier.
    expect(capsuleConsensusScore(all, { coveredFiles: ['a', 'b'], problems: [] })).toBe(0.5);
    expect(capsuleConsensusScore(['a'], { coveredFiles: ['a'], problems: [] })).toBe(1);
    expect(capsuleConsensusScore([], { coveredFiles: [], problems: [] })).toBe(0);
  });
});

describe('recordCapsule', () => {
  it('records a run without enhancement: prompt, kept original, one refinement per stage and repair, completion', () => {
    const capsule = recordCapsule(input());
    expect(capsule.title).toBe('A recipe tracker');
    expect(capsule.description).toBe('Keeps recipes and shopping lists.');
    expect(capsule.originalPrompt).toBe(input().idea);
    expect(capsule.enhancedPrompt).toBeNull();
    expect(capsule.finalCode).toBe('// app.js\nconsole.log(1);\n\n// index.html\n<!doctype html>\n');
    expect(capsule.events.map((e) => e.eventType)).toEqual([
      'prompt_received',
      'enhancement_selected',
      'code_refined',
      'code_refined',
      'code_refined', // Checking's repair round
      'code_refined',
      'code_refined',
      'code_refined',
      'session_complete',
    ]);
    const refined = capsule.events.filter((e) => e.eventType === 'code_refined').map((e) => e.data.reason);
    expect(refined).toEqual([
      'Planning: Planned 2 files: index.html, app.js',
      'Building: Wrote 2 files (1.2 KB).',
      'Checking repair round 1: 1 file(s) changed. All 2 files passed the checks.',
      'Checking: after repair round 1: 1 file(s) changed. All 2 files passed the checks.',
      'Polishing: Polishing changed nothing.',
      'Proven Code: Proven Code: 2 files verified (syntax).',
    ]);
    for (const event of capsule.events) expect(capsuleEvent.safeParse({ id: 'x', ...event }).success).toBe(true);
    expect(capsule.events.at(-1)).toMatchObject({ timestamp: at(40).toISOString(), data: { enhanced: true, iteration: 5 } });
    expect(capsule.metrics).toEqual({
      totalDuration: 35_000,
      totalTokens: 1500,
      totalCost: 4.575,
      modelVotes: 'Engine 1, Engine 2',
      consensusScore: 1,
      outputLength: capsule.finalCode.length,
      verdict: 'passed',
    });
    expect(capsule.events.at(-1)!.data.reason).toBe('2 files generated; Proven Code passed: 2 files checked (syntax), the page loads without errors');
    expect(capsuleMetrics.safeParse(capsule.metrics).success).toBe(true);
  });

  it('never names an engine key, vendor or model', () => {
    const capsule = recordCapsule(input({ events: runEvents({ engine: () => 'alpha' }), usage: [{ engineKey: 'alpha', totalTokens: 1, costMillicents: 0 }] }));
    expect(JSON.stringify(capsule.events)).not.toMatch(/alpha/);
    expect(capsule.metrics.modelVotes).toBe('Engine 1');
  });

  it('records the enhancement it came from: one model_enhanced per step, then the selection', () => {
    const enhancement = {
      sourcePrompt: 'recipes',
      finalPrompt: 'A recipe tracker with shopping lists',
      createdAt: at(-10),
      steps: [
        { passNumber: 1, engineOrder: 1, engineKey: 'beta', durationMs: 3000, ok: true },
        { passNumber: 1, engineOrder: 2, engineKey: 'alpha', durationMs: 4000, ok: false },
        { passNumber: 2, engineOrder: 1, engineKey: 'beta', durationMs: 2000, ok: true },
      ],
    };
    const capsule = recordCapsule(input({ enhancement }));
    expect(capsule.originalPrompt).toBe('recipes');
    expect(capsule.enhancedPrompt).toBe('A recipe tracker with shopping lists');
    const head = capsule.events.slice(0, 5);
    expect(head.map((e) => e.eventType)).toEqual(['prompt_received', 'model_enhanced', 'model_enhanced', 'model_enhanced', 'enhancement_selected']);
    // Pass 1 took 4 s (its slowest engine), pass 2 2 s, ending when the enhancement was stored.
    expect(head[0]!.timestamp).toBe(at(-16).toISOString());
    expect(head.map((e) => e.data.model)).toEqual([undefined, 'Engine 1', 'Engine 2', 'Engine 1', undefined]);
    expect(head.slice(1, 4).map((e) => e.data.enhanced)).toEqual([true, false, true]);
    expect(head[4]!.data).toMatchObject({ enhanced: true, iteration: 2 });
    expect(capsule.metrics.totalDuration).toBe(6000 + 35_000);
    const times = capsule.events.map((e) => Date.parse(e.timestamp));
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });

  it('keeps the original prompt when the enhancement produced nothing usable', () => {
    const capsule = recordCapsule(input({ enhancement: { sourcePrompt: 'x', finalPrompt: '', createdAt: at(-1), steps: [] } }));
    expect(capsule.enhancedPrompt).toBeNull();
    expect(capsule.events.find((e) => e.eventType === 'enhancement_selected')!.data.enhanced).toBe(false);
  });

  it('reports a failed gate: the last refinement not ok, consensus from the verifier', () => {
    const capsule = recordCapsule(
      input({ events: runEvents({ gatePasses: false }), verification: { ...PASSED, verdict: 'failed', problems: [{ path: 'app.js' }] } }),
    );
    const refined = capsule.events.filter((e) => e.eventType === 'code_refined');
    expect(refined.at(-1)!.data).toMatchObject({ enhanced: false, reason: 'Proven Code: Proven Code gate failed:' });
    expect(capsule.events.at(-1)!.data).toMatchObject({ enhanced: false, reason: '2 files generated; Proven Code failed: problems left in 1 file' });
    expect(capsule.metrics).toMatchObject({ consensusScore: 0.5, verdict: 'failed' });
  });

  it('never calls unproven code proven: the record\'s own sentence, and no record means not proven', () => {
    const unproven = recordCapsule(
      input({ verification: { ...PASSED, verdict: 'unproven', proven: '2 files checked (syntax)', notProven: 'not executed: no sandbox on this server (bwrap not found)', coveredFiles: ['app.js'] } }),
    );
    expect(unproven.events.at(-1)!.data).toMatchObject({ enhanced: false, reason: '2 files generated; not proven: not executed: no sandbox on this server (bwrap not found)' });
    expect(unproven.metrics).toMatchObject({ verdict: 'unproven', consensusScore: 0.5 });
    expect(unproven.description).not.toMatch(/passed/);
    const none = recordCapsule(input({ verification: null }));
    expect(none.events.at(-1)!.data.reason).toBe('2 files generated; not proven: no verification record was kept for this session');
    expect(none.metrics).toMatchObject({ verdict: 'unproven', consensusScore: 0 });
    expect(capsuleProof(null).verdict).toBe('unproven');
  });

  it('says the no-sandbox reason once, whole, with the checks it stopped named after it', () => {
    // What a server without a sandbox keeps: every planned check skipped with the same sentence.
    const reason = 'not executed: no sandbox on this server (the sandbox is turned off (WOLFPACK_SANDBOX=off))';
    const skip = (check: 'install' | 'tests' | 'start' | 'page-load', files: string[]) => ({ check, runtime: 'node' as const, status: 'skipped' as const, files, reason, problems: [], durationMs: 0 });
    const record = buildVerificationRecord({
      version: 1,
      paths: ['package.json', 'server.js', 'index.html', 'app.js', 'README.md'],
      staticReport: {
        checked: [
          { path: 'package.json', checks: ['json', 'package-json'] },
          { path: 'server.js', checks: ['syntax', 'imports'] },
          { path: 'index.html', checks: ['html'] },
          { path: 'app.js', checks: ['syntax'] },
          { path: 'README.md', checks: [] },
        ],
        problems: [],
        passed: true,
      },
      execution: {
        executed: false,
        notExecutedReason: reason,
        runtimes: ['node', 'web'],
        checks: [skip('install', ['package.json']), skip('tests', []), skip('start', ['server.js']), skip('page-load', ['index.html']), skip('page-load', ['about.html'])],
        durationMs: 1,
      },
    });
    // The record's own sentence repeats the reason for every check; the capsule's line says it once, whole.
    expect(record.notProven.split(reason).length - 1).toBeGreaterThan(1);
    const files: Array<[string, string]> = [['package.json', '{}'], ['server.js', ''], ['index.html', ''], ['app.js', ''], ['README.md', '']];
    const capsule = recordCapsule(input({ files, verification: capsuleProof(record) }));
    const line = capsule.events.at(-1)!.data.reason;
    expect(line).toBe(`5 files generated; not proven: ${reason}, so install, tests, start and page-load did not run; 1 file not covered by any check (README.md)`);
    expect(line.split('no sandbox on this server')).toHaveLength(2);
    expect(line).not.toContain('…');
  });

  it('names other skipped checks with their own reasons, and keeps a long proven sentence whole', () => {
    const proof: CapsuleProof = {
      verdict: 'unproven',
      proven: '2 files checked (syntax)',
      notProven: 'ignored when the pieces are there',
      coveredFiles: ['app.js'],
      problems: [],
      skipped: [
        { check: 'install', reason: 'dependencies could not be installed' },
        { check: 'start', reason: 'dependencies could not be installed' },
        { check: 'tests' },
      ],
      uncoveredFiles: [],
    };
    expect(recordCapsule(input({ verification: proof })).events.at(-1)!.data.reason).toBe(
      '2 files generated; not proven: install and start skipped: dependencies could not be installed; tests skipped: no reason given',
    );
    const proven = `2 files checked (syntax), ${'the page loads without errors, '.repeat(12)}starts cleanly.`;
    const passed = recordCapsule(input({ verification: { ...PASSED, proven } })).events.at(-1)!.data.reason;
    expect(passed).toBe(`2 files generated; Proven Code passed: ${proven}`);
  });

  it('counts a stage redone after a resume once', () => {
    const events = runEvents();
    // The run was interrupted during Building, then resumed: Building starts again.
    const buildingStart = events.findIndex((e) => (e.data as { role?: string; ok?: boolean }).role === 'Building');
    events.splice(buildingStart + 1, 0, { data: { type: 'log', id: 'r', level: 'info', message: 'Resumed after an interruption' }, createdAt: at(2) }, events[buildingStart]!);
    const capsule = recordCapsule(input({ events }));
    expect(capsule.events.filter((e) => e.eventType === 'code_refined' && e.data.reason.startsWith('Building'))).toHaveLength(1);
  });
});
