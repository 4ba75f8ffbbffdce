import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './env.js';

const limits = (env: Record<string, string>) => loadConfig({}, env).limits;

describe('loadConfig', () => {
  it('gives every default from an empty environment, and counts an empty variable as unset', () => {
    const config = loadConfig({}, {});
    expect(config).toMatchObject({ port: 3000, host: '127.0.0.1', databaseUrl: undefined, trustProxy: false, proofEnv: {} });
    expect(config.engines).toEqual({ configs: [], options: {}, demoDelayMs: 0 });
    expect(loadConfig({}, { PORT: '', WOLFPACK_SANDBOX: '' })).toMatchObject({ port: 3000, proofEnv: {} });
  });

  it('names every variable that is wrong, and what it takes, without repeating the values', () => {
    const wrong = { PORT: 'http', WOLFPACK_TRUST_PROXY: 'maybe', WOLFPACK_SECRET_KEY: 'short-secret', WOLFPACK_SANDBOX: 'disabled' };
    expect(() => loadConfig({}, wrong)).toThrow(
      'Invalid configuration: PORT: PORT must be a whole number from 0 to 65535; WOLFPACK_TRUST_PROXY: WOLFPACK_TRUST_PROXY must be 1, true or yes (on), or 0, false or no (off); ' +
        'WOLFPACK_SANDBOX: WOLFPACK_SANDBOX must be on, or off to run no generated code; WOLFPACK_SECRET_KEY: WOLFPACK_SECRET_KEY must be at least 32 characters',
    );
    expect(() => loadConfig({}, { WOLFPACK_SECRET_KEY: 'short-secret' })).not.toThrow(/short-secret/);
  });

  it('reads the engines at start, so a wrong WOLFPACK_ENGINES or engine timeout stops it', () => {
    const engines = JSON.stringify([{ key: 'house', provider: 'openai', model: 'm', baseURL: 'http://127.0.0.1:9/v1', apiKeyEnv: 'HOUSE_KEY' }]);
    const config = loadConfig({}, { WOLFPACK_ENGINES: engines, HOUSE_KEY: 'k', WOLFPACK_ENGINE_CALL_TIMEOUT_MS: '5000', WOLFPACK_DEMO_DELAY_MS: '20' });
    expect(config.engines).toMatchObject({ configs: [{ key: 'house', apiKey: 'k' }], options: { callTimeoutMs: 5000 }, demoDelayMs: 20 });
    expect(() => loadConfig({}, { WOLFPACK_ENGINES: '[{' })).toThrow('Invalid configuration: WOLFPACK_ENGINES is not valid JSON');
    expect(() => loadConfig({}, { WOLFPACK_ENGINES: engines })).toThrow(/WOLFPACK_ENGINES\[0\]\.apiKeyEnv names HOUSE_KEY, which is not set/);
    expect(() => loadConfig({}, { WOLFPACK_ENGINE_STALL_TIMEOUT_MS: '10' })).toThrow(/WOLFPACK_ENGINE_STALL_TIMEOUT_MS must be a whole number of at least 100/);
  });

  it("hands Proven Code its settings, the PATH and npm's network variables, and nothing else of the environment", () => {
    const handed = {
      WOLFPACK_SANDBOX: 'off',
      WOLFPACK_PROOF_MEMORY_BYTES: '268435456',
      WOLFPACK_PREVIEW_START_MS: '9000',
      PATH: '/opt/tools/bin:/usr/bin',
      HTTPS_PROXY: 'http://proxy:3128',
      npm_config_registry: 'http://127.0.0.1:4873/',
    };
    const config = loadConfig({}, { ...handed, STRIPE_SECRET_KEY: 'sk_test_never_to_the_sandbox', WOLFPACK_PREVIEW_HOST: 'preview.example.net', WOLFPACK_PROOF_CONCURRENCY: '2' });
    expect(config.proofEnv).toEqual(handed);
    expect(Object.isFrozen(config.proofEnv)).toBe(true);
  });
});

describe('WOLFPACK_PREVIEW_HOST', () => {
  it('takes a domain of two labels or more, with a port, lower-cased', () => {
    expect(loadConfig({}, { WOLFPACK_PREVIEW_HOST: 'Preview.Example.net' }).previewHost).toBe('preview.example.net');
    expect(loadConfig({}, { WOLFPACK_PREVIEW_HOST: 'preview.example.net:8443' }).previewHost).toBe('preview.example.net:8443');
    expect(loadConfig({}, {}).previewHost).toBeUndefined();
  });

  it('refuses what is not such a name, saying what to set', () => {
    for (const value of ['localhost', 'https://preview.example.net', 'preview.example.net/x', '*.preview.example.net', 'p review.example.net']) {
      expect(() => loadConfig({}, { WOLFPACK_PREVIEW_HOST: value }), value).toThrow(/WOLFPACK_PREVIEW_HOST must be a domain name with at least two labels/);
    }
  });
});

describe('limits', () => {
  it('counts capsule views and shares per UTC day unless the operator sets another period', () => {
    expect(limits({}).capsuleCountHours).toBe(24);
    expect(limits({ WOLFPACK_CAPSULE_COUNT_HOURS: '6' }).capsuleCountHours).toBe(6);
  });

  it('refuses a period that is not a whole number of hours from 1 to 8760, naming the variable', () => {
    for (const value of ['0', '1.5', 'day', '8761']) {
      expect(() => limits({ WOLFPACK_CAPSULE_COUNT_HOURS: value })).toThrow('WOLFPACK_CAPSULE_COUNT_HOURS must be a whole number of hours from 1 to 8760');
    }
  });

  it('stops previewed servers after 5 idle minutes, 3 at once and 2 builds at once unless the operator says otherwise', () => {
    expect(limits({})).toMatchObject({ previewIdleMs: 300_000, previewServers: 3, previewBuilds: 2 });
    expect(limits({ WOLFPACK_PREVIEW_IDLE_MINUTES: '0.5', WOLFPACK_PREVIEW_SERVERS: '8', WOLFPACK_PREVIEW_BUILDS: '1' })).toMatchObject({
      previewIdleMs: 30_000,
      previewServers: 8,
      previewBuilds: 1,
    });
  });

  it('runs Proven Code on half the CPUs at once (at least one) unless the operator says how many', () => {
    expect(limits({}).proofConcurrency).toBe(Math.max(1, Math.floor(availableParallelism() / 2)));
    expect(limits({ WOLFPACK_PROOF_CONCURRENCY: '4' }).proofConcurrency).toBe(4);
    for (const value of ['0', '1.5', 'many']) expect(() => limits({ WOLFPACK_PROOF_CONCURRENCY: value })).toThrow(/WOLFPACK_PROOF_CONCURRENCY/);
  });

  it('gives each user 2 sandboxes running or waiting and 2 preview servers unless the operator says how many', () => {
    expect(limits({})).toMatchObject({ sandboxesPerUser: 2, previewServersPerUser: 2 });
    expect(limits({ WOLFPACK_SANDBOXES_PER_USER: '5', WOLFPACK_PREVIEW_SERVERS_PER_USER: '1' })).toMatchObject({ sandboxesPerUser: 5, previewServersPerUser: 1 });
    for (const name of ['WOLFPACK_SANDBOXES_PER_USER', 'WOLFPACK_PREVIEW_SERVERS_PER_USER']) {
      for (const value of ['0', '1.5', 'few']) expect(() => limits({ [name]: value })).toThrow(new RegExp(name));
    }
  });

  it('keeps Proven Code’s thread 60 s after its last project unless the operator sets another time or 0 (no thread)', () => {
    expect(limits({}).proofThreadIdleMs).toBe(60_000);
    expect(limits({ WOLFPACK_PROOF_THREAD_IDLE_SECONDS: '0.5' }).proofThreadIdleMs).toBe(500);
    expect(limits({ WOLFPACK_PROOF_THREAD_IDLE_SECONDS: '0' }).proofThreadIdleMs).toBeUndefined();
    for (const value of ['-1', 'never']) expect(() => limits({ WOLFPACK_PROOF_THREAD_IDLE_SECONDS: value })).toThrow(/WOLFPACK_PROOF_THREAD_IDLE_SECONDS/);
  });

  it('refuses sandbox and preview settings that would silently mean something else, naming the variable', () => {
    for (const [name, value] of [
      ['WOLFPACK_PREVIEW_IDLE_MINUTES', '0'],
      ['WOLFPACK_PREVIEW_IDLE_MINUTES', 'ten'],
      ['WOLFPACK_PREVIEW_SERVERS', '0'],
      ['WOLFPACK_PREVIEW_SERVERS', '2.5'],
      ['WOLFPACK_PREVIEW_BUILDS', '-1'],
      ['WOLFPACK_PREVIEW_CPU_PERCENT', 'half'],
      ['WOLFPACK_PREVIEW_CPU_WINDOW_SECONDS', '0'],
      ['WOLFPACK_PREVIEW_START_MS', '30s'],
      ['WOLFPACK_PROOF_SANDBOX_MEMORY_BYTES', '1G'],
      ['WOLFPACK_PROOF_SANDBOX_MEMORY_BYTES', '1024'],
      ['WOLFPACK_PROOF_SANDBOX_PROCESSES', '4'],
      ['WOLFPACK_PROOF_SANDBOX_CPU_PERCENT', '0'],
      ['WOLFPACK_PROOF_MEMORY_BYTES', '512M'],
      ['WOLFPACK_PROOF_TIME_LIMIT_MS', '-5'],
      ['WOLFPACK_PROOF_CGROUP', 'v1'],
    ] as const) {
      expect(() => limits({ [name]: value }), `${name}=${value}`).toThrow(new RegExp(`${name}: ${name} must be`));
    }
  });
});
