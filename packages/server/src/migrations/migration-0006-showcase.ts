import { Migration } from '@mikro-orm/migrations';

/**
 * Showcase: listings with their cover and a full-text search column, the snapshot of the
 * project's files taken when it was listed, and purchases (one per buyer and listing).
 *
 * Search is a stored generated tsvector with a GIN index: it is core PostgreSQL, so PGlite builds
 * and uses it exactly like a server does (pg_trgm is an extension PGlite may not ship). The
 * 'simple' configuration lower-cases without stemming or stop words, so "React" finds "react" and
 * a tag is matched as written; the query side adds prefix matching.
 */
export class Migration0006Showcase extends Migration {
  override name = 'Migration0006Showcase';

  override up(): void {
    this.addSql(`create table "listings" (
      "id" uuid not null primary key,
      "user_id" uuid not null references "users" ("id") on delete cascade,
      "project_id" uuid null references "projects" ("id") on delete set null,
      "title" varchar(120) not null,
      "summary" text not null,
      "visibility" varchar(16) not null check ("visibility" in ('free', 'commercial')),
      "price_cents" int not null default 0 check ("price_cents" >= 0),
      "currency" varchar(3) not null default 'usd',
      "tech_stack" jsonb not null default '[]',
      "tags" jsonb not null default '[]',
      "tags_text" text not null default '',
      "demo_url" varchar(500) null,
      "repo_url" varchar(500) null,
      "prompt_original" text null,
      "prompt_enhanced_snapshot" text null,
      "file_count" int not null default 0,
      "cover_bytes" bytea null,
      "cover_type" varchar(32) null,
      "cover_version" int not null default 1,
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null,
      "deleted_at" timestamptz null,
      "search" tsvector generated always as (
        to_tsvector('simple'::regconfig, "title" || ' ' || "summary" || ' ' || "tags_text")
      ) stored,
      constraint "listings_commercial_price" check ("visibility" = 'free' or "price_cents" >= 100)
    );`);
    // Only live listings are ever browsed: partial indexes stay small and serve every sort with
    // its id tiebreak, forwards (desc) or backwards (asc), with or without the type filter.
    // fastupdate off: listings are written rarely and searched often; a pending list (flushed
    // only by vacuum) would be scanned linearly by every search until then.
    this.addSql(`create index "listings_search_index" on "listings" using gin ("search") with (fastupdate = off) where "deleted_at" is null;`);
    this.addSql(`create index "listings_created_at_index" on "listings" ("created_at", "id") where "deleted_at" is null;`);
    this.addSql(`create index "listings_price_cents_index" on "listings" ("price_cents", "id") where "deleted_at" is null;`);
    this.addSql(`create index "listings_visibility_created_at_index" on "listings" ("visibility", "created_at", "id") where "deleted_at" is null;`);
    this.addSql(`create index "listings_visibility_price_cents_index" on "listings" ("visibility", "price_cents", "id") where "deleted_at" is null;`);
    this.addSql(`create index "listings_user_id_index" on "listings" ("user_id");`);

    this.addSql(`create table "listing_files" (
      "listing_id" uuid not null references "listings" ("id") on delete cascade,
      "path" varchar(255) not null,
      "content" text not null,
      "size" int not null,
      primary key ("listing_id", "path")
    );`);

    this.addSql(`create table "listing_purchases" (
      "id" uuid not null primary key,
      "listing_id" uuid not null references "listings" ("id") on delete cascade,
      "buyer_id" uuid not null references "users" ("id") on delete cascade,
      "project_id" uuid null references "projects" ("id") on delete set null,
      "checkout_id" varchar(255) null,
      "status" varchar(16) not null,
      "amount_cents" int not null default 0,
      "seller_id" uuid null,
      "seller_cents" int not null default 0,
      "proceeds_posted_at" timestamptz null,
      "created_at" timestamptz not null,
      constraint "listing_purchases_once" unique ("listing_id", "buyer_id")
    );`);
    this.addSql(`create index "listing_purchases_buyer_id_index" on "listing_purchases" ("buyer_id");`);
    this.addSql(`create unique index "listing_purchases_checkout_id_unique" on "listing_purchases" ("checkout_id");`);
  }
}
