import { Migration } from '@mikro-orm/migrations';

/**
 * Proven Code's verification record, one per project version: what each check ran
 * on and found. Kept with the project's history; a re-check replaces the current version's.
 */
export class Migration0012ProjectVerifications extends Migration {
  override name = 'Migration0012ProjectVerifications';

  override up(): void {
    this.addSql(`create table "project_verifications" (
      "project_id" uuid not null references "projects" ("id") on delete cascade,
      "version" int not null,
      "verdict" varchar(16) not null,
      "record" jsonb not null,
      "created_at" timestamptz not null default now(),
      primary key ("project_id", "version")
    );`);
  }
}
