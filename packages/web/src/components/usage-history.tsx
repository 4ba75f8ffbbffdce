import type { UsageHistoryItem } from '@wolfpack/core';
import { formatDateTime } from '../lib/format-time';

/** What a usage item's role reads as: the stage name, or AI Enhance for enhancement steps. */
export function usageRoleLabel(role: string): string {
  return role === 'enhance' ? 'AI Enhance' : role;
}

/** The latest usage items: role, tokens, what was billed and when (companion §2 recent usage). */
export function UsageHistory({ items }: { items: readonly UsageHistoryItem[] }) {
  if (items.length === 0) {
    return (
      <p className="text-sm text-zinc-500 dark:text-zinc-400" data-testid="usage-empty">
        No usage yet. Each engine call of a run or an AI Enhance shows here with its tokens and cost.
      </p>
    );
  }
  return (
    <div className="-mx-6 overflow-x-auto">
      <table className="w-full min-w-[32rem] text-sm" data-testid="usage-history">
        <thead>
          <tr className="text-left text-xs text-zinc-500 dark:text-zinc-400">
            <th scope="col" className="px-6 pb-2 font-medium">
              Role
            </th>
            <th scope="col" className="px-3 pb-2 text-right font-medium">
              Tokens
            </th>
            <th scope="col" className="px-3 pb-2 text-right font-medium">
              Billed
            </th>
            <th scope="col" className="px-6 pb-2 text-right font-medium">
              Date
            </th>
          </tr>
        </thead>
        <tbody className="tabular-nums">
          {items.map((item) => (
            <tr key={item.id} className="border-t border-zinc-100 dark:border-zinc-800" data-testid="usage-row">
              <td className="px-6 py-2 font-medium">{usageRoleLabel(item.role)}</td>
              <td className="px-3 py-2 text-right">{item.totalTokens.toLocaleString('en-US')}</td>
              <td className="px-3 py-2 text-right">${item.billedDollars.toFixed(2)}</td>
              <td className="px-6 py-2 text-right text-zinc-500 dark:text-zinc-400">{formatDateTime(item.createdAt)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
