import { billingHistoryReply, centsToDollars } from '@wolfpack/core';
import { explainLoggedOut, loggedInApi, type CommandContext } from '../context.js';
import { formatDate, formatTable } from '../format.js';

import { DEFAULT_USAGE_LIMIT } from '../command-options.js';

export { DEFAULT_USAGE_LIMIT, MAX_USAGE_LIMIT } from '../command-options.js';

export interface UsageOptions {
  /** 1 to 100. @default DEFAULT_USAGE_LIMIT */
  limit?: number | undefined;
}

/**
 * `wolfpack usage`: the newest engine calls with the stage (role) that made them, their tokens and
 * what each was billed (GET /api/billing/history). `--json`: `{history: [{id, role, totalTokens,
 * createdAt, billedDollars}]}` with dollars as "0.12" strings.
 */
export async function usage(options: UsageOptions, context: CommandContext): Promise<void> {
  const limit = options.limit ?? DEFAULT_USAGE_LIMIT;
  const api = await loggedInApi(context);
  const { history } = await api.get(`/api/billing/history?limit=${limit}`, { reply: billingHistoryReply }).catch((error: unknown) => {
    throw explainLoggedOut(error, api.server);
  });
  const items = history.map((item) => ({ ...item, billedDollars: centsToDollars(Math.round(item.billedDollars * 100)) }));
  if (context.output.json) return context.output.result('', { history: items });

  if (items.length === 0) {
    context.io.stdout.write('No engine usage yet. Build something with `wolfpack build "IDEA"`.\n');
    return;
  }
  const rows = items.map((item) => [formatDate(item.createdAt), item.role, item.totalTokens.toLocaleString('en-US'), `$${item.billedDollars}`]);
  const [header, ...lines] = formatTable([{ header: 'DATE' }, { header: 'ROLE' }, { header: 'TOKENS', align: 'right' }, { header: 'BILLED', align: 'right' }], rows);
  const billedCents = items.reduce((sum, item) => sum + Math.round(Number(item.billedDollars) * 100), 0);
  const calls = items.length === 1 ? '1 call' : `${items.length} calls`;
  lines.push('', `${calls} shown, $${centsToDollars(billedCents)} billed.`);
  context.io.stdout.write(`${[context.output.style('bold', header!), ...lines].join('\n')}\n`);
}
