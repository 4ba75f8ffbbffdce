import { describe, expect, it } from 'vitest';
import { adminMetricsReply } from './admin.js';

describe('adminMetricsReply', () => {
  const reply = {
    overview: {
      totalRevenue: '120.50',
      totalCosts: 40,
      totalProfit: 80.5,
      profitPercentage: 66.8,
      activeProjects: '4',
      totalConversations: 9,
    },
    aiMetrics: {
      providerBreakdown: {
        openai: { calls: 10, totalTokens: '20000', totalRevenue: 61, totalCost: 20 },
        anthropic: { calls: '5', totalTokens: 9000, totalRevenue: 27.45, totalCost: 10 },
      },
    },
    deploymentMetrics: { deployedProjects: 2, estimatedMonthlyCost: 14, revenue: 30 },
    projects: [
      {
        conversationId: 'c1',
        idea: 'Todo',
        aiCostCents: '500',
        aiRevenueCents: 400,
        deploymentCostCents: 0,
        deploymentRevenueCents: 0,
        profitCents: '-100',
        tokenCount: 1000,
      },
    ],
  };

  it('parses the metrics, including negative profit', () => {
    const parsed = adminMetricsReply.parse(reply);
    expect(parsed.overview.totalRevenue).toBe(120.5);
    expect(parsed.aiMetrics.providerBreakdown['anthropic']?.calls).toBe(5);
    expect(parsed.projects[0]?.profitCents).toBe(-100);
  });

  it('rejects fractional cents and a missing section', () => {
    expect(
      adminMetricsReply.safeParse({ ...reply, projects: [{ ...reply.projects[0], aiCostCents: 1.5 }] }).success,
    ).toBe(false);
    const { deploymentMetrics: _omitted, ...withoutDeployment } = reply;
    expect(adminMetricsReply.safeParse(withoutDeployment).success).toBe(false);
  });
});
