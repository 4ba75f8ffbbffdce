/**
 * The Savings dashboard's chart of the last months (recharts). Only /usage-metrics imports it, so
 * the chart library stays in that screen's lazily loaded chunks.
 */
import type { SavingsReply } from '@wolfpack/core';
import { Bar, CartesianGrid, ComposedChart, Legend, Line, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { monthLabel, savingsChartRows } from '../lib/savings-dashboard';

const tick = { fill: 'currentColor', fontSize: 12 };

export function SavingsChart({ months }: { months: SavingsReply['months'] }) {
  const rows = savingsChartRows(months);
  return (
    <div className="h-72 w-full text-zinc-500 dark:text-zinc-400" data-testid="savings-chart">
      <ResponsiveContainer width="100%" height="100%">
        <ComposedChart data={rows} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
          <CartesianGrid stroke="currentColor" strokeOpacity={0.15} vertical={false} />
          <XAxis dataKey="label" tick={tick} tickLine={false} axisLine={false} />
          <YAxis yAxisId="dollars" tick={tick} tickLine={false} axisLine={false} width={56} tickFormatter={(v: number) => `$${v}`} />
          <YAxis yAxisId="hours" orientation="right" tick={tick} tickLine={false} axisLine={false} width={44} tickFormatter={(v: number) => `${v}h`} />
          <Tooltip
            cursor={{ fill: 'currentColor', fillOpacity: 0.06 }}
            contentStyle={{ borderRadius: 8, fontSize: 12 }}
            labelFormatter={(_label, payload) => monthLabel(String(payload[0]?.payload?.month ?? ''), true)}
            formatter={(value, name) => (name === 'Cost saved' ? `$${Number(value).toFixed(2)}` : `${Number(value).toFixed(1)}h`)}
          />
          <Legend wrapperStyle={{ fontSize: 12 }} />
          <Bar yAxisId="dollars" dataKey="dollars" name="Cost saved" fill="var(--brand)" radius={[4, 4, 0, 0]} maxBarSize={40} />
          <Line yAxisId="hours" dataKey="hours" name="Time saved" stroke="#6366f1" strokeWidth={2} dot={{ r: 3 }} type="monotone" />
        </ComposedChart>
      </ResponsiveContainer>
    </div>
  );
}
