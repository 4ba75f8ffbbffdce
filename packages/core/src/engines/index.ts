/**
 * `@wolfpack/core/engines`: the engine adapters and their configuration. Server-only (it pulls in
 * the openai and anthropic SDKs); browser code gets the engine types from `@wolfpack/core`.
 */
export * from './engine.js';
export {
  createEngine,
  loadEngineConfigs,
  loadEngineOptions,
  ENGINE_OPTION_VARIABLES,
  EngineConfigError,
  type EngineConfig,
} from './engine-config.js';
export { DEFAULT_CONTEXT_TOKENS, type EngineAdapterConfig, type EngineOptions } from './engine-adapter-config.js';
export { createOpenAIEngine, toOpenAIMessages } from './openai-engine.js';
export { createAnthropicEngine, toAnthropicMessages } from './anthropic-engine.js';
export {
  RESILIENCE_DEFAULTS,
  backoffDelayMs,
  callTimeoutError,
  resolveResilience,
  runResilient,
  sleep,
  StreamWatchdog,
  type AttemptContext,
  type ResilienceOptions,
  type ResolvedResilience,
  type ResilientCall,
} from './resilience.js';
export {
  classifyFailure,
  classifyTransportError,
  formatDuration,
  redact,
  retryAfterMsFromHeaders,
  type ErrorContext,
  type ProviderFailure,
} from './engine-errors.js';
export { IMAGE_DROPPED_NOTE, estimateTokens, estimateUsage } from './message-parts.js';
