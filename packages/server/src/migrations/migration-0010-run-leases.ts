import { Migration } from '@mikro-orm/migrations';

/**
 * Runs continue by themselves. `heartbeat_at` becomes a lease the owning process renews
 * every second; a live process takes over a run whose lease expired. `attempt` counts how often
 * the run was launched (start, resume, takeover) and keys its holds and usage records, so the same
 * stage of the same attempt can never be charged twice; `takeovers` counts automatic takeovers
 * since the last start or resume, so a run that kills its server every time stops being retried.
 */
export class Migration0010RunLeases extends Migration {
  override name = 'Migration0010RunLeases';

  override up(): void {
    this.addSql(`alter table "conversations" add column "attempt" int not null default 0;`);
    this.addSql(`alter table "conversations" add column "takeovers" int not null default 0;`);
    // The lease scan looks only at running runs, oldest lease first.
    this.addSql(`create index "conversations_lease_index" on "conversations" ("heartbeat_at") where "status" = 'running';`);
    this.addSql(`alter table "engine_usage" add column "call_key" varchar(64) null;`);
    this.addSql(`create unique index "engine_usage_call_key_unique" on "engine_usage" ("conversation_id", "call_key") where "call_key" is not null;`);
  }
}
