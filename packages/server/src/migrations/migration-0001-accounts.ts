import { Migration } from '@mikro-orm/migrations';

/** Accounts, server-side sessions, personal API tokens and the sign-in throttle. */
export class Migration0001Accounts extends Migration {
  override name = 'Migration0001Accounts';

  override up(): void {
    this.addSql(`create table "users" (
      "id" uuid not null primary key,
      "username" varchar(64) not null,
      "username_key" varchar(64) not null unique,
      "password_hash" text not null,
      "plan" varchar(32) not null default 'Free',
      "created_at" timestamptz not null
    );`);
    this.addSql(`create table "sessions" (
      "key_hash" varchar(64) not null primary key,
      "data" jsonb not null,
      "user_id" uuid null references "users" ("id") on delete cascade,
      "created_at" timestamptz not null,
      "expires_at" timestamptz not null
    );`);
    this.addSql(`create index "sessions_user_id_index" on "sessions" ("user_id");`);
    this.addSql(`create index "sessions_expires_at_index" on "sessions" ("expires_at");`);
    this.addSql(`create table "api_tokens" (
      "id" uuid not null primary key,
      "user_id" uuid not null references "users" ("id") on delete cascade,
      "name" varchar(100) not null,
      "token_hash" varchar(64) not null unique,
      "created_at" timestamptz not null,
      "last_used_at" timestamptz null,
      "revoked_at" timestamptz null
    );`);
    this.addSql(`create index "api_tokens_user_id_index" on "api_tokens" ("user_id");`);
    this.addSql(`create table "login_failures" (
      "id" bigserial primary key,
      "username_key" varchar(64) not null,
      "failed_at" timestamptz not null
    );`);
    this.addSql(`create index "login_failures_username_key_failed_at_index" on "login_failures" ("username_key", "failed_at");`);
  }
}
