/**
 * A build whose engines write no file ends 'failed' at Building: the CLI shows Planning complete,
 * Building failed with its words and the three stages after it "Not run", in plain lines, in the
 * `--json` lines and in the live view (tmux), never five green checks and 100 %. The engine is a
 * local OpenAI-compatible fake that plans like the demo engines and then answers without any file.
 */
import { type ChatMessage } from '@wolfpack/core';
import { demoReply } from '@wolfpack/core/demo';
import { startFakeOpenAIServer, type OpenAIFakeServer } from '@wolfpack/core/engines/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, hasTmux, signedInHome, startTestServer, tmuxServer, type SignedInHome, type TestServer } from './testing/cli-harness.js';

let engine: OpenAIFakeServer;
let server: TestServer;
let user: SignedInHome;

const EXPECTED = [
  { role: 'Planning', status: 'complete', label: 'Complete' },
  { role: 'Building', status: 'failed', label: 'Failed: the engines produced no files', reason: 'the engines produced no files' },
  { role: 'Checking', status: 'not-run', label: 'Not run' },
  { role: 'Polishing', status: 'not-run', label: 'Not run' },
  { role: 'Proven Code', status: 'not-run', label: 'Not run' },
];

beforeAll(async () => {
  engine = await startFakeOpenAIServer({
    fallback: (request) => {
      const messages = (request.body as { messages: ChatMessage[] }).messages;
      const planning = String(messages.find((m) => m.role === 'system')?.content ?? '').startsWith('You are the Planning engine');
      return { kind: 'stream', deltas: [planning ? demoReply(messages) : 'Sorry, I cannot write that project.'] };
    },
  });
  const engines = JSON.stringify([{ key: 'alpha', provider: 'openai', model: 'gpt-test', baseURL: engine.baseURL, apiKey: 'sk-test', pricePer1kTokensCents: 0 }]);
  server = await startTestServer({ env: { WOLFPACK_ENGINES: engines } });
  user = await signedInHome(server.url, 'empty-builder');
}, 120_000);

afterAll(async () => {
  await server?.close();
  await engine?.close();
  await user?.dispose();
});

describe('a build whose engines write no file', () => {
  it('--json: Building failed with its reason, no later stage ran, and the last line lists each stage', async () => {
    const result = await user.run(['build', 'a recipe box', '--json']);
    expect(result.code, result.stderr).toBe(1);
    const lines = result.stdout.trimEnd().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    const stages = lines.filter((line) => line['type'] === 'stage').map((line) => `${String(line['role'])}:${String(line['ok'])}`);
    expect(stages).toEqual(['Planning:false', 'Planning:true', 'Building:false', 'Building:false']);
    expect(lines.filter((line) => line['type'] === 'stage').at(-1)).toMatchObject({ reason: 'the engines produced no files', progress: { current: 2, percent: 40 } });
    const last = lines.at(-1)!;
    expect(last).toMatchObject({ type: 'error', error: expect.stringMatching(/^The engines produced no files/) as unknown });
    expect(last['stages']).toEqual(EXPECTED);
    expect(result.stdout).not.toContain('No problems');
  });

  it('plain lines: Building failed with its words, then each stage as it ended', async () => {
    const result = await user.run(['build', 'a recipe box']);
    expect(result.code, result.stderr).toBe(1);
    expect(result.stdout).toContain('[stage] Planning done in');
    expect(result.stdout).toMatch(/\[stage\] Building failed: the engines produced no files in [\d.]+s \(engine alpha\), 40% of the run/);
    expect(result.stdout).toContain(
      '[stages] Planning: Complete; Building: Failed: the engines produced no files; Checking: Not run; Polishing: Not run; Proven Code: Not run',
    );
    expect(result.stdout).not.toMatch(/Checking (started|done)/);
    expect(result.stderr).toContain('The engines produced no files for this idea.');
  });

  it('the live view: a red ✘ with the words on Building, "Not run" below it, the bar at 40 % and stage 2 of 5', async () => {
    if (!hasTmux()) return;
    const term = tmuxServer('wolfpack-build-failed');
    try {
      const env = Object.entries(user.env).map(([key, value]) => `${key}='${value}'`).join(' ');
      term.start('failed', `env -u CI ${env} '${process.execPath}' '${BIN}' build 'a recipe box'; echo "EXIT=$?"; sleep 600`);
      const screen = await term.waitFor('failed', /EXIT=\d+/, 60_000);
      expect(screen).toMatch(/✔ Planning/);
      expect(screen).toMatch(/✘ Building\s+Failed: the engines produced no files/);
      for (const stage of ['Checking', 'Polishing', 'Proven Code']) expect(screen).toMatch(new RegExp(`– ${stage}\\s+Not run`));
      expect(screen).toMatch(/[█░]{30}\s+40%\s+stage 2 of 5\s+elapsed \d+:\d\d\s+ETA —/);
      expect(screen).not.toContain('100%');
      expect(screen).toContain('EXIT=1');
    } finally {
      term.close();
    }
  }, 90_000);
});
