import { Migration } from '@mikro-orm/migrations';

/**
 * "Repair again": a run may do only some of the stages (a repair run does Proven Code
 * alone on the project's files). Null: all five, as every run before it.
 */
export class Migration0013RepairRuns extends Migration {
  override name = 'Migration0013RepairRuns';

  override up(): void {
    this.addSql(`alter table "conversations" add column "only_stages" jsonb null;`);
  }
}
