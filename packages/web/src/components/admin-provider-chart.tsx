/**
 * The provider breakdown chart of /admin/metrics (recharts). Only the admin route imports it, so
 * the chart library stays in that lazily loaded screen.
 */
import type { ProviderMetrics } from '@wolfpack/core';
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';

const tick = { fill: 'currentColor', fontSize: 12 };

export function AdminProviderChart({ breakdown }: { breakdown: Record<string, ProviderMetrics> }) {
  // Cents to dollars for the axis; the table beside it shows the exact figures.
  const rows = Object.entries(breakdown).map(([engine, m]) => ({
    engine,
    revenue: Number(m.totalRevenue) / 100,
    cost: Number(m.totalCost) / 100,
  }));
  return (
    <div className="h-64 w-full text-zinc-500 dark:text-zinc-400" data-testid="admin-provider-chart">
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={rows} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
          <CartesianGrid stroke="currentColor" strokeOpacity={0.15} vertical={false} />
          <XAxis dataKey="engine" tick={tick} tickLine={false} axisLine={false} />
          <YAxis tick={tick} tickLine={false} axisLine={false} width={56} tickFormatter={(v: number) => `$${v}`} />
          <Tooltip
            cursor={{ fill: 'currentColor', fillOpacity: 0.06 }}
            contentStyle={{ borderRadius: 8, fontSize: 12 }}
            formatter={(value) => `$${Number(value).toFixed(2)}`}
          />
          <Legend wrapperStyle={{ fontSize: 12 }} />
          <Bar dataKey="revenue" name="Revenue" fill="var(--brand)" radius={[4, 4, 0, 0]} maxBarSize={40} />
          <Bar dataKey="cost" name="Cost" fill="#6366f1" radius={[4, 4, 0, 0]} maxBarSize={40} />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
