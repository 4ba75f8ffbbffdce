import { Migration } from '@mikro-orm/migrations';

/** Runs (conversations) with their stored events and engine usage; projects with versions. */
export class Migration0002RunsProjects extends Migration {
  override name = 'Migration0002RunsProjects';

  override up(): void {
    this.addSql(`create table "projects" (
      "id" uuid not null primary key,
      "user_id" uuid not null references "users" ("id") on delete cascade,
      "idea" text not null,
      "fs_index" jsonb not null,
      "file_count" int not null default 0,
      "folder_id" uuid null,
      "version" int not null default 1,
      "session_count" int not null default 0,
      "total_processing_time_ms" bigint not null default 0,
      "total_cost_millicents" bigint not null default 0,
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null
    );`);
    this.addSql(`create index "projects_user_id_index" on "projects" ("user_id", "updated_at" desc);`);
    this.addSql(`create table "project_versions" (
      "project_id" uuid not null references "projects" ("id") on delete cascade,
      "version" int not null,
      "idea" text not null,
      "fs_index" jsonb not null,
      "conversation_id" uuid null,
      "created_at" timestamptz not null,
      primary key ("project_id", "version")
    );`);
    this.addSql(`create table "conversations" (
      "id" uuid not null primary key,
      "user_id" uuid not null references "users" ("id") on delete cascade,
      "idea" text not null,
      "model_order" jsonb not null,
      "cycles" int not null,
      "attachments" jsonb not null,
      "project_id" uuid null references "projects" ("id") on delete set null,
      "status" varchar(16) not null,
      "error" text null,
      "checkpoint" jsonb null,
      "stages" jsonb not null,
      "execution_ms" bigint not null default 0,
      "instance_id" varchar(64) null,
      "heartbeat_at" timestamptz null,
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null,
      "completed_at" timestamptz null
    );`);
    this.addSql(`create index "conversations_user_id_index" on "conversations" ("user_id", "created_at" desc);`);
    this.addSql(`create index "conversations_status_index" on "conversations" ("status");`);
    this.addSql(`create table "run_events" (
      "conversation_id" uuid not null references "conversations" ("id") on delete cascade,
      "seq" int not null,
      "data" jsonb not null,
      "created_at" timestamptz not null,
      primary key ("conversation_id", "seq")
    );`);
    this.addSql(`create table "engine_usage" (
      "id" bigserial primary key,
      "user_id" uuid not null references "users" ("id") on delete cascade,
      "conversation_id" uuid not null references "conversations" ("id") on delete cascade,
      "cycle" int not null,
      "stage" varchar(32) not null,
      "engine_key" varchar(64) not null,
      "provider" varchar(16) not null,
      "model" varchar(200) not null,
      "input_tokens" int not null,
      "output_tokens" int not null,
      "total_tokens" int not null,
      "duration_ms" int not null,
      "attempts" int not null,
      "cost_millicents" bigint not null,
      "created_at" timestamptz not null
    );`);
    this.addSql(`create index "engine_usage_user_id_index" on "engine_usage" ("user_id");`);
    this.addSql(`create index "engine_usage_conversation_id_index" on "engine_usage" ("conversation_id");`);
  }
}
