import { Migration } from '@mikro-orm/migrations';

/**
 * Drops the per-user project list version of migration 0015 (its table, the deferred triggers on
 * projects and folders, and their functions): the list is revalidated over HTTP instead (an ETag
 * of each page, a 304 while it is unchanged), so no write needs to bump a number any more.
 */
export class Migration0018DropProjectListVersions extends Migration {
  override name = 'Migration0018DropProjectListVersions';

  override up(): void {
    for (const table of ['projects', 'folders']) this.addSql(`drop trigger if exists "${table}_list_version" on "${table}";`);
    this.addSql(`drop function if exists "project_list_bump"();`);
    this.addSql(`drop function if exists "project_list_bump_user"(uuid);`);
    this.addSql(`drop table if exists "project_list_versions";`);
  }
}
