/**
 * What every engine adapter is made from: its engine's settings and the options of its calls. Kept
 * apart from the configuration that reads them, which picks the adapter for each provider.
 */
import type { ResilienceOptions } from './resilience.js';

/** What an adapter needs to know about its engine; fields with defaults are optional. */
export interface EngineAdapterConfig {
  /** Public, generic name: lowercase letters, digits, hyphens. */
  key: string;
  model: string;
  /** Endpoint; the provider's public API when unset. */
  baseURL?: string | undefined;
  /** Resolved key. Local endpoints (Ollama, llama.cpp) may need none. */
  apiKey?: string | undefined;
  /** @default false */
  supportsImages?: boolean | undefined;
  /** @default 8192 */
  contextTokens?: number | undefined;
  /** What users are billed per 1,000 tokens, in cents. @default 305 (the spec's $3.05) */
  pricePer1kTokensCents?: number | undefined;
  /**
   * What the operator pays the provider per 1,000 tokens, in cents: admin metrics cost engine usage
   * at this price. @default pricePer1kTokensCents (no margin assumed when unknown)
   */
  costPer1kTokensCents?: number | undefined;
}

export interface EngineOptions extends ResilienceOptions {
  /** Output token limit when a request sets none (Anthropic requires one). @default 8192 */
  defaultMaxTokens?: number;
  /** A fetch for the SDK (proxies, tests). @default globalThis.fetch */
  fetch?: typeof fetch;
}

/** Small on purpose: a local model's window is what an unknown endpoint most likely has. */
export const DEFAULT_CONTEXT_TOKENS = 8192;
