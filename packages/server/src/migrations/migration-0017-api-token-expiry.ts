import { Migration } from '@mikro-orm/migrations';

/** Named tokens for scripts and CI may expire; the tokens made before this never do. */
export class Migration0017ApiTokenExpiry extends Migration {
  override name = 'Migration0017ApiTokenExpiry';

  override up(): void {
    this.addSql(`alter table "api_tokens" add column "expires_at" timestamptz null;`);
  }
}
