import { describe, expect, it } from 'vitest';
import { adminMetricsReply } from '../schemas/admin.js';
import { EngineConfigError, loadEngineConfigs } from '../engines/engine-config.js';
import { computeAdminMetrics, profitPercentage, type AdminMetricsInput } from './admin-metrics.js';

/** Fixture: two engines with a margin, one engine no longer configured, one enhancement call. */
function fixture(): AdminMetricsInput {
  return {
    topUpCents: 2500 + 1000,
    licenceCents: 2900,
    showcaseShareCents: 200,
    activeProjects: 3,
    totalConversations: 4,
    deployedProjects: 1,
    costPer1kTokensCents: { alpha: 100, beta: 50 },
    conversations: [
      { id: 'c1', idea: 'todo app' },
      { id: 'c2', idea: 'blog' },
      { id: 'c3', idea: 'nothing ran' },
    ],
    usage: [
      { conversationId: 'c1', engineKey: 'alpha', calls: 2, totalTokens: 2000, billedCents: 610, recordedCostMillicents: 610_000 },
      { conversationId: 'c1', engineKey: 'beta', calls: 1, totalTokens: 1000, billedCents: 305, recordedCostMillicents: 305_000 },
      { conversationId: 'c2', engineKey: 'alpha', calls: 1, totalTokens: 500, billedCents: 153, recordedCostMillicents: 152_500 },
      { conversationId: 'c2', engineKey: 'gone', calls: 1, totalTokens: 100, billedCents: 31, recordedCostMillicents: 30_500 },
      { conversationId: null, engineKey: 'beta', calls: 3, totalTokens: 300, billedCents: 10, recordedCostMillicents: 9_150 },
    ],
  };
}

describe('computeAdminMetrics', () => {
  it('sums revenue, costs at cost prices, profit and the percentage', () => {
    const reply = computeAdminMetrics(fixture());
    // Worked by hand: revenue 3500 + 2900 + 200 = 6600 cents. Costs: alpha 2500 tokens at 100
    // cents per 1k = 250 cents; beta 1300 tokens at 50 = 65 cents; gone as
    // recorded 30.5 cents; total 345.5 -> 346 cents (rounded once).
    expect(reply.overview.totalRevenue).toBe(6600);
    expect(reply.overview.totalCosts).toBe(346);
    expect(reply.overview.totalProfit).toBe(6600 - 346);
    expect(reply.overview.profitPercentage).toBe(94.76); // 6254 / 6600 = 0.947575...
    expect(reply.overview.activeProjects).toBe(3);
    expect(reply.overview.totalConversations).toBe(4);
    expect(adminMetricsReply.parse(reply)).toEqual(reply);
  });

  it('breaks usage down by engine key', () => {
    const { providerBreakdown } = computeAdminMetrics(fixture()).aiMetrics;
    expect(Object.keys(providerBreakdown)).toEqual(['alpha', 'beta', 'gone']);
    expect(providerBreakdown['alpha']).toEqual({ calls: 3, totalTokens: 2500, totalRevenue: 763, totalCost: 250 });
    expect(providerBreakdown['beta']).toEqual({ calls: 4, totalTokens: 1300, totalRevenue: 315, totalCost: 65 });
    expect(providerBreakdown['gone']).toEqual({ calls: 1, totalTokens: 100, totalRevenue: 31, totalCost: 31 });
  });

  it('lists each conversation with its AI cost, revenue and profit', () => {
    const { projects, deploymentMetrics } = computeAdminMetrics(fixture());
    expect(projects).toEqual([
      // c1: alpha 2000 tokens = 200 cents, beta 1000 tokens = 50 cents.
      { conversationId: 'c1', idea: 'todo app', aiCostCents: 250, aiRevenueCents: 915, deploymentCostCents: 0, deploymentRevenueCents: 0, profitCents: 665, tokenCount: 3000 },
      // c2: alpha 500 tokens = 50 cents, gone 30.5 cents -> 80.5 -> 81.
      { conversationId: 'c2', idea: 'blog', aiCostCents: 81, aiRevenueCents: 184, deploymentCostCents: 0, deploymentRevenueCents: 0, profitCents: 103, tokenCount: 600 },
      { conversationId: 'c3', idea: 'nothing ran', aiCostCents: 0, aiRevenueCents: 0, deploymentCostCents: 0, deploymentRevenueCents: 0, profitCents: 0, tokenCount: 0 },
    ]);
    expect(deploymentMetrics).toEqual({ deployedProjects: 1, estimatedMonthlyCost: 0, revenue: 0 });
  });

  it('answers zeros for an empty database', () => {
    const reply = computeAdminMetrics({
      topUpCents: 0, licenceCents: 0, showcaseShareCents: 0, activeProjects: 0, totalConversations: 0,
      deployedProjects: 0, usage: [], conversations: [], costPer1kTokensCents: {},
    });
    expect(reply.overview).toEqual({ totalRevenue: 0, totalCosts: 0, totalProfit: 0, profitPercentage: 0, activeProjects: 0, totalConversations: 0 });
    expect(reply.aiMetrics.providerBreakdown).toEqual({});
  });

  it('gives 0 % without revenue and a negative percent at a loss', () => {
    expect(profitPercentage(-50, 0)).toBe(0);
    expect(profitPercentage(-50, 200)).toBe(-25);
    expect(profitPercentage(1, 3)).toBe(33.33);
  });
});

describe('engine cost price (WOLFPACK_ENGINES costPer1kTokensCents)', () => {
  const entry = { key: 'alpha', provider: 'openai', model: 'm', baseURL: 'http://127.0.0.1:9/v1' };
  it('reads the cost price; without one the price users pay stands in', () => {
    const configs = loadEngineConfigs({
      WOLFPACK_ENGINES: JSON.stringify([
        { ...entry, pricePer1kTokensCents: 305, costPer1kTokensCents: 120 },
        { ...entry, key: 'beta', pricePer1kTokensCents: 200 },
        { ...entry, key: 'gamma' },
      ]),
    });
    // The cost price in force: the configured one, else what users pay (no margin assumed).
    expect(configs.map((c) => [c.key, c.pricePer1kTokensCents, c.costPer1kTokensCents ?? c.pricePer1kTokensCents])).toEqual([
      ['alpha', 305, 120],
      ['beta', 200, 200],
      ['gamma', 305, 305],
    ]);
    expect(configs[1]!.costPer1kTokensCents).toBeUndefined();
  });
  it('refuses a negative cost price', () => {
    expect(() => loadEngineConfigs({ WOLFPACK_ENGINES: JSON.stringify([{ ...entry, costPer1kTokensCents: -1 }]) })).toThrow(EngineConfigError);
  });
});
