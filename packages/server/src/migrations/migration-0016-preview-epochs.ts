import { Migration } from '@mikro-orm/migrations';

/**
 * A number per user and per project that revokes preview links: every link is signed with the sum
 * of its project's and its owner's, so "Revoke preview links" (the project's) and signing out
 * everywhere (the user's) end every link and preview cookie issued before, at once, on every
 * server. Sums only grow, so any bump changes the sum. No row is the same as 0.
 */
export class Migration0016PreviewEpochs extends Migration {
  override name = 'Migration0016PreviewEpochs';

  override up(): void {
    this.addSql(`create table "preview_epochs" ("subject_id" uuid not null primary key, "epoch" integer not null);`);
  }
}
