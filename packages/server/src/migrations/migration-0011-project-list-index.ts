import { Migration } from '@mikro-orm/migrations';

/**
 * GET /api/projects pages by keyset (10,000 projects per user): every order of the
 * list reads one index from the cursor on, never the user's whole set. The web lists one folder at
 * a time (root by default), so the three sort families also lead with the folder; the plain list
 * of every folder (history, Load Latest, the CLI) has its own index by last update.
 *
 * The expressions must stay identical to `FOLDER_KEY_SQL` and `TITLE_KEY_SQL` in
 * services/projects/project-list-query.ts, or the planner stops using these indexes. The folder is
 * indexed with the root as the nil UUID: `folder_id is null` is no equality to the planner, so
 * the order after it would not count as the index's. The title is the idea's first non-blank
 * line, lowercased, its first 200 characters, 'untitled project' when empty, compared byte-wise
 * (collation C) so PGlite and every PostgreSQL server order the same way.
 */
export class Migration0011ProjectListIndex extends Migration {
  override name = 'Migration0011ProjectListIndex';

  override up(): void {
    // Replaces ("user_id", "updated_at" desc): the id makes the order total, as keyset paging needs.
    this.addSql(`create index "projects_user_updated_index" on "projects" ("user_id", "updated_at", "id");`);
    this.addSql(`drop index if exists "projects_user_id_index";`);
    this.addSql(`create index "projects_user_folder_updated_index" on "projects" ("user_id", (coalesce("folder_id", '00000000-0000-0000-0000-000000000000'::uuid)), "updated_at", "id");`);
    this.addSql(
      `create index "projects_user_folder_title_index" on "projects" ("user_id", (coalesce("folder_id", '00000000-0000-0000-0000-000000000000'::uuid)), ` +
        `(coalesce(nullif(lower(left(btrim(split_part(btrim("idea", E' \\t\\r\\n'), E'\\n', 1), E' \\t\\r'), 200)), ''), 'untitled project') collate "C"), ` +
        `"updated_at", "id");`,
    );
    this.addSql(`create index "projects_user_folder_files_index" on "projects" ("user_id", (coalesce("folder_id", '00000000-0000-0000-0000-000000000000'::uuid)), "file_count", "updated_at", "id");`);
  }
}
