import { Migration } from '@mikro-orm/migrations';

/**
 * How many projects each user has in each folder, kept as the projects change. The
 * web's sidebar asks for these counts on every load of the projects page; counting them meant
 * reading every one of the user's projects (1.3 ms of PostgreSQL's time at 10,000 projects, a
 * third of the page's requests, and the slowest path under load); kept, they are a dozen rows.
 *
 * Statement-level triggers with transition tables keep the table in step with every write to
 * `projects`, whoever makes it (the services, a folder deleted that sets its projects' folder to
 * null, an account's cascade), in the same transaction: one row per user and folder key (the root
 * as the nil UUID, as migration 0011 indexes it), written once per statement however many rows
 * it changed. A count that reaches zero stays as a row of zero; readers leave those out.
 */
export class Migration0014ProjectCounts extends Migration {
  override name = 'Migration0014ProjectCounts';

  override up(): void {
    this.addSql(
      `create table "project_counts" ("user_id" uuid not null references "users" ("id") on delete cascade, "folder_key" uuid not null, "n" integer not null, primary key ("user_id", "folder_key"));`,
    );
    // Rows are locked in key order (user, folder) in every function, so two statements that
    // touch the same counts (two projects moved between two folders in opposite directions at
    // once) wait for each other instead of deadlocking.
    this.addSql(`create function "project_counts_add"() returns trigger language plpgsql as $$
begin
  insert into project_counts (user_id, folder_key, n)
  select user_id, coalesce(folder_id, '00000000-0000-0000-0000-000000000000'::uuid), count(*) from new_rows group by 1, 2 order by 1, 2
  on conflict (user_id, folder_key) do update set n = project_counts.n + excluded.n;
  return null;
end $$;`);
    // Removals only update: when an account is deleted its counts may be gone first (the same
    // cascade), and an insert would then fail on the user's foreign key.
    this.addSql(`create function "project_counts_remove"() returns trigger language plpgsql as $$
begin
  perform 1 from project_counts c
  where (c.user_id, c.folder_key) in (select user_id, coalesce(folder_id, '00000000-0000-0000-0000-000000000000'::uuid) from old_rows)
  order by c.user_id, c.folder_key for update;
  update project_counts c set n = c.n - d.n
  from (select user_id, coalesce(folder_id, '00000000-0000-0000-0000-000000000000'::uuid) as folder_key, count(*) as n from old_rows group by 1, 2) d
  where c.user_id = d.user_id and c.folder_key = d.folder_key;
  return null;
end $$;`);
    // Only rows whose owner or folder changed count: most updates (a run saving a new version, a
    // rename) move nothing and write nothing here. One statement adds and takes away.
    this.addSql(`create function "project_counts_move"() returns trigger language plpgsql as $$
begin
  insert into project_counts (user_id, folder_key, n)
  select user_id, folder_key, sum(delta) from (
    select n.user_id, coalesce(n.folder_id, '00000000-0000-0000-0000-000000000000'::uuid) as folder_key, 1 as delta
    from old_rows o join new_rows n on n.id = o.id where o.user_id <> n.user_id or o.folder_id is distinct from n.folder_id
    union all
    select o.user_id, coalesce(o.folder_id, '00000000-0000-0000-0000-000000000000'::uuid), -1
    from old_rows o join new_rows n on n.id = o.id where o.user_id <> n.user_id or o.folder_id is distinct from n.folder_id
  ) moved
  group by 1, 2 having sum(delta) <> 0 order by 1, 2
  on conflict (user_id, folder_key) do update set n = project_counts.n + excluded.n;
  return null;
end $$;`);
    this.addSql(`create trigger "projects_count_insert" after insert on "projects" referencing new table as new_rows for each statement execute function "project_counts_add"();`);
    this.addSql(`create trigger "projects_count_delete" after delete on "projects" referencing old table as old_rows for each statement execute function "project_counts_remove"();`);
    // Any update (triggers limited to some columns, UPDATE OF, cannot have transition tables).
    this.addSql(
      `create trigger "projects_count_update" after update on "projects" referencing old table as old_rows new table as new_rows for each statement execute function "project_counts_move"();`,
    );
    this.addSql(
      `insert into "project_counts" ("user_id", "folder_key", "n") select "user_id", coalesce("folder_id", '00000000-0000-0000-0000-000000000000'::uuid), count(*) from "projects" group by 1, 2;`,
    );
  }
}
