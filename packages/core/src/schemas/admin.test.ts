import { describe, expect, it } from 'vitest';
import { adminMetricsReply, grantNjinLicenceRequest, parseLicenceUntil } from './admin.js';

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

describe('parseLicenceUntil', () => {
  it('reads a day as through its end, UTC, and a time as that instant', () => {
    expect(parseLicenceUntil('2027-01-31')?.toISOString()).toBe('2027-01-31T23:59:59.999Z');
    expect(parseLicenceUntil(' 2028-02-29 ')?.toISOString()).toBe('2028-02-29T23:59:59.999Z');
    expect(parseLicenceUntil('2027-01-31T18:00:00Z')?.toISOString()).toBe('2027-01-31T18:00:00.000Z');
    expect(parseLicenceUntil('2027-01-31T18:00+02:00')?.toISOString()).toBe('2027-01-31T16:00:00.000Z');
  });

  it('refuses days that do not exist, times without a zone and anything else', () => {
    for (const text of ['2027-02-29', '2027-13-01', '2027-01-31T18:00:00', '31/01/2027', 'tomorrow', '', '2027-1-3']) expect(parseLicenceUntil(text), text).toBeNull();
    const bad = grantNjinLicenceRequest.safeParse({ until: 'next month' });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.message).toMatch(/^until must be a date such as 2027-01-31/);
    expect(grantNjinLicenceRequest.parse({ until: '2027-01-31' }).until).toEqual(new Date('2027-01-31T23:59:59.999Z'));
  });
});
