import { Migration } from '@mikro-orm/migrations';

/**
 * njin: API keys (only their SHA-256 is kept, with a short prefix to list them by; a
 * token bucket per key for the rate limit, in the database so it holds across processes) and one
 * licence per user, driven by Stripe's subscription events. `last_event_at` is the creation time of
 * the newest Stripe event applied, so an older event delivered late never moves the period end
 * backwards or revives an ended subscription.
 */
export class Migration0008Njin extends Migration {
  override name = 'Migration0008Njin';

  override up(): void {
    this.addSql(`create table "njin_api_keys" (
      "id" uuid not null primary key,
      "user_id" uuid not null references "users" ("id") on delete cascade,
      "prefix" varchar(16) not null,
      "key_hash" varchar(64) not null,
      "usage_count" int not null default 0,
      "rate_tokens" double precision not null,
      "rate_updated_at" timestamptz not null,
      "created_at" timestamptz not null,
      "last_used_at" timestamptz null,
      "revoked_at" timestamptz null
    );`);
    this.addSql(`create unique index "njin_api_keys_key_hash_unique" on "njin_api_keys" ("key_hash");`);
    this.addSql(`create index "njin_api_keys_user_id_index" on "njin_api_keys" ("user_id", "created_at" desc);`);

    this.addSql(`create table "njin_licences" (
      "user_id" uuid not null primary key references "users" ("id") on delete cascade,
      "status" varchar(32) not null,
      "current_period_end" timestamptz null,
      "stripe_subscription_id" varchar(255) null,
      "stripe_customer_id" varchar(255) null,
      "cancel_at_period_end" boolean not null default false,
      "cancel_synced_at" timestamptz null,
      "usage_count" int not null default 0,
      "last_event_at" timestamptz null,
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null
    );`);
    this.addSql(`create unique index "njin_licences_stripe_subscription_id_unique" on "njin_licences" ("stripe_subscription_id");`);

    // Every paid licence invoice (revenue for the admin metrics): one row per invoice, however often its event comes.
    this.addSql(`create table "njin_payments" (
      "invoice_id" varchar(255) not null primary key,
      "user_id" uuid not null references "users" ("id") on delete cascade,
      "subscription_id" varchar(255) not null,
      "amount_cents" int not null,
      "currency" varchar(3) not null,
      "period_end" timestamptz null,
      "paid_at" timestamptz not null
    );`);
    this.addSql(`create index "njin_payments_paid_at_index" on "njin_payments" ("paid_at");`);

    // An njin iteration is recorded as a capsule, and has no run: no conversation to point at.
    this.addSql(`alter table "capsules" alter column "conversation_id" drop not null;`);

    // Subscriptions that ended: a late or replayed event of one never revives the licence.
    this.addSql(`create table "njin_ended_subscriptions" (
      "id" varchar(255) not null primary key,
      "user_id" uuid null references "users" ("id") on delete cascade,
      "ended_at" timestamptz not null
    );`);
  }
}
