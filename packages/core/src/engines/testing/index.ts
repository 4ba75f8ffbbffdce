/**
 * `@wolfpack/core/engines/testing`: local fake OpenAI and Anthropic servers that speak the real
 * streaming wire formats, for tests, benchmarks and the demo. Node only.
 */
export * from './fake-http.js';
export * from './fake-openai-server.js';
export * from './fake-anthropic-server.js';
