/**
 * The live view of a build shows the steps of Checking and Proven Code as they run (tmux): while
 * the project's slow test runs (it sleeps on purpose), 'Running the tests…' carries an elapsed time
 * that the CLI counts on by itself, past 3 s; once the step ends, its end line says how long it
 * took and nothing counts on. The project (core's stepped fixture) is built by a local
 * OpenAI-compatible fake and proven in the sandbox, its one dependency from a fake npm registry.
 */
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChatMessage } from '@wolfpack/core';
import { startFakeOpenAIServer, type OpenAIFakeServer } from '@wolfpack/core/engines/testing';
import { needTool, sandboxCheck, startFakeNpmRegistry, STEPPED_PACKAGES, steppedProject, steppedReply, type FakeNpmRegistry } from '@wolfpack/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, hasTmux, signedInHome, startTestServer, tmuxServer, type SignedInHome, type TestServer } from './testing/cli-harness.js';

const sandboxed = needTool(await sandboxCheck(), "the live view's step lines (a project run in the sandbox)");
const tmux = needTool({ tool: 'tmux', available: hasTmux() }, "the live view's step lines");

/** The project's test sleeps this long: a step slow by construction. */
const TEST_MS = 8000;
const RUNNING = /Running the tests… (\d+) s/;

let engine: OpenAIFakeServer;
let registry: FakeNpmRegistry;
let cacheDir: string;
let server: TestServer;
let user: SignedInHome;

describe.skipIf(!sandboxed || !tmux)('the steps of Checking and Proven Code in the live view', () => {
  beforeAll(async () => {
    const files = steppedProject(TEST_MS);
    registry = await startFakeNpmRegistry(STEPPED_PACKAGES);
    cacheDir = await mkdtemp(join(tmpdir(), 'wolfpack-cli-steps-'));
    await chmod(cacheDir, 0o755); // the sandbox user reads the installed packages
    engine = await startFakeOpenAIServer({ fallback: (request) => ({ kind: 'stream', deltas: [steppedReply(files, (request.body as { messages: ChatMessage[] }).messages)] }) });
    const engines = JSON.stringify([{ key: 'alpha', provider: 'openai', model: 'gpt-test', baseURL: engine.baseURL, apiKey: 'sk-test', pricePer1kTokensCents: 0 }]);
    server = await startTestServer({
      env: {
        WOLFPACK_SANDBOX: 'on',
        // The sleeping test, the start and the machine's other suites: more than the default 20 s may be needed.
        WOLFPACK_PROOF_TIME_LIMIT_MS: '60000',
        // One command (the sleeping test) gets as long: a loaded machine runs it past the default 15 s.
        WOLFPACK_PROOF_COMMAND_TIME_LIMIT_MS: '60000',
        WOLFPACK_ENGINES: engines,
        npm_config_registry: registry.url,
        WOLFPACK_PROOF_CACHE_DIR: cacheDir,
      },
    });
    user = await signedInHome(server.url, 'step-watcher');
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await engine?.close();
    await registry?.close();
    await user?.dispose();
    if (cacheDir) await rm(cacheDir, { recursive: true, force: true });
  });

  it("shows the running step's time counting on, then its end line with the time it took", async () => {
    const term = tmuxServer('wolfpack-build-steps');
    try {
      const env = Object.entries(user.env).map(([key, value]) => `${key}='${value}'`).join(' ');
      term.start('steps', `env -u CI ${env} '${process.execPath}' '${BIN}' build 'A greeter'; echo "EXIT=$?"; sleep 600`);
      const seconds = (screen: string) => Number(RUNNING.exec(screen)?.[1] ?? -1);
      // Past 3 s, and counting on after that (the server sends no ticks).
      const past3 = await term.waitFor('steps', /Running the tests… ([3-9]|\d{2,}) s/, 90_000);
      expect(past3).toMatch(/Installed 1 dependency( from the cache)? in \d+\.\d s/);
      const shown = seconds(past3);
      const later = await term.waitFor('steps', new RegExp(`Running the tests… (${shown + 1}|${shown + 2}|${shown + 3}) s`), 5000);
      expect(seconds(later)).toBeGreaterThan(shown);

      // The step ends: in the same frame its end line says how long it took, and nothing counts on.
      const ended = await term.waitFor('steps', /1 test passed in \d+\.\d s/, 60_000);
      expect(Number(/1 test passed in (\d+\.\d) s/.exec(ended)![1])).toBeGreaterThanOrEqual(TEST_MS / 1000);
      expect(ended).toContain('Running the tests…');
      expect(ended).not.toMatch(RUNNING);
      const done = await term.waitFor('steps', /EXIT=\d+/, 120_000);
      expect(done).toContain('EXIT=0');
      expect(done).not.toMatch(RUNNING);
    } finally {
      term.close();
    }
  }, 240_000);
});
