import { Migration } from '@mikro-orm/migrations';

/** Multi-pass enhancements with their steps; engine usage may belong to an enhancement instead of a run. */
export class Migration0003Enhancements extends Migration {
  override name = 'Migration0003Enhancements';

  override up(): void {
    this.addSql(`create table "enhancements" (
      "id" uuid not null primary key,
      "user_id" uuid not null references "users" ("id") on delete cascade,
      "source_prompt" text not null,
      "final_prompt" text not null,
      "cycles_run" int not null,
      "project_id" uuid null references "projects" ("id") on delete set null,
      "conversation_id" uuid null references "conversations" ("id") on delete set null,
      "created_at" timestamptz not null
    );`);
    this.addSql(`create index "enhancements_user_id_index" on "enhancements" ("user_id", "created_at" desc);`);
    this.addSql(`create index "enhancements_project_id_index" on "enhancements" ("project_id");`);
    this.addSql(`create table "enhancement_steps" (
      "id" uuid not null primary key,
      "enhancement_id" uuid not null references "enhancements" ("id") on delete cascade,
      "pass_number" int not null,
      "engine_order" int not null,
      "engine_key" varchar(64) not null,
      "engine_model" varchar(200) not null,
      "input_prompt" text not null,
      "output_prompt" text not null,
      "duration_ms" int not null,
      "ok" boolean not null,
      "error" text null
    );`);
    this.addSql(`create index "enhancement_steps_enhancement_id_index" on "enhancement_steps" ("enhancement_id");`);
    this.addSql(`alter table "engine_usage" alter column "conversation_id" drop not null;`);
    this.addSql(`alter table "engine_usage" add column "enhancement_id" uuid null references "enhancements" ("id") on delete cascade;`);
  }
}
