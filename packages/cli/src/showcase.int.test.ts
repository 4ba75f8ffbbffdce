/**
 * `wolfpack showcase ls` and `showcase get` from the built binary against a real server with the
 * demo engines and a fake Stripe driven through the real SDK: browsing without a login, every
 * filter and sort, a free copy written like `wolfpack pull` (once per buyer), and a commercial
 * listing that prints its checkout link, exits 4, and is written once paid.
 */
import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { listingReply, projectDetailReply, projectsReply, type CreateListingRequest, type Listing } from '@wolfpack/core';
import { startFakeStripe, type FakeStripe } from '@wolfpack/server/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ApiClient } from './api.js';
import { EXIT_PAYMENT_REQUIRED } from './exit-code.js';
import { NO_LISTINGS } from './showcase-format.js';
import { apiGet, loginCli, parseJsonLines, runCli, startTestServer, storedToken, type CliResult, type RunOptions, type TestServer } from './testing/cli-harness.js';

const PASSWORD = 'correct-horse-battery';

// Each test runs the binary a dozen times or more, a fresh Node process each (1-3 s on a busy machine).
vi.setConfig({ testTimeout: 120_000 });
const STRIPE_KEY = 'sk_test_wolfpack_cli_showcase_0123';
const WEBHOOK_SECRET = 'whsec_wolfpack_cli_showcase';

let server: TestServer;
let stripe: FakeStripe;
let home: string;

interface User {
  wolfpack(args: string[], options?: RunOptions): Promise<CliResult>;
  token: string;
  api: ApiClient;
}

/** A CLI logged in as a new user, with its own config file. */
async function newUser(username: string): Promise<User> {
  const env = { HOME: home, WOLFPACK_CONFIG: join(home, `${username}.json`) };
  await loginCli(server.url, username, PASSWORD, env);
  const token = await storedToken(env.WOLFPACK_CONFIG, server.url);
  return {
    wolfpack: (args, options = {}) => runCli(args, { ...options, env: { ...env, WOLFPACK_URL: server.url, ...options.env } }),
    token,
    api: new ApiClient({ server: server.url, token }),
  };
}

/** No config file at all: browsing needs no login. */
function anonymous(args: string[]): Promise<CliResult> {
  return runCli(args, { env: { HOME: home, WOLFPACK_CONFIG: join(home, 'nobody.json'), WOLFPACK_URL: server.url } });
}

function json<T>(result: CliResult): T {
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as T;
}

async function build(user: User, idea: string): Promise<string> {
  const result = await user.wolfpack(['build', idea, '--json']);
  expect(result.code, result.stderr).toBe(0);
  return parseJsonLines(result.stdout).at(-1)!['projectId'] as string;
}

async function fsIndexOf(user: User, projectId: string): Promise<Record<string, string>> {
  return projectDetailReply.parse(await apiGet(server.url, user.token, `/api/projects/${projectId}`)).project.fsIndex;
}

/** Every file under `dir`, by its path relative to it. */
async function filesIn(dir: string): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    files[relative(dir, path).split('\\').join('/')] = await readFile(path, 'utf8');
  }
  return files;
}

let seller: User;
let buyer: User;
let sellerProject: string;
let free: Listing;
let paid: Listing;
let cheap: Listing;

async function list(user: User, request: Omit<CreateListingRequest, 'projectId'>, projectId = sellerProject): Promise<Listing> {
  return (await user.api.post('/api/listings', { body: { projectId, ...request }, reply: listingReply })).listing;
}

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'wolfpack-cli-showcase-'));
  stripe = await startFakeStripe({ secretKey: STRIPE_KEY });
  server = await startTestServer({ env: { STRIPE_SECRET_KEY: STRIPE_KEY, STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_API_BASE: stripe.url } });
  seller = await newUser('seller');
  buyer = await newUser('buyer');
  sellerProject = await build(seller, 'a todo app with tags');
  // Oldest first; createdAt ties are broken by the server, so each listing waits a moment.
  free = await list(seller, { title: 'Todo app with tags', summary: 'Keep track of things to do.', visibility: 'free', techStack: ['React', 'Vite', 'Zod', 'Koa', 'Ink'], tags: ['productivity'] });
  await new Promise((resolve) => setTimeout(resolve, 20));
  paid = await list(seller, { title: 'Invoice generator', summary: 'PDF invoices for freelancers.', visibility: 'commercial', priceCents: 499, techStack: ['Node'] });
  await new Promise((resolve) => setTimeout(resolve, 20));
  cheap = await list(seller, { title: 'Metronome', summary: 'A metronome for drummers.', visibility: 'commercial', priceCents: 150, techStack: [] });
}, 180_000);

afterAll(async () => {
  await server?.close();
  await stripe?.close();
  if (home) await rm(home, { recursive: true, force: true });
});

describe('wolfpack showcase ls', () => {
  it('lists without a login: id, title, price or FREE, 3 tech entries and +N, newest first', async () => {
    const result = await anonymous(['showcase', 'ls']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe('');
    const [header, ...rows] = result.stdout.trimEnd().split('\n');
    expect(header).toMatch(/^ID +TITLE +PRICE {2}TECH$/);
    expect(rows).toHaveLength(3);
    expect(rows[0]).toMatch(new RegExp(`^${cheap.id} +Metronome +\\$1\\.50$`));
    expect(rows[1]).toMatch(new RegExp(`^${paid.id} +Invoice generator +\\$4\\.99  Node$`));
    expect(rows[2]).toMatch(new RegExp(`^${free.id} +Todo app with tags +FREE  React, Vite, Zod \\+2$`));
    // `showcase` alone lists too.
    expect((await anonymous(['showcase'])).stdout).toBe(result.stdout);
  });

  it('--json: the server’s listings, the page and the page size', async () => {
    const data = json<{ listings: Listing[]; page: number; limit: number }>(await anonymous(['showcase', 'ls', '--json']));
    expect(data.page).toBe(1);
    expect(data.limit).toBe(24);
    expect(data.listings.map((l) => l.id)).toEqual([cheap.id, paid.id, free.id]);
    expect(data.listings[2]).toMatchObject({ title: 'Todo app with tags', visibility: 'free', priceCents: 0, techStack: ['React', 'Vite', 'Zod', 'Koa', 'Ink'] });
  });

  it('filters by type and search, sorts four ways, pages', async () => {
    const ids = async (...args: string[]) => json<{ listings: Listing[] }>(await anonymous(['showcase', 'ls', '--json', ...args])).listings.map((l) => l.id);
    expect(await ids('--free')).toEqual([free.id]);
    expect(await ids('--commercial')).toEqual([cheap.id, paid.id]);
    expect(await ids('--search', 'INVOICE')).toEqual([paid.id]);
    expect(await ids('--search', 'productivity')).toEqual([free.id]);
    expect(await ids('--sort', 'oldest')).toEqual([free.id, paid.id, cheap.id]);
    expect(await ids('--sort', 'price-asc')).toEqual([free.id, cheap.id, paid.id]);
    expect(await ids('--sort', 'price-desc')).toEqual([paid.id, cheap.id, free.id]);
    expect(await ids('--limit', '2')).toEqual([cheap.id, paid.id]);
    expect(await ids('--limit', '2', '--page', '2')).toEqual([free.id]);

    const full = await anonymous(['showcase', 'ls', '-n', '2']);
    expect(full.stdout.trimEnd().split('\n').at(-1)).toBe('Page 1. The next 2 with --page 2.');
    expect(await anonymous(['showcase', 'ls', '--search', 'nothing-like-this'])).toEqual({ code: 0, stdout: `${NO_LISTINGS}\n`, stderr: '' });
    expect(await anonymous(['showcase', 'ls', '--page', '9'])).toEqual({ code: 0, stdout: 'No listings on page 9.\n', stderr: '' });
  });

  it('refuses --free with --commercial and bad values: exit 2, one line', async () => {
    const both = await anonymous(['showcase', 'ls', '--free', '--commercial']);
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/^wolfpack: [^\n]*--free[^\n]*--commercial[^\n]*\n$|^wolfpack: [^\n]*--commercial[^\n]*--free[^\n]*\n$/);
    for (const args of [['--sort', 'cheapest'], ['--limit', '101'], ['--page', '0']]) {
      const bad = await anonymous(['showcase', 'ls', ...args]);
      expect(bad.code, args.join(' ')).toBe(2);
      expect(bad.stderr).toMatch(/^wolfpack: [^\n]+\n$/);
    }
  });
});

describe('wolfpack showcase get', () => {
  it('copies a free listing into the buyer’s projects and writes its files like pull; again gives the same copy', async () => {
    const out = join(home, 'free-copy');
    const got = json<{ listingId: string; projectId: string; dir: string; files: string[] }>(await buyer.wolfpack(['showcase', 'get', free.id, '--out', out, '--json']));
    expect(got.listingId).toBe(free.id);
    expect(got.dir).toBe(out);
    const expected = await fsIndexOf(seller, sellerProject);
    expect(await fsIndexOf(buyer, got.projectId)).toEqual(expected);
    expect(got.files).toEqual(Object.keys(expected));
    expect(await filesIn(out)).toEqual(expected);
    const { projects } = projectsReply.parse(await apiGet(server.url, buyer.token, '/api/projects'));
    expect(projects.map((p) => p.id)).toContain(got.projectId);

    // A full folder is refused before anything is bought or written.
    expect(await buyer.wolfpack(['showcase', 'get', free.id, '--out', out])).toEqual({
      code: 2,
      stdout: '',
      stderr: `wolfpack: ${out} is not empty. Pick a new or empty folder for --out, or add --force to write the project over it.\n`,
    });
    const again = await buyer.wolfpack(['showcase', 'get', free.id, '--out', out, '--force']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toBe(`Wrote ${Object.keys(expected).length} files of "Todo app with tags" to ${out} (your copy is project ${got.projectId}).\n`);
    // The start of the id is enough, as for projects and capsules: the same copy again.
    const byPrefix = await buyer.wolfpack(['showcase', 'get', free.id.slice(0, 8), '--out', join(home, 'free-by-prefix'), '--json']);
    expect(json<{ listingId: string; projectId: string }>(byPrefix)).toMatchObject({ listingId: free.id, projectId: got.projectId });
    const after = projectsReply.parse(await apiGet(server.url, buyer.token, '/api/projects')).projects;
    expect(after).toHaveLength(projects.length);
  });

  it('a commercial listing prints its checkout link and exits 4; once paid, writes the bought copy', async () => {
    const out = join(home, 'paid-copy');
    const shown = await buyer.wolfpack(['showcase', 'get', paid.id, '--out', out]);
    expect(shown.code, shown.stderr).toBe(EXIT_PAYMENT_REQUIRED);
    expect(shown.stdout).toBe('');
    const match = /^wolfpack: This listing costs \$4\.99\. Open this link to buy it: (http:\/\/\S+)\n$/.exec(shown.stderr);
    expect(match, shown.stderr).not.toBeNull();
    const checkoutUrl = match![1]!;
    expect(stripe.sessionByUrl(checkoutUrl)).toMatchObject({ amount_total: 499, status: 'open' });
    await expect(readdir(out)).rejects.toThrow();

    const asJson = await buyer.wolfpack(['showcase', 'get', paid.id, '--out', out, '--json']);
    expect(asJson.code).toBe(EXIT_PAYMENT_REQUIRED);
    expect(JSON.parse(asJson.stdout)).toEqual({ listingId: paid.id, title: 'Invoice generator', priceCents: 499, checkoutUrl: expect.stringMatching(/^http:\/\/\S+$/) });
    expect(asJson.stderr).toBe('');

    // Paying on Stripe's page: the session completes and the signed webhook arrives (twice, as Stripe may).
    const session = stripe.sessionByUrl(checkoutUrl)!;
    const completed = stripe.completeSession(session.id);
    for (let i = 0; i < 2; i++) expect((await stripe.deliver(`${server.url}/api/billing/webhook`, completed, WEBHOOK_SECRET)).status).toBe(200);

    const got = json<{ projectId: string; files: string[] }>(await buyer.wolfpack(['showcase', 'get', paid.id, '--out', out, '--json']));
    expect(await filesIn(out)).toEqual(await fsIndexOf(seller, sellerProject));
    await mkdir(join(home, 'paid-again'));
    const again = json<{ projectId: string }>(await buyer.wolfpack(['showcase', 'get', paid.id, '--out', join(home, 'paid-again'), '--json']));
    expect(again.projectId).toBe(got.projectId);
  });

  it('needs a login; an unknown listing and the seller’s own listing are refused in one line, exit 1', async () => {
    expect(await anonymous(['showcase', 'get', free.id, '--out', join(home, 'x')])).toEqual({
      code: 1,
      stdout: '',
      stderr: `wolfpack: Not logged in to ${server.url}. Run \`wolfpack login\` first.\n`,
    });
    for (const id of ['00000000-0000-4000-8000-000000000000', '../etc', '0000000z', 'ffffffff']) {
      expect(await buyer.wolfpack(['showcase', 'get', id, '--out', join(home, 'y')])).toEqual({
        code: 1,
        stdout: '',
        stderr: 'wolfpack: This listing could not be found or has been removed.\n',
      });
    }
    expect(await seller.wolfpack(['showcase', 'get', free.id, '--out', join(home, 'z')])).toEqual({
      code: 1,
      stdout: '',
      stderr: "wolfpack: You can't buy your own listing.\n",
    });
  });
});
