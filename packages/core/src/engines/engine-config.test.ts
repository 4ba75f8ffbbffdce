import { describe, expect, it } from 'vitest';
import { publicEngineInfo } from './engine.js';
import { createEngine, EngineConfigError, loadEngineConfigs, loadEngineOptions } from './engine-config.js';

function configError(env: Record<string, string>): EngineConfigError {
  try {
    loadEngineConfigs(env);
  } catch (error) {
    expect(error).toBeInstanceOf(EngineConfigError);
    return error as EngineConfigError;
  }
  throw new Error('expected a configuration error');
}

const engines = (list: unknown) => ({ WOLFPACK_ENGINES: JSON.stringify(list) });

describe('loadEngineConfigs: WOLFPACK_ENGINES', () => {
  it('reads a list with defaults and keys from the environment', () => {
    const configs = loadEngineConfigs({
      ...engines([
        { key: 'alpha', provider: 'openai', model: 'gpt-4o-mini', apiKeyEnv: 'MY_KEY', pricePer1kTokensCents: 0.05, supportsImages: true },
        { key: 'local-1', provider: 'openai', model: 'qwen2.5-coder:7b', baseURL: 'http://127.0.0.1:11434/v1', contextTokens: 32768 },
        { key: 'beta', provider: 'anthropic', model: 'claude-sonnet-4-5', apiKey: 'sk-ant-x' },
      ]),
      MY_KEY: 'sk-from-env',
    });
    expect(configs).toEqual([
      {
        key: 'alpha',
        provider: 'openai',
        model: 'gpt-4o-mini',
        baseURL: undefined,
        apiKey: 'sk-from-env',
        pricePer1kTokensCents: 0.05,
        supportsImages: true,
        contextTokens: 8192,
      },
      {
        key: 'local-1',
        provider: 'openai',
        model: 'qwen2.5-coder:7b',
        baseURL: 'http://127.0.0.1:11434/v1',
        apiKey: undefined,
        pricePer1kTokensCents: 305,
        supportsImages: false,
        contextTokens: 32768,
      },
      {
        key: 'beta',
        provider: 'anthropic',
        model: 'claude-sonnet-4-5',
        baseURL: undefined,
        apiKey: 'sk-ant-x',
        pricePer1kTokensCents: 305,
        supportsImages: false,
        contextTokens: 8192,
      },
    ]);
  });

  it('names the bad field', () => {
    const error = configError(
      engines([
        { key: 'alpha', provider: 'openai', model: 'm', apiKey: 'k' },
        { key: 'beta', provider: 'mistral', model: 'm', apiKey: 'k' },
      ]),
    );
    expect(error.message).toBe('WOLFPACK_ENGINES[1].provider must be openai or anthropic');
    expect(error.issues).toEqual([{ path: 'WOLFPACK_ENGINES[1].provider', message: 'must be openai or anthropic' }]);
  });

  it('reports every problem at once', () => {
    const error = configError(engines([{ key: 'Alpha One', provider: 'openai', baseURL: 'ftp://x', contextTokens: 1.5, extra: 1 }]));
    const paths = error.issues.map((issue) => issue.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        'WOLFPACK_ENGINES[0].key',
        'WOLFPACK_ENGINES[0].model',
        'WOLFPACK_ENGINES[0].baseURL',
        'WOLFPACK_ENGINES[0].contextTokens',
        'WOLFPACK_ENGINES[0]',
      ]),
    );
    expect(error.message).toContain('WOLFPACK_ENGINES[0].model is required');
    expect(error.message).toContain('has unknown field(s): extra');
  });

  it('keeps vendor and model names out of public keys', () => {
    const error = configError(engines([{ key: 'gpt4', provider: 'openai', model: 'gpt-4o', apiKey: 'k' }]));
    expect(error.issues[0]?.path).toBe('WOLFPACK_ENGINES[0].key');
    expect(error.message).toContain('must be a generic name');
  });

  it('rejects duplicate keys, missing keys and unset key variables', () => {
    const error = configError({
      ...engines([
        { key: 'alpha', provider: 'openai', model: 'm', apiKey: 'k' },
        { key: 'alpha', provider: 'anthropic', model: 'm', apiKeyEnv: 'NOT_SET' },
        { key: 'gamma', provider: 'anthropic', model: 'm' },
      ]),
    });
    expect(error.issues).toEqual([
      { path: 'WOLFPACK_ENGINES[1].key', message: '"alpha" is used twice; keys must be unique' },
      { path: 'WOLFPACK_ENGINES[1].apiKeyEnv', message: 'names NOT_SET, which is not set' },
      { path: 'WOLFPACK_ENGINES[2]', message: 'needs apiKey or apiKeyEnv (only a custom baseURL may go without a key)' },
    ]);
  });

  it('never repeats a key in its errors', () => {
    const secret = 'sk-very-secret-value-123';
    const error = configError({ WOLFPACK_ENGINES: `[{"key":"alpha","provider":"openai","apiKey":"${secret}",}]` });
    expect(error.message).toBe('WOLFPACK_ENGINES is not valid JSON');
    const typed = configError(engines([{ key: 'alpha', provider: 'nope', model: 'm', apiKey: secret }]));
    expect(typed.message).not.toContain(secret);
  });

  it('wants a list', () => {
    expect(configError(engines({ key: 'alpha' })).message).toBe('WOLFPACK_ENGINES must be a JSON list of engines');
  });
});

describe('loadEngineConfigs: shortcuts', () => {
  it('is empty when nothing is configured (the server then uses demo engines)', () => {
    expect(loadEngineConfigs({})).toEqual([]);
  });

  it('gives OPENAI_API_KEY and ANTHROPIC_API_KEY generic keys', () => {
    const configs = loadEngineConfigs({ OPENAI_API_KEY: 'sk-a', ANTHROPIC_API_KEY: 'sk-ant-b', ANTHROPIC_MODEL: 'claude-haiku-4-5' });
    expect(configs.map(({ key, provider, model, supportsImages }) => ({ key, provider, model, supportsImages }))).toEqual([
      { key: 'alpha', provider: 'openai', model: 'gpt-4o-mini', supportsImages: true },
      { key: 'beta', provider: 'anthropic', model: 'claude-haiku-4-5', supportsImages: true },
    ]);
  });

  it('treats OPENAI_BASE_URL as a compatible server that may not read images', () => {
    const [config] = loadEngineConfigs({ OPENAI_API_KEY: 'x', OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1', OPENAI_MODEL: 'llama3.2' });
    expect(config).toMatchObject({ key: 'alpha', model: 'llama3.2', baseURL: 'http://127.0.0.1:11434/v1', supportsImages: false });
  });

  it('is overridden completely by WOLFPACK_ENGINES', () => {
    const configs = loadEngineConfigs({ OPENAI_API_KEY: 'x', ...engines([{ key: 'solo', provider: 'anthropic', model: 'm', apiKey: 'k' }]) });
    expect(configs.map((c) => c.key)).toEqual(['solo']);
  });
});

describe('createEngine and publicEngineInfo', () => {
  it('dispatches on provider and shows clients only key and image support', () => {
    const [openai, anthropic] = loadEngineConfigs({ OPENAI_API_KEY: 'sk-a', ANTHROPIC_API_KEY: 'sk-ant-b' }).map((c) => createEngine(c));
    expect(openai).toMatchObject({ key: 'alpha', provider: 'openai', model: 'gpt-4o-mini', contextTokens: 128_000 });
    expect(anthropic).toMatchObject({ key: 'beta', provider: 'anthropic', model: 'claude-sonnet-4-5' });
    expect(publicEngineInfo(anthropic!)).toEqual({ key: 'beta', supportsImages: true });
    expect(JSON.stringify(publicEngineInfo(openai!))).not.toMatch(/openai|gpt|sk-/);
  });
});

describe('loadEngineOptions: WOLFPACK_ENGINE_*', () => {
  it('reads retries and timeouts, leaving unset ones to the defaults', () => {
    expect(loadEngineOptions({})).toEqual({});
    expect(
      loadEngineOptions({
        WOLFPACK_ENGINE_MAX_RETRIES: '0',
        WOLFPACK_ENGINE_RETRY_BASE_DELAY_MS: '250',
        WOLFPACK_ENGINE_FIRST_CHUNK_TIMEOUT_MS: ' 300000 ',
        WOLFPACK_ENGINE_STALL_TIMEOUT_MS: '90000',
        WOLFPACK_ENGINE_CALL_TIMEOUT_MS: '600000',
      }),
    ).toEqual({ maxRetries: 0, retryBaseDelayMs: 250, firstChunkTimeoutMs: 300_000, stallTimeoutMs: 90_000, callTimeoutMs: 600_000 });
  });

  it('names every variable that is not a whole number in range', () => {
    let caught: unknown;
    try {
      loadEngineOptions({ WOLFPACK_ENGINE_MAX_RETRIES: '-1', WOLFPACK_ENGINE_STALL_TIMEOUT_MS: '1.5', WOLFPACK_ENGINE_CALL_TIMEOUT_MS: '50', WOLFPACK_ENGINE_FIRST_CHUNK_TIMEOUT_MS: '2m' });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(EngineConfigError);
    expect((caught as EngineConfigError).issues).toEqual([
      { path: 'WOLFPACK_ENGINE_MAX_RETRIES', message: 'must be a whole number of at least 0' },
      { path: 'WOLFPACK_ENGINE_FIRST_CHUNK_TIMEOUT_MS', message: 'must be a whole number of at least 100 (milliseconds)' },
      { path: 'WOLFPACK_ENGINE_STALL_TIMEOUT_MS', message: 'must be a whole number of at least 100 (milliseconds)' },
      { path: 'WOLFPACK_ENGINE_CALL_TIMEOUT_MS', message: 'must be a whole number of at least 100 (milliseconds)' },
    ]);
  });
});
