import { randomUUID } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/core';
import { AppError, listingCopyIdea, saleSplit } from '@wolfpack/core';
import type { LedgerService, WalletTx } from '../billing/ledger-service.js';
import type { Sql } from '../../db/plain-sql.js';
import { executeWrites, prepareVersion } from '../projects/version-writes.js';
import type { CheckoutRow, PaymentService } from '../billing/payment-service.js';

export interface ListingPurchasesOptions {
  clock: () => Date;
  platformSharePercent: number;
  /** A live listing by id (null: missing, deleted, or not a UUID). */
  find: (id: string) => Promise<ListingRow | null>;
}

/** A listing's row as the listing queries read it (listing-service.ts), the seller's username joined. */
export interface ListingRow {
  id: string;
  user_id: string;
  title: string;
  summary: string;
  visibility: 'free' | 'commercial';
  price_cents: number | string;
  currency: string;
  tech_stack: string[] | string;
  tags: string[] | string;
  demo_url: string | null;
  repo_url: string | null;
  prompt_original: string | null;
  prompt_enhanced_snapshot: string | null;
  file_count: number | string;
  cover_version: number | string;
  created_at: Date | string;
  username: string;
  purchased_project_id?: string | null;
  /** The viewer's purchase row, when they bought the listing (its copy may be deleted since). */
  purchase_id?: string | null;
}

export type PurchaseResult = { projectId: string } | { checkoutUrl: string };

export const OWN_LISTING = "You can't buy your own listing.";
export const ALREADY_BOUGHT = 'You already bought this listing: your copy is in Projects.';

/**
 * Buying a listing. A free one is copied into the buyer's projects at once; a commercial one goes
 * through Stripe Checkout and is copied by the signed webhook. Either way a buyer gets one copy per
 * listing whatever the concurrency: the purchase row is inserted with ON CONFLICT DO NOTHING on
 * UNIQUE(listing_id, buyer_id), in the same transaction as the copy, so a second concurrent call
 * waits on the first's row and then finds its project.
 *
 * The copy is written here in SQL rather than through ProjectService.saveRunResult: that method
 * opens a transaction of its own, and the copy must commit with the purchase row (and, when paid,
 * with the checkout's 'paid' mark in the buyer's wallet transaction). A second transaction inside
 * the first would also wait forever on PGlite, which has a single connection.
 */
export class ListingPurchases {
  constructor(
    private readonly orm: MikroORM,
    private readonly ledger: LedgerService,
    private readonly payments: PaymentService,
    private readonly options: ListingPurchasesOptions,
  ) {
    payments.registerFulfilment(
      'listing',
      (tx, checkout) => this.fulfil(tx, checkout),
      (checkout) => this.postProceeds(checkout.id),
    );
  }

  /** POST /api/listings/{id}/purchase */
  async purchase(buyerId: string, listingId: string, origin: string, requestKey?: string): Promise<PurchaseResult> {
    const listing = await this.options.find(listingId);
    if (!listing) throw new AppError('NOT_FOUND', 'This listing could not be found or has been removed.');
    if (listing.user_id === buyerId) throw new AppError('BAD_REQUEST', OWN_LISTING);
    if (listing.visibility === 'free') {
      const copy = await this.orm.em.fork().transactional((em) => this.copyOnce(em as Sql, listing, buyerId, null));
      return { projectId: copy.projectId };
    }
    const bought = await (this.orm.em.fork() as Sql).execute<Array<{ id: string }>>('select id from listing_purchases where listing_id = ? and buyer_id = ?', [listing.id, buyerId]);
    if (bought.length > 0) throw new AppError('CONFLICT', ALREADY_BOUGHT);
    const session = await this.payments.startCheckout({
      userId: buyerId,
      purpose: 'listing',
      referenceId: listing.id,
      amountCents: Number(listing.price_cents),
      productName: `Showcase: ${listing.title}`.slice(0, 250),
      successUrl: `${origin}/showcase/${listing.id}?checkout=success`,
      cancelUrl: `${origin}/showcase/${listing.id}?checkout=cancelled`,
      idempotencyKey: `listing:${listing.id}:${buyerId}:${requestKey ?? randomUUID()}`,
    });
    return { checkoutUrl: session.url };
  }

  /**
   * The paid checkout's delivery, inside the buyer's wallet transaction that also marks it paid:
   * the buyer's copy and the sale's figures are recorded here, once. The listing may have been
   * taken down since the buyer paid: the snapshot is still there and is delivered all the same.
   */
  private async fulfil(tx: WalletTx, checkout: CheckoutRow): Promise<void> {
    const sql = tx.em as Sql;
    const rows = await sql.execute<ListingRow[]>('select l.id, l.user_id, l.title, l.summary from listings l where l.id = ?', [checkout.referenceId]);
    const listing = rows[0];
    if (!listing) throw new Error(`Checkout ${checkout.id} is for listing ${checkout.referenceId}, which does not exist`);
    const copy = await this.copyOnce(sql, listing, checkout.userId, checkout);
    if (!copy.created) {
      // Paid twice for one listing (two checkouts opened before either completed): the second
      // payment becomes credits rather than vanishing; the seller is paid for one sale.
      await tx.post({ kind: 'refund', amountCents: checkout.amountCents, reference: `listing-refund:${checkout.id}`, description: `Already bought: ${listing.title}` });
    }
  }

  /**
   * The seller's proceeds (the price less the platform's share), posted after the buyer's
   * transaction committed, in the seller's own wallet transaction. LedgerService locks one wallet
   * per transaction; locking the seller's inside the buyer's would need a second connection (none
   * on PGlite) and would lock two wallets in an order another sale can reverse (a deadlock). The
   * reference `listing-sale:{checkoutId}` makes the entry idempotent, and `proceeds_posted_at`
   * under the same lock says it is done; PaymentService runs this on every paid delivery, so a
   * crash in between is completed by Stripe's redelivery.
   */
  private async postProceeds(checkoutId: string): Promise<void> {
    const pending = await (this.orm.em.fork() as Sql).execute<Array<{ seller_id: string | null }>>(
      'select seller_id from listing_purchases where checkout_id = ? and proceeds_posted_at is null',
      [checkoutId],
    );
    const sellerId = pending[0]?.seller_id;
    if (!sellerId) return;
    await this.ledger.transact(sellerId, async (tx) => {
      const sql = tx.em as Sql;
      const rows = await sql.execute<Array<{ seller_cents: number; proceeds_posted_at: Date | null; title: string }>>(
        `select p.seller_cents, p.proceeds_posted_at, l.title from listing_purchases p join listings l on l.id = p.listing_id
         where p.checkout_id = ? for update of p`,
        [checkoutId],
      );
      const row = rows[0];
      if (!row || row.proceeds_posted_at) return;
      await tx.post({ kind: 'listing_sale', amountCents: Number(row.seller_cents), reference: `listing-sale:${checkoutId}`, description: `Showcase sale: ${row.title}` });
      await sql.execute('update listing_purchases set proceeds_posted_at = ? where checkout_id = ?', [this.options.clock(), checkoutId]);
    });
  }

  /**
   * The buyer's copy of a listing, made once: the purchase row is claimed first (a concurrent
   * claim waits for this transaction, then finds the row), then the project and its files. A copy
   * the buyer has deleted since is made again.
   */
  private async copyOnce(sql: Sql, listing: Pick<ListingRow, 'id' | 'user_id' | 'title' | 'summary'>, buyerId: string, checkout: CheckoutRow | null): Promise<{ projectId: string; created: boolean }> {
    const now = this.options.clock();
    const split = checkout ? saleSplit(checkout.amountCents, this.options.platformSharePercent) : { platformCents: 0, sellerCents: 0 };
    const claimed = await sql.execute<Array<{ id: string }>>(
      `insert into listing_purchases (id, listing_id, buyer_id, project_id, checkout_id, status, amount_cents, seller_id, seller_cents, proceeds_posted_at, created_at)
       values (?, ?, ?, null, ?, 'completed', ?, ?, ?, null, ?) on conflict (listing_id, buyer_id) do nothing returning id`,
      [randomUUID(), listing.id, buyerId, checkout?.id ?? null, checkout?.amountCents ?? 0, checkout ? listing.user_id : null, split.sellerCents, now],
    );
    const rows = await sql.execute<Array<{ id: string; project_id: string | null; live: string | null }>>(
      `select p.id, p.project_id, pr.id as live from listing_purchases p left join projects pr on pr.id = p.project_id
       where p.listing_id = ? and p.buyer_id = ? for update of p`,
      [listing.id, buyerId],
    );
    const purchase = rows[0]!;
    if (purchase.live) return { projectId: purchase.live, created: false };
    const projectId = randomUUID();
    await sql.execute(
      `insert into projects (id, user_id, idea, file_count, total_bytes, folder_id, version, session_count, total_processing_time_ms, total_cost_millicents, github_repo, created_at, updated_at)
       select ?, ?, ?, count(*), coalesce(sum(size), 0), null, 1, 0, 0, 0, null, ?, ? from listing_files where listing_id = ?`,
      [projectId, buyerId, listingCopyIdea(listing.title, listing.summary), now, now, listing.id],
    );
    await sql.execute('insert into project_files (project_id, path, content, size) select ?, path, content, size from listing_files where listing_id = ?', [projectId, listing.id]);
    // The copy's version 1, so its history starts where the buyer's own changes will.
    const files = await sql.execute<Array<{ path: string; content: string }>>('select path, content from listing_files where listing_id = ?', [listing.id]);
    const first = prepareVersion({
      projectId,
      version: 1,
      idea: listingCopyIdea(listing.title, listing.summary),
      source: { kind: 'import', origin: `the Community Showcase: ${listing.title}` },
      conversationId: null,
      createdAt: now,
      files: Object.fromEntries(files.map((file) => [file.path, file.content])),
      previous: new Map(),
    });
    await executeWrites(sql, first.writes);
    await sql.execute('update listing_purchases set project_id = ? where id = ?', [projectId, purchase.id]);
    return { projectId, created: claimed.length > 0 };
  }
}
