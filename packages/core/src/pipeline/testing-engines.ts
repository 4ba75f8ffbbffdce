import { EngineError, type ChatMessage, type Engine, type EngineRequest, type EngineResult } from '../engines/engine.js';

/** What a scripted engine does with one request: answer text, fail, or answer after a delay. */
export type ScriptedAnswer = string | EngineError | { text: string; delayMs?: number; finishReason?: EngineResult['finishReason'] };

export interface ScriptedEngine extends Engine {
  calls: EngineRequest[];
  /** Requests in flight right now, and the most ever in flight at once. */
  inFlight: number;
  maxInFlight: number;
}

export function systemOf(messages: ChatMessage[]): string {
  const m = messages.find((x) => x.role === 'system');
  return typeof m?.content === 'string' ? m.content : '';
}

export function userOf(messages: ChatMessage[]): string {
  const m = [...messages].reverse().find((x) => x.role === 'user');
  if (!m) return '';
  return typeof m.content === 'string' ? m.content : m.content.map((p) => (p.type === 'text' ? p.text : '')).join('');
}

/**
 * An Engine at the provider interface for pipeline tests and benchmarks (the adapters' own tests
 * use real SDKs against fake HTTP servers). `answer` sees the request and scripts the reply.
 */
export function scriptedEngine(
  key: string,
  answer: (request: EngineRequest, callIndex: number) => ScriptedAnswer | Promise<ScriptedAnswer>,
  overrides: Partial<Pick<Engine, 'supportsImages' | 'contextTokens' | 'pricePer1kTokensCents'>> = {},
): ScriptedEngine {
  const engine: ScriptedEngine = {
    key,
    provider: 'openai',
    model: `scripted-${key}`,
    supportsImages: overrides.supportsImages ?? false,
    contextTokens: overrides.contextTokens ?? 32_000,
    pricePer1kTokensCents: overrides.pricePer1kTokensCents ?? 0,
    calls: [],
    inFlight: 0,
    maxInFlight: 0,
    async complete(request) {
      const index = engine.calls.length;
      engine.calls.push(request);
      engine.inFlight += 1;
      engine.maxInFlight = Math.max(engine.maxInFlight, engine.inFlight);
      const started = performance.now();
      try {
        const reply = await answer(request, index);
        if (reply instanceof EngineError) throw reply;
        const spec = typeof reply === 'string' ? { text: reply } : reply;
        if (spec.delayMs) await new Promise((r) => setTimeout(r, spec.delayMs));
        const input = JSON.stringify(request.messages).length;
        return {
          text: spec.text,
          usage: { inputTokens: Math.ceil(input / 4), outputTokens: Math.ceil(spec.text.length / 4), totalTokens: Math.ceil(input / 4) + Math.ceil(spec.text.length / 4) },
          finishReason: spec.finishReason ?? 'stop',
          durationMs: performance.now() - started,
          attempts: 1,
        };
      } finally {
        engine.inFlight -= 1;
      }
    },
  };
  return engine;
}
