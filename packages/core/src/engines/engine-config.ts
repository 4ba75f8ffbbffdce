/**
 * Engine configuration from the environment. `WOLFPACK_ENGINES` (a JSON list) says everything;
 * without it, `OPENAI_API_KEY` / `ANTHROPIC_API_KEY` give one engine each, so a first run needs
 * one variable. Keys are public names shown to users, so they are generic (alpha, beta…), never
 * a vendor's.
 */
import { z } from 'zod';
import { DEFAULT_PRICE_PER_1K_TOKENS_CENTS } from '../billing/money.js';
import { createAnthropicEngine } from './anthropic-engine.js';
import type { Engine, EngineProvider } from './engine.js';
import { createOpenAIEngine } from './openai-engine.js';
import type { ResilienceOptions } from './resilience.js';
import { DEFAULT_CONTEXT_TOKENS, type EngineAdapterConfig, type EngineOptions } from './engine-adapter-config.js';

export interface EngineConfig extends EngineAdapterConfig {
  provider: EngineProvider;
  supportsImages: boolean;
  contextTokens: number;
  pricePer1kTokensCents: number;
}

/** A configuration problem at startup; `issues` name each bad field. Never contains a key. */
export class EngineConfigError extends Error {
  override readonly name = 'EngineConfigError';
  constructor(readonly issues: Array<{ path: string; message: string }>) {
    super(issues.map((issue) => `${issue.path} ${issue.message}`).join('; '));
  }
}

/** Words that would leak a vendor or model through a public engine key. */
const VENDOR_WORDS = /openai|anthropic|claude|gpt|gemini|llama|mistral|deepseek|qwen|groq|ollama|openrouter|grok/;

const entrySchema = z
  .object({
    key: z
      .string({ error: 'is required (a generic public name like "alpha")' })
      .regex(/^[a-z0-9][a-z0-9-]{0,39}$/, {
        error: 'must be 1–40 lowercase letters, digits or hyphens, starting with a letter or digit',
      })
      .refine((key) => !VENDOR_WORDS.test(key), {
        error: 'must be a generic name (like "alpha"): keys are shown to users, so they must not name a vendor or model',
      }),
    provider: z.enum(['openai', 'anthropic'], { error: 'must be openai or anthropic' }),
    model: z.string({ error: 'is required' }).min(1, { error: 'must not be empty' }),
    baseURL: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional(),
    apiKey: z.string({ error: 'must be a string' }).min(1, { error: 'must not be empty' }).optional(),
    apiKeyEnv: z
      .string({ error: 'must be a string' })
      .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, { error: 'must be the name of an environment variable' })
      .optional(),
    pricePer1kTokensCents: z.number({ error: 'must be a number' }).min(0, { error: 'must be 0 or more' }).optional(),
    costPer1kTokensCents: z.number({ error: 'must be a number' }).min(0, { error: 'must be 0 or more' }).optional(),
    supportsImages: z.boolean({ error: 'must be true or false' }).optional(),
    contextTokens: z.number({ error: 'must be a number' }).int({ error: 'must be a whole number' }).min(256, { error: 'must be at least 256' }).optional(),
  })
  .strict();

const listSchema = z.array(entrySchema, { error: 'must be a JSON list of engines' });

type Env = Record<string, string | undefined>;

function pathOf(path: ReadonlyArray<PropertyKey>): string {
  return path.reduce<string>(
    (out, part) => (typeof part === 'number' ? `${out}[${part}]` : `${out}.${String(part)}`),
    'WOLFPACK_ENGINES',
  );
}

function parseEnginesJson(raw: string, env: Env): EngineConfig[] {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    // The parser's message may quote the text, which can hold a key: keep it out.
    throw new EngineConfigError([{ path: 'WOLFPACK_ENGINES', message: 'is not valid JSON' }]);
  }
  const parsed = listSchema.safeParse(json);
  if (!parsed.success) {
    throw new EngineConfigError(
      parsed.error.issues.map((issue) => ({
        path: pathOf(issue.path),
        // zod's own texts for unknown keys are fine, the rest are ours; never echo input values.
        message: issue.code === 'unrecognized_keys' ? `has unknown field(s): ${issue.keys.join(', ')}` : issue.message,
      })),
    );
  }

  const issues: Array<{ path: string; message: string }> = [];
  const seen = new Set<string>();
  const configs = parsed.data.map((entry, index): EngineConfig => {
    const at = `WOLFPACK_ENGINES[${index}]`;
    if (seen.has(entry.key)) issues.push({ path: `${at}.key`, message: `"${entry.key}" is used twice; keys must be unique` });
    seen.add(entry.key);
    if (entry.apiKey !== undefined && entry.apiKeyEnv !== undefined) {
      issues.push({ path: at, message: 'has both apiKey and apiKeyEnv; give one' });
    }
    let apiKey = entry.apiKey;
    if (entry.apiKeyEnv !== undefined) {
      apiKey = env[entry.apiKeyEnv] || undefined;
      if (apiKey === undefined) {
        issues.push({ path: `${at}.apiKeyEnv`, message: `names ${entry.apiKeyEnv}, which is not set` });
      }
    } else if (apiKey === undefined && entry.baseURL === undefined) {
      // A provider's public API always needs a key; a self-hosted endpoint may not.
      issues.push({ path: at, message: `needs apiKey or apiKeyEnv (only a custom baseURL may go without a key)` });
    }
    return {
      key: entry.key,
      provider: entry.provider,
      model: entry.model,
      baseURL: entry.baseURL,
      apiKey,
      pricePer1kTokensCents: entry.pricePer1kTokensCents ?? DEFAULT_PRICE_PER_1K_TOKENS_CENTS,
      // Left out when not given: whoever reads it falls back to the price (see the field's @default).
      ...(entry.costPer1kTokensCents !== undefined ? { costPer1kTokensCents: entry.costPer1kTokensCents } : {}),
      supportsImages: entry.supportsImages ?? false,
      contextTokens: entry.contextTokens ?? DEFAULT_CONTEXT_TOKENS,
    };
  });
  if (issues.length > 0) throw new EngineConfigError(issues);
  return configs;
}

function shortcutConfigs(env: Env): EngineConfig[] {
  const configs: EngineConfig[] = [];
  const openaiKey = env['OPENAI_API_KEY']?.trim();
  if (openaiKey) {
    const baseURL = env['OPENAI_BASE_URL']?.trim() || undefined;
    if (baseURL !== undefined && !z.url({ protocol: /^https?$/ }).safeParse(baseURL).success) {
      throw new EngineConfigError([{ path: 'OPENAI_BASE_URL', message: 'must be an http(s) URL' }]);
    }
    configs.push({
      key: 'alpha',
      provider: 'openai',
      model: env['OPENAI_MODEL']?.trim() || 'gpt-4o-mini',
      baseURL,
      apiKey: openaiKey,
      // Users pay the spec's price unless WOLFPACK_ENGINES sets one per engine.
      pricePer1kTokensCents: DEFAULT_PRICE_PER_1K_TOKENS_CENTS,
      // The default model reads images; an unknown compatible endpoint is assumed not to.
      supportsImages: baseURL === undefined,
      contextTokens: baseURL === undefined ? 128_000 : DEFAULT_CONTEXT_TOKENS,
    });
  }
  const anthropicKey = env['ANTHROPIC_API_KEY']?.trim();
  if (anthropicKey) {
    configs.push({
      key: 'beta',
      provider: 'anthropic',
      model: env['ANTHROPIC_MODEL']?.trim() || 'claude-sonnet-4-5',
      apiKey: anthropicKey,
      pricePer1kTokensCents: DEFAULT_PRICE_PER_1K_TOKENS_CENTS,
      supportsImages: true,
      contextTokens: 200_000,
    });
  }
  return configs;
}

/**
 * Engines configured in `env`. An empty list means none: the server then uses demo engines.
 * Throws EngineConfigError naming the bad field ("WOLFPACK_ENGINES[1].provider must be openai or
 * anthropic").
 */
export function loadEngineConfigs(env: Env): EngineConfig[] {
  const raw = env['WOLFPACK_ENGINES']?.trim();
  if (raw) return parseEnginesJson(raw, env);
  return shortcutConfigs(env);
}

/** The environment variables that tune every engine's retries and timeouts, by option. */
export const ENGINE_OPTION_VARIABLES = {
  maxRetries: 'WOLFPACK_ENGINE_MAX_RETRIES',
  retryBaseDelayMs: 'WOLFPACK_ENGINE_RETRY_BASE_DELAY_MS',
  firstChunkTimeoutMs: 'WOLFPACK_ENGINE_FIRST_CHUNK_TIMEOUT_MS',
  stallTimeoutMs: 'WOLFPACK_ENGINE_STALL_TIMEOUT_MS',
  callTimeoutMs: 'WOLFPACK_ENGINE_CALL_TIMEOUT_MS',
} as const satisfies Partial<Record<keyof ResilienceOptions, string>>;

/** Smallest values that still make sense: below them every call would fail or spin. */
const ENGINE_OPTION_MINIMUMS: Record<keyof typeof ENGINE_OPTION_VARIABLES, number> = {
  maxRetries: 0,
  retryBaseDelayMs: 0,
  firstChunkTimeoutMs: 100,
  stallTimeoutMs: 100,
  callTimeoutMs: 100,
};

/**
 * Retry and timeout options for every engine from the environment (see
 * {@link ENGINE_OPTION_VARIABLES}); unset variables keep the defaults. A slow local model may need
 * a longer first-chunk timeout; an operator who wants runs to fail over sooner, shorter ones.
 * Throws EngineConfigError naming each variable that is not a whole number in range.
 */
export function loadEngineOptions(env: Env): ResilienceOptions {
  const options: ResilienceOptions = {};
  const issues: Array<{ path: string; message: string }> = [];
  for (const [option, variable] of Object.entries(ENGINE_OPTION_VARIABLES) as Array<[keyof typeof ENGINE_OPTION_VARIABLES, string]>) {
    const raw = env[variable]?.trim();
    if (!raw) continue;
    const value = Number(raw);
    const min = ENGINE_OPTION_MINIMUMS[option];
    if (!/^\d+$/.test(raw) || !Number.isSafeInteger(value) || value < min) {
      issues.push({ path: variable, message: `must be a whole number of at least ${min}${option === 'maxRetries' ? '' : ' (milliseconds)'}` });
      continue;
    }
    options[option] = value;
  }
  if (issues.length > 0) throw new EngineConfigError(issues);
  return options;
}

/** An Engine for `config`, over the SDK of its provider. */
export function createEngine(config: EngineConfig, options: EngineOptions = {}): Engine {
  switch (config.provider) {
    case 'openai':
      return createOpenAIEngine(config, options);
    case 'anthropic':
      return createAnthropicEngine(config, options);
    default: {
      const unreachable: never = config.provider;
      throw new Error(`Unknown engine provider ${String(unreachable)}`);
    }
  }
}
