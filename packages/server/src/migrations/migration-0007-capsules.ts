import { Migration } from '@mikro-orm/migrations';

/**
 * PackCast capsules: one per completed run (conversation_id unique, so a resumed or
 * re-reported run never records twice), their timeline events, views (one row per viewer per hour:
 * the unique key is what makes a view count once) and shares, and the salt viewer keys are hashed
 * with so no raw IP address is ever stored.
 */
export class Migration0007Capsules extends Migration {
  override name = 'Migration0007Capsules';

  override up(): void {
    this.addSql(`create table "capsules" (
      "id" uuid not null primary key,
      "user_id" uuid not null references "users" ("id") on delete cascade,
      "conversation_id" uuid not null references "conversations" ("id") on delete cascade,
      "project_id" uuid null references "projects" ("id") on delete set null,
      "slug" varchar(120) not null,
      "share_slug" varchar(120) not null,
      "title" varchar(200) not null,
      "project_name" varchar(200) not null,
      "description" text null,
      "original_prompt" text not null,
      "enhanced_prompt" text null,
      "final_code" text null,
      "is_public" boolean not null default false,
      "view_count" int not null default 0,
      "share_count" int not null default 0,
      "metrics" jsonb not null,
      "created_at" timestamptz not null,
      "published_at" timestamptz null
    );`);
    this.addSql(`create unique index "capsules_conversation_id_unique" on "capsules" ("conversation_id");`);
    this.addSql(`create unique index "capsules_slug_unique" on "capsules" ("slug");`);
    this.addSql(`create index "capsules_user_id_created_at_index" on "capsules" ("user_id", "created_at" desc);`);
    // Latest: public ones newest first. Trending reads the same public rows and the counts beside them.
    this.addSql(`create index "capsules_public_latest_index" on "capsules" ("created_at" desc, "id" desc) where "is_public";`);
    this.addSql(`create index "capsules_public_trending_index" on "capsules" ("created_at" desc) include ("view_count", "share_count") where "is_public";`);

    this.addSql(`create table "capsule_events" (
      "id" uuid not null primary key,
      "capsule_id" uuid not null references "capsules" ("id") on delete cascade,
      "seq" int not null,
      "event_type" varchar(32) not null,
      "timestamp" timestamptz not null,
      "data" jsonb not null
    );`);
    this.addSql(`create unique index "capsule_events_capsule_id_seq_unique" on "capsule_events" ("capsule_id", "seq");`);

    this.addSql(`create table "capsule_views" (
      "capsule_id" uuid not null references "capsules" ("id") on delete cascade,
      "viewer_key" varchar(64) not null,
      "hour_bucket" timestamptz not null,
      "created_at" timestamptz not null,
      primary key ("capsule_id", "viewer_key", "hour_bucket")
    );`);

    this.addSql(`create table "capsule_shares" (
      "id" uuid not null primary key,
      "capsule_id" uuid not null references "capsules" ("id") on delete cascade,
      "user_id" uuid null references "users" ("id") on delete set null,
      "viewer_key" varchar(128) not null,
      "method" varchar(16) not null,
      "referral_code" varchar(32) null,
      "counted" boolean not null,
      "created_at" timestamptz not null
    );`);
    this.addSql(`create index "capsule_shares_capsule_id_index" on "capsule_shares" ("capsule_id", "viewer_key", "method", "created_at" desc);`);

    this.addSql(`create table "capsule_secrets" (
      "id" int not null primary key,
      "viewer_salt" varchar(128) not null
    );`);
  }
}
