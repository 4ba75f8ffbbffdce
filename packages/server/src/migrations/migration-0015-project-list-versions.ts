import { Migration } from '@mikro-orm/migrations';

/**
 * A number per user that changes whenever anything the project list shows may have changed
 *: any write to one of the user's projects or folders. The session's statement reads it
 * beside the user, and a page of the list made once is kept under it (services/operations/reply-cache.ts):
 * while it has not moved, the same page is the same bytes, and neither the page's query, nor its
 * JSON, nor its compression is made again. Read with the session, in one statement, it costs no
 * round trip, and a user reads their own writes: the number moves in the transaction that wrote.
 *
 * The bump is a deferred constraint trigger, run once a row at commit and writing once per user and
 * transaction (`bumped_in`): taken at commit, after every row lock the transaction needed, the
 * version row's lock never waits inside a transaction that holds a project another one waits for,
 * so two writers of one user's projects queue instead of deadlocking. An account being deleted
 * takes its row with it (the insert finds no user and writes nothing).
 */
export class Migration0015ProjectListVersions extends Migration {
  override name = 'Migration0015ProjectListVersions';

  override up(): void {
    this.addSql(
      `create table "project_list_versions" ("user_id" uuid not null primary key references "users" ("id") on delete cascade, "version" bigint not null, "bumped_in" bigint not null);`,
    );
    this.addSql(`create function "project_list_bump_user"("owner" uuid) returns void language plpgsql as $$
begin
  insert into project_list_versions (user_id, version, bumped_in)
  select owner, 1, txid_current() where exists (select 1 from users where id = owner)
  on conflict (user_id) do update set version = project_list_versions.version + 1, bumped_in = excluded.bumped_in
  where project_list_versions.bumped_in <> excluded.bumped_in;
end $$;`);
    this.addSql(`create function "project_list_bump"() returns trigger language plpgsql as $$
begin
  if tg_op <> 'INSERT' then
    perform project_list_bump_user(old.user_id);
  end if;
  if tg_op = 'INSERT' or (tg_op = 'UPDATE' and new.user_id <> old.user_id) then
    perform project_list_bump_user(new.user_id);
  end if;
  return null;
end $$;`);
    for (const table of ['projects', 'folders']) {
      this.addSql(
        `create constraint trigger "${table}_list_version" after insert or update or delete on "${table}" deferrable initially deferred for each row execute function "project_list_bump"();`,
      );
    }
  }
}
