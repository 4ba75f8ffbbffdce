import { Migration } from '@mikro-orm/migrations';

/**
 * The cost-comparison lab: one row per experiment, linked to the real pipeline run it
 * started. The Wolfpack figures are copied from that run once it completes; the Replit-only timer
 * and the submitted costs are the user's own entries. Savings are kept in hundredths of a percent
 * (an integer), so the stored value is exactly the one the core formula computed.
 */
export class Migration0009Experiments extends Migration {
  override name = 'Migration0009Experiments';

  override up(): void {
    this.addSql(`create table "experiments" (
      "id" uuid not null primary key,
      "user_id" uuid not null references "users" ("id") on delete cascade,
      "conversation_id" uuid null references "conversations" ("id") on delete set null,
      "project_name" varchar(200) not null,
      "test_prompt" text not null,
      "prompt_type" varchar(16) not null,
      "status" varchar(32) not null,
      "wolfpack_cost_cents" bigint null,
      "wolfpack_processing_time_ms" bigint null,
      "wolfpack_replit_assembly_cost_cents" bigint null,
      "wolfpack_replit_assembly_time_ms" bigint null,
      "replit_only_started_at" timestamptz null,
      "replit_only_completed_at" timestamptz null,
      "replit_only_total_time_ms" bigint null,
      "replit_only_cost_cents" bigint null,
      "savings_hundredths" bigint null,
      "costs_submitted_at" timestamptz null,
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null
    );`);
    this.addSql(`create index "experiments_user_id_created_at_index" on "experiments" ("user_id", "created_at" desc);`);
  }

  override down(): void {
    this.addSql(`drop table if exists "experiments" cascade;`);
  }
}
