import { formatCents, type AdminMetricsReply } from '@wolfpack/core';
import { Cpu, DollarSign, FolderKanban, MessagesSquare, Percent, Receipt, Rocket, Table2, TrendingUp } from 'lucide-react';
import { AdminProviderChart } from './admin-provider-chart';
import { SectionCard } from './section-card';
import { StatTile } from './stat-tile';

/** Every money figure of the reply is whole cents (core admin-metrics.ts); shown as dollars. */
const money = (cents: number) => formatCents(cents);
const count = (n: number) => n.toLocaleString('en-US');
const icon = (Icon: typeof DollarSign) => <Icon className="h-4 w-4" aria-hidden />;

/** The admin dashboard (companion §2 Admin metrics): overview, providers, deployment, per project. */
export function AdminDashboard({ data }: { data: AdminMetricsReply }) {
  const { overview, aiMetrics, deploymentMetrics, projects } = data;
  const providers = Object.entries(aiMetrics.providerBreakdown);
  return (
    <div className="flex flex-col gap-6" data-testid="admin-dashboard">
      <dl className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-3">
        <StatTile icon={icon(DollarSign)} label="Revenue" value={money(overview.totalRevenue)} testId="admin-revenue">
          <dd className="text-xs text-zinc-500 dark:text-zinc-400">Credit top-ups, licences paid and the platform&apos;s share of Showcase sales.</dd>
        </StatTile>
        <StatTile icon={icon(Receipt)} label="Costs" value={money(overview.totalCosts)} testId="admin-costs">
          <dd className="text-xs text-zinc-500 dark:text-zinc-400">Engine usage at the engines&apos; cost prices.</dd>
        </StatTile>
        <StatTile icon={icon(TrendingUp)} label="Profit" value={money(overview.totalProfit)} testId="admin-profit" />
        <StatTile icon={icon(Percent)} label="Profit %" value={`${overview.profitPercentage.toFixed(2)}%`} testId="admin-profit-percent" />
        <StatTile icon={icon(FolderKanban)} label="Active projects" value={count(overview.activeProjects)} testId="admin-active-projects" />
        <StatTile icon={icon(MessagesSquare)} label="Conversations" value={count(overview.totalConversations)} testId="admin-conversations" />
      </dl>

      <SectionCard icon={icon(Cpu)} title="AI provider breakdown" description="Calls, tokens, what users were billed and what the calls cost, per engine." testId="admin-providers">
        {providers.length === 0 ? (
          <p className="text-sm text-zinc-500 dark:text-zinc-400" data-testid="admin-providers-empty">No engine has been used yet.</p>
        ) : (
          <>
            <AdminProviderChart breakdown={aiMetrics.providerBreakdown} />
            <div className="overflow-x-auto">
              <table className="w-full text-sm tabular-nums">
                <thead className="text-left text-xs text-zinc-500 uppercase dark:text-zinc-400">
                  <tr>
                    <th className="py-2 pr-4 font-medium">Engine</th>
                    <th className="py-2 pr-4 text-right font-medium">Calls</th>
                    <th className="py-2 pr-4 text-right font-medium">Tokens</th>
                    <th className="py-2 pr-4 text-right font-medium">Revenue</th>
                    <th className="py-2 text-right font-medium">Cost</th>
                  </tr>
                </thead>
                <tbody>
                  {providers.map(([engine, m]) => (
                    <tr key={engine} className="border-t border-zinc-100 dark:border-zinc-800" data-testid="admin-provider-row" data-engine={engine}>
                      <td className="py-2 pr-4 font-medium">{engine}</td>
                      <td className="py-2 pr-4 text-right">{count(m.calls)}</td>
                      <td className="py-2 pr-4 text-right">{count(m.totalTokens)}</td>
                      <td className="py-2 pr-4 text-right">{money(m.totalRevenue)}</td>
                      <td className="py-2 text-right">{money(m.totalCost)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </>
        )}
      </SectionCard>

      <SectionCard icon={icon(Rocket)} title="Deployment metrics" description="Projects published to GitHub." testId="admin-deployment">
        <dl className="grid grid-cols-1 gap-3 sm:grid-cols-3">
          <StatTile icon={icon(Rocket)} label="Deployed projects" value={count(deploymentMetrics.deployedProjects)} testId="admin-deployed" />
          <StatTile icon={icon(Receipt)} label="Est. monthly cost" value={money(deploymentMetrics.estimatedMonthlyCost)} testId="admin-deploy-cost" />
          <StatTile icon={icon(DollarSign)} label="Hosting revenue" value={money(deploymentMetrics.revenue)} testId="admin-deploy-revenue" />
        </dl>
        <p className="text-xs text-zinc-500 dark:text-zinc-400" data-testid="admin-deploy-note">
          Wolfpack does not host or bill deployments yet, so deployment cost and revenue are $0.00 until there are records of them.
        </p>
      </SectionCard>

      <SectionCard icon={icon(Table2)} title="Per-project costs" description="AI cost and revenue of each build, newest first." testId="admin-projects">
        {projects.length === 0 ? (
          <p className="text-sm text-zinc-500 dark:text-zinc-400" data-testid="admin-projects-empty">No builds yet.</p>
        ) : (
          <div className="max-h-[32rem] overflow-auto">
            <table className="w-full text-sm tabular-nums">
              <thead className="sticky top-0 bg-white text-left text-xs text-zinc-500 uppercase dark:bg-zinc-900 dark:text-zinc-400">
                <tr>
                  <th className="py-2 pr-4 font-medium">Idea</th>
                  <th className="py-2 pr-4 text-right font-medium">Tokens</th>
                  <th className="py-2 pr-4 text-right font-medium">AI cost</th>
                  <th className="py-2 pr-4 text-right font-medium">AI revenue</th>
                  <th className="py-2 pr-4 text-right font-medium">Deployment</th>
                  <th className="py-2 text-right font-medium">Profit</th>
                </tr>
              </thead>
              <tbody>
                {projects.map((p) => (
                  <tr key={p.conversationId} className="border-t border-zinc-100 dark:border-zinc-800" data-testid="admin-project-row" data-conversation={p.conversationId}>
                    <td className="max-w-xs truncate py-2 pr-4" title={p.idea}>
                      {p.idea}
                    </td>
                    <td className="py-2 pr-4 text-right">{count(p.tokenCount)}</td>
                    <td className="py-2 pr-4 text-right">{money(p.aiCostCents)}</td>
                    <td className="py-2 pr-4 text-right">{money(p.aiRevenueCents)}</td>
                    <td className="py-2 pr-4 text-right">{money(p.deploymentRevenueCents - p.deploymentCostCents)}</td>
                    <td className={p.profitCents < 0 ? 'py-2 text-right text-red-600 dark:text-red-400' : 'py-2 text-right'}>{money(p.profitCents)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </SectionCard>
    </div>
  );
}
