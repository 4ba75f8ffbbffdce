import { AppError, type EngineInfo, type EnginesReply } from '@wolfpack/core';
import { createEngine, type Engine, type EngineConfig, type EngineOptions } from '@wolfpack/core/engines';
import type { EngineSettings } from '../../config/env.js';
import { startDemoEngineServer, type DemoEngineServer } from '../../demo/demo-engine-server.js';

/** Public keys of the demo engines: four, so the enhancer's 2 x 4 passes also work offline. */
export const DEMO_ENGINE_KEYS = ['demo-alpha', 'demo-beta', 'demo-gamma', 'demo-delta'];

export const DEMO_NOTICE =
  'Demo engines are active: no AI is configured, so Wolfpack assembles a small starter project from your idea\'s words. ' +
  'To use real AI engines, start the server with OPENAI_API_KEY or ANTHROPIC_API_KEY set, or WOLFPACK_ENGINES (see the README).';

/**
 * The engines this server runs: configured ones, or the offline demo engines behind a loopback
 * OpenAI-compatible endpoint when none is configured. Vendor names, models and keys stay here.
 */
export class EngineRegistry {
  private constructor(
    readonly engines: readonly Engine[],
    readonly demo: boolean,
    private readonly demoServer: DemoEngineServer | undefined,
    /** What each engine costs the operator per 1,000 tokens (cents), by key; admin metrics only. */
    readonly costPer1kTokensCents: Readonly<Record<string, number>> = {},
  ) {}

  static async create(settings: EngineSettings, given: EngineOptions = {}): Promise<EngineRegistry> {
    const { configs } = settings;
    // Retries and timeouts from WOLFPACK_ENGINE_* variables; options given in code win.
    const options: EngineOptions = { ...settings.options, ...given };
    if (configs.length > 0) {
      const costs = Object.fromEntries(configs.map((c) => [c.key, c.costPer1kTokensCents ?? c.pricePer1kTokensCents]));
      return new EngineRegistry(configs.map((c) => createEngine(c, options)), false, undefined, costs);
    }
    const server = await startDemoEngineServer({ delayMs: settings.demoDelayMs });
    const demoConfigs: EngineConfig[] = DEMO_ENGINE_KEYS.map((key) => ({
      key,
      provider: 'openai',
      model: 'wolfpack-demo',
      baseURL: server.baseURL,
      apiKey: 'demo',
      supportsImages: false,
      contextTokens: 32_000,
      pricePer1kTokensCents: 0,
    }));
    return new EngineRegistry(demoConfigs.map((c) => createEngine(c, { ...options, maxRetries: 1 })), true, server, Object.fromEntries(DEMO_ENGINE_KEYS.map((k) => [k, 0])));
  }

  info(): EnginesReply {
    const engines: EngineInfo[] = this.engines.map((e) => ({ key: e.key, supportsImages: e.supportsImages }));
    return { engines, demo: this.demo, notice: this.demo ? DEMO_NOTICE : null };
  }

  /** Engines in the requested order (empty: all, in configured order). Unknown keys are a 400. */
  resolve(modelOrder: readonly string[]): Engine[] {
    if (modelOrder.length === 0) return [...this.engines];
    const byKey = new Map(this.engines.map((e) => [e.key, e]));
    const unknown = modelOrder.filter((k) => !byKey.has(k));
    if (unknown.length > 0) {
      throw new AppError(
        'BAD_REQUEST',
        `Unknown engine ${unknown.map((k) => `"${k}"`).join(', ')}. Available engines: ${this.engines.map((e) => e.key).join(', ')}.`,
      );
    }
    return [...new Set(modelOrder)].map((k) => byKey.get(k)!);
  }

  async close(): Promise<void> {
    await this.demoServer?.close();
  }
}
