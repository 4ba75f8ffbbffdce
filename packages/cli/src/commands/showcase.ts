import { resolve } from 'node:path';
import { AppError, formatCents, isAppError, listingReply, listingsReply, purchaseReply, type Listing } from '@wolfpack/core';
import { ApiClient } from '../api.js';
import { readConfig } from '../config.js';
import { explainLoggedOut, loggedInApi, serverFor, spinnerOptions, type CommandContext } from '../context.js';
import { EXIT_PAYMENT_REQUIRED, ExitCode } from '../exit-code.js';
import { plural } from '../format.js';
import { isFullId, pickById } from '../resources.js';
import { listingsPath, listingsTable, nextPageHint, NO_LISTINGS, SHOWCASE_MAX_PAGE_SIZE, SHOWCASE_PAGE_SIZE, type ShowcaseSort } from '../showcase-format.js';
import { withSpinner } from '../ui/spinner.js';
import { UsageError } from '../usage-error.js';
import { checkOutputDir } from '../write-project.js';
import { pullProject } from './pull.js';

export interface ShowcaseListOptions {
  search?: string | undefined;
  /** Free listings only (commander refuses it together with `commercial`). */
  free?: boolean | undefined;
  /** Commercial listings only. */
  commercial?: boolean | undefined;
  /** @default 'newest' */
  sort?: ShowcaseSort | undefined;
  /** 1 to 100. @default SHOWCASE_PAGE_SIZE */
  limit?: number | undefined;
  /** From 1. @default 1 */
  page?: number | undefined;
}

/**
 * `wolfpack showcase ls`: one page of the Community Showcase (GET /api/listings), which needs no
 * login, so no token is sent. A table of id, title, price or FREE and the tech stack; `--json`:
 * `{listings, page, limit}` with the listings as the server sends them.
 */
export async function showcaseList(options: ShowcaseListOptions, context: CommandContext): Promise<void> {
  // commander's .conflicts() refuses both flags on the command line; this guards direct callers.
  if (options.free && options.commercial) throw new UsageError('Choose --free or --commercial, not both (leave both out for all listings).');
  const filter = {
    search: options.search,
    type: options.free ? ('free' as const) : options.commercial ? ('commercial' as const) : undefined,
    sort: options.sort,
    limit: options.limit,
    page: options.page,
  };
  const api = new ApiClient({ server: serverFor(context, await readConfig(context.configPath)) });
  const { listings } = await withSpinner('Fetching listings', () => api.get(listingsPath(filter), { reply: listingsReply }), spinnerOptions(context));
  const page = filter.page ?? 1;
  const limit = filter.limit ?? SHOWCASE_PAGE_SIZE;
  if (context.output.json) return context.output.result('', { listings, page, limit });

  if (listings.length === 0) {
    context.io.stdout.write(`${page > 1 ? `No listings on page ${page}.` : NO_LISTINGS}\n`);
    return;
  }
  const [header, ...lines] = listingsTable(listings);
  const hint = nextPageHint(listings.length, filter);
  if (hint !== undefined) lines.push('', hint);
  context.io.stdout.write(`${[context.output.style('bold', header!), ...lines].join('\n')}\n`);
}

export interface ShowcaseGetOptions {
  /** The folder to write the files into (created when missing). */
  out: string;
  /** Write into a folder that already has files in it. */
  force?: boolean | undefined;
}

/**
 * `wolfpack showcase get ID --out DIR`: takes a copy of a free listing into the user's projects
 * (POST /api/listings/{id}/purchase, once per buyer: again answers the same project) and writes
 * its files into DIR exactly as `wolfpack pull` does. A commercial listing answers a Stripe
 * Checkout link instead: the CLI prints it and exits 4 (payment needed, as a build out of
 * credits does); once bought, the same command writes the bought copy. `--json`: `{listingId,
 * projectId, dir, files}`, or `{listingId, title, priceCents, checkoutUrl}` with exit 4.
 */
export async function showcaseGet(id: string, options: ShowcaseGetOptions, context: CommandContext): Promise<void> {
  const given = checkedListingId(id);
  const dir = resolve(context.io.cwd, options.out);
  // Before anything is bought: a full folder is the caller's mistake, whatever the listing.
  await checkOutputDir(dir, { force: options.force });
  const api = await loggedInApi(context);
  const signedIn = <T>(call: () => Promise<T>) =>
    call().catch((error: unknown) => {
      throw explainLoggedOut(error, api.server);
    });

  // Signed in, the listing names the copy already bought (purchasedProjectId): no second purchase.
  const { listing } = await withSpinner(
    'Fetching the listing',
    () =>
      signedIn(async () => {
        const listingId = isFullId(given) ? given : (await listingByPrefix(api, given)).id;
        return api.get(`/api/listings/${encodeURIComponent(listingId)}`, { reply: listingReply });
      }),
    spinnerOptions(context),
  );
  const projectId = listing.purchasedProjectId ?? (await purchase(api, listing, signedIn, context));

  const { result } = await pullProject(api, projectId, dir, options, context);
  context.output.result(`Wrote ${plural(result.written.length, 'file')} of "${listing.title}" to ${result.dir} (your copy is project ${projectId}).`, {
    listingId: listing.id,
    projectId,
    dir: result.dir,
    files: result.written,
  });
}

/** The buyer's project for a free listing; for a commercial one, the checkout link and exit 4. */
async function purchase(api: ApiClient, listing: Listing, signedIn: <T>(call: () => Promise<T>) => Promise<T>, context: CommandContext): Promise<string> {
  const path = `/api/listings/${encodeURIComponent(listing.id)}`;
  let reply;
  try {
    reply = await withSpinner(
      listing.visibility === 'free' ? 'Copying the listing into your projects' : 'Opening a checkout',
      () => signedIn(() => api.post(`${path}/purchase`, { reply: purchaseReply })),
      spinnerOptions(context),
    );
  } catch (error) {
    // Bought between our two calls (or by a server that answers 409 rather than the copy): use it.
    if (!(isAppError(error) && error.code === 'CONFLICT')) throw error;
    const bought = (await api.get(path, { reply: listingReply })).listing.purchasedProjectId;
    if (!bought) throw error;
    return bought;
  }

  if ('projectId' in reply) return reply.projectId;
  if ('checkoutUrl' in reply) {
    const price = formatCents(listing.priceCents);
    if (context.output.json) {
      context.output.result('', { listingId: listing.id, title: listing.title, priceCents: listing.priceCents, checkoutUrl: reply.checkoutUrl });
      throw new ExitCode(EXIT_PAYMENT_REQUIRED);
    }
    throw new ExitCode(EXIT_PAYMENT_REQUIRED, `This listing costs ${price}. Open this link to buy it: ${reply.checkoutUrl}`);
  }
  // The spec's client shows the reply's error, or 'Purchase failed' when there is none.
  throw new AppError('BAD_GATEWAY', reply.error || 'Purchase failed');
}

/** The server's sentence for a listing that is not (or no longer) in the showcase. */
const LISTING_NOT_FOUND = 'This listing could not be found or has been removed.';

/** A listing id as typed; only id characters may reach a URL path. */
function checkedListingId(given: string): string {
  const id = given.trim();
  if (id === '') throw new UsageError('Give the listing\'s id, as `wolfpack showcase ls` shows it.');
  if (!/^[A-Za-z0-9_-]{1,128}$/.test(id)) throw new AppError('NOT_FOUND', LISTING_NOT_FOUND);
  return id;
}

/**
 * The one listing whose id starts with `prefix`, as projects and capsules are found by the start
 * of their ids. The server looks listings up by whole id only, so the CLI reads the showcase a
 * page at a time (the most the server answers at once) until the last, short, page.
 */
async function listingByPrefix(api: ApiClient, prefix: string): Promise<Listing> {
  const listings: Listing[] = [];
  for (let page = 1; ; page += 1) {
    const batch = (await api.get(listingsPath({ limit: SHOWCASE_MAX_PAGE_SIZE, page }), { reply: listingsReply })).listings;
    listings.push(...batch);
    if (batch.length < SHOWCASE_MAX_PAGE_SIZE) break;
  }
  return pickById(prefix.toLowerCase(), listings, 'listing', LISTING_NOT_FOUND);
}

export { listingLimit, pageNumber } from '../command-options.js';
