import { Migration } from '@mikro-orm/migrations';

/**
 * Money: a wallet row per user (the balance, locked with FOR UPDATE), an append-only
 * ledger whose unique reference makes every movement idempotent, holds for the spend guardrail,
 * referral codes and rewards, Stripe checkouts and the events already handled, the last card.
 */
export class Migration0005Billing extends Migration {
  override name = 'Migration0005Billing';

  override up(): void {
    this.addSql(`alter table "users" add column "referral_code" varchar(16) null;`);
    this.addSql(`create unique index "users_referral_code_unique" on "users" ("referral_code");`);
    this.addSql(`alter table "users" add column "referred_by" uuid null references "users" ("id") on delete set null;`);
    this.addSql(`create index "users_referred_by_index" on "users" ("referred_by");`);
    this.addSql(`alter table "users" add column "status" varchar(16) not null default 'active';`);
    this.addSql(`alter table "users" add column "closed_at" timestamptz null;`);

    this.addSql(`create table "wallets" (
      "user_id" uuid not null primary key references "users" ("id") on delete cascade,
      "balance_cents" bigint not null check ("balance_cents" >= 0),
      "grant_cents" int not null default 0 check ("grant_cents" >= 0),
      "grant_month" varchar(7) null,
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null
    );`);

    // Kept when an account closes (user_id then names an anonymised user row): no cascade.
    this.addSql(`create table "ledger_entries" (
      "id" bigserial primary key,
      "user_id" uuid not null references "users" ("id"),
      "kind" varchar(32) not null,
      "amount_cents" bigint not null,
      "balance_after_cents" bigint not null,
      "grant_delta_cents" int not null default 0,
      "reference" varchar(200) not null,
      "conversation_id" uuid null,
      "enhancement_id" uuid null,
      "description" text null,
      "created_at" timestamptz not null
    );`);
    this.addSql(`create unique index "ledger_entries_reference_unique" on "ledger_entries" ("reference");`);
    this.addSql(`create index "ledger_entries_user_id_id_index" on "ledger_entries" ("user_id", "id" desc);`);
    this.addSql(`create index "ledger_entries_conversation_id_index" on "ledger_entries" ("conversation_id");`);

    this.addSql(`create table "holds" (
      "id" varchar(200) not null primary key,
      "user_id" uuid not null references "users" ("id"),
      "amount_cents" bigint not null check ("amount_cents" >= 0),
      "status" varchar(16) not null,
      "conversation_id" uuid null,
      "enhancement_id" uuid null,
      "created_at" timestamptz not null,
      "settled_at" timestamptz null
    );`);
    this.addSql(`create index "holds_user_id_status_index" on "holds" ("user_id", "status");`);

    this.addSql(`alter table "conversations" add column "max_cost_cents" int null;`);
    this.addSql(`alter table "engine_usage" add column "billed_cents" int not null default 0;`);
    this.addSql(`alter table "engine_usage" add column "purpose" varchar(16) not null default 'stage';`);
    this.addSql(`create index "engine_usage_user_id_id_index" on "engine_usage" ("user_id", "id" desc);`);

    this.addSql(`create table "referral_rewards" (
      "id" uuid not null primary key,
      "beneficiary_id" uuid not null references "users" ("id"),
      "referred_user_id" uuid not null references "users" ("id"),
      "event" varchar(16) not null,
      "level" int not null,
      "amount_cents" int not null,
      "decayed_cents" int not null default 0,
      "granted_at" timestamptz not null
    );`);
    this.addSql(`create unique index "referral_rewards_once" on "referral_rewards" ("referred_user_id", "event", "level");`);
    this.addSql(`create index "referral_rewards_beneficiary_id_index" on "referral_rewards" ("beneficiary_id");`);

    this.addSql(`create table "stripe_checkouts" (
      "id" varchar(255) not null primary key,
      "user_id" uuid not null references "users" ("id"),
      "purpose" varchar(16) not null,
      "pack_dollars" int null,
      "amount_cents" int not null,
      "status" varchar(16) not null,
      "reference_id" varchar(255) null,
      "created_at" timestamptz not null,
      "fulfilled_at" timestamptz null
    );`);
    this.addSql(`create index "stripe_checkouts_user_id_index" on "stripe_checkouts" ("user_id");`);
    this.addSql(`create table "stripe_events" (
      "id" varchar(255) not null primary key,
      "type" varchar(100) not null,
      "received_at" timestamptz not null
    );`);
    this.addSql(`create table "payment_cards" (
      "user_id" uuid not null primary key references "users" ("id") on delete cascade,
      "brand" varchar(32) not null,
      "last4" varchar(4) not null,
      "exp_month" int not null,
      "exp_year" int not null,
      "updated_at" timestamptz not null
    );`);
  }
}
