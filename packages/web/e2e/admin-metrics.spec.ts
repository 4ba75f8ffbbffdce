/** Admin metrics (companion §2 Admin metrics, §4 Admin, §8 "Unauthorized"): the lock, then the dashboard. */
import { formatCents } from '@wolfpack/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, useBrowser, type TestServer } from './harness';
import { saveShot } from './helpers';
import type { Sql } from '@wolfpack/server/testing';

const SECRET = 'e2e-admin-secret-0123456789abcdef';

describe('Admin metrics', () => {
  const browser = useBrowser();
  let server: TestServer;

  beforeAll(async () => {
    // A server of its own: the shared one's generated secret sits in a data dir this file cannot see.
    server = await startTestServer({ env: { WOLFPACK_ADMIN_SECRET: SECRET } });
    const sql = server.db.orm.em.fork() as unknown as Sql;
    const now = new Date();
    const userId = '00000000-0000-4000-8000-00000000ad01';
    const conversationId = '00000000-0000-4000-8000-00000000ad02';
    await sql.execute(`insert into users (id, username, username_key, password_hash, created_at) values (?, 'admin-fixture', 'admin-fixture', 'x', ?)`, [userId, now]);
    await sql.execute(`insert into ledger_entries (user_id, kind, amount_cents, balance_after_cents, reference, created_at) values (?, 'top_up', 2500, 2500, 'e2e-topup', ?)`, [userId, now]);
    await sql.execute(
      `insert into conversations (id, user_id, idea, model_order, cycles, attachments, status, stages, created_at, updated_at) values (?, ?, 'an admin fixture idea', '[]', 1, '[]', 'completed', '[]', ?, ?)`,
      [conversationId, userId, now, now],
    );
    await sql.execute(
      `insert into engine_usage (user_id, conversation_id, cycle, stage, engine_key, provider, model, input_tokens, output_tokens, total_tokens, duration_ms, attempts, cost_millicents, billed_cents, created_at)
       values (?, ?, 1, 'draft', 'retired', 'openai', 'm', 0, 1200, 1200, 1, 1, 366000, 366, ?)`,
      [userId, conversationId, now],
    );
  });
  afterAll(async () => {
    await server?.close();
  });

  it('stays locked until a secret is typed, says Unauthorized for a wrong one and opens with Enter', async () => {
    const page = await browser.newPage({ baseUrl: server.url });
    await page.goto('/admin/metrics');
    await page.getByRole('heading', { name: 'Admin Metrics' }).waitFor();
    await page.getByTestId('admin-login').waitFor();
    const access = page.getByTestId('admin-access');
    const input = page.getByTestId('admin-secret-input');
    expect(await access.isDisabled()).toBe(true);
    // Where the secret is kept, never the secret.
    const hint = (await page.getByTestId('admin-secret-hint').textContent()) ?? '';
    expect(hint).toContain('secrets.json');
    expect(hint).toContain('adminSecret');
    expect(hint).toContain('WOLFPACK_ADMIN_SECRET');
    expect(await page.content()).not.toContain(SECRET);
    expect(await page.getByTestId('admin-dashboard').count()).toBe(0);

    await input.fill('   ');
    expect(await access.isDisabled()).toBe(true);
    await input.fill('not-the-secret');
    expect(await access.isEnabled()).toBe(true);
    await access.click();
    await page.getByText('Unauthorized', { exact: true }).waitFor();
    expect(await page.getByTestId('admin-dashboard').count()).toBe(0);
    await saveShot(page, 'admin-locked');

    // A header value is bytes: a secret beyond ASCII cannot be sent, and can never be right, so
    // the page says it is wrong (not that the metrics failed to load) and asks nothing.
    let asked = 0;
    page.on('request', (request) => {
      if (request.url().includes('/api/admin/metrics')) asked += 1;
    });
    await input.fill('wrong-secret-🐺');
    await access.click();
    await page.getByText('Unauthorized: this secret is wrong. The admin secret contains only ASCII characters').waitFor({ timeout: 10_000 });
    expect(await page.getByText('The metrics could not be loaded').count()).toBe(0);
    expect(asked).toBe(0);
    expect(await page.getByTestId('admin-dashboard').count()).toBe(0);

    await input.fill(SECRET);
    await input.press('Enter');
    await page.getByTestId('admin-dashboard').waitFor();

    const api = await page.request.get('/api/admin/metrics', { headers: { 'X-Admin-Secret': SECRET } });
    expect(api.status()).toBe(200);
    const data = (await api.json()) as {
      overview: Record<string, number>;
      aiMetrics: { providerBreakdown: Record<string, { calls: number; totalTokens: number; totalRevenue: number; totalCost: number }> };
      deploymentMetrics: { deployedProjects: number };
      projects: Array<{ conversationId: string; aiCostCents: number; profitCents: number }>;
    };
    expect(data.overview['totalRevenue']).toBeGreaterThanOrEqual(2500);
    const text = async (id: string) => (await page.getByTestId(id).textContent())?.trim();
    expect(await text('admin-revenue')).toBe(formatCents(data.overview['totalRevenue']!));
    expect(await text('admin-costs')).toBe(formatCents(data.overview['totalCosts']!));
    expect(await text('admin-profit')).toBe(formatCents(data.overview['totalProfit']!));
    expect(await text('admin-profit-percent')).toBe(`${data.overview['profitPercentage']!.toFixed(2)}%`);
    expect(await text('admin-active-projects')).toBe(String(data.overview['activeProjects']));
    expect(await text('admin-conversations')).toBe(String(data.overview['totalConversations']));
    expect(await text('admin-deployed')).toBe(String(data.deploymentMetrics.deployedProjects));

    const retired = data.aiMetrics.providerBreakdown['retired']!;
    expect(retired).toEqual({ calls: 1, totalTokens: 1200, totalRevenue: 366, totalCost: 366 });
    const row = page.locator('[data-testid="admin-provider-row"][data-engine="retired"]');
    expect(await row.textContent()).toContain('1,200');
    expect(await row.textContent()).toContain('$3.66');
    await page.getByTestId('admin-provider-chart').locator('svg').first().waitFor();
    const projectRow = page.locator('[data-testid="admin-project-row"][data-conversation="00000000-0000-4000-8000-00000000ad02"]');
    expect(await projectRow.textContent()).toContain('an admin fixture idea');
    await saveShot(page, 'admin-dashboard', { fullPage: true });

    // The secret is kept in memory only: nothing in storage, and a reload locks the page again.
    const stored = await page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }));
    expect(stored).not.toContain(SECRET);
    await page.reload();
    await page.getByTestId('admin-login').waitFor();
  });
});
