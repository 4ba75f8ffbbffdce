import { Migration } from '@mikro-orm/migrations';

/**
 * Versions stored by content. Every version of a project was a whole copy of its files (the
 * fs_index of project_versions): 100 versions of a 2,000-file project held 100 copies of it. Now
 * each distinct content is stored once per project (project_blobs, keyed by the sha256 of its
 * UTF-8 text) and a version records only the paths it changed against the version before it
 * (project_version_changes; a null hash removed the path). project_versions gets one row for
 * every version, the current one included, with what made it (`source`, a core VersionSource),
 * its counts and `tree_hash`: the sha256 of `${hash} ${path}\n` over its files in code point
 * order, so two versions with the same files have the same tree_hash.
 *
 * The data is moved in SQL, on both databases: every old version's fs_index and every project's
 * current files become blobs, change rows and version rows. An old row's conversation_id was the
 * run that REPLACED that version; a version row now names the run that MADE it (the old row of
 * the version before), and version 1 the project's first completed run.
 */
export class Migration0019ContentAddressedVersions extends Migration {
  override name = 'Migration0019ContentAddressedVersions';

  override up(): void {
    this.addSql(`create table "project_blobs" (
      "project_id" uuid not null references "projects" ("id") on delete cascade,
      "hash" char(64) not null,
      "content" text not null,
      "size" int not null,
      primary key ("project_id", "hash")
    );`);
    // The primary key serves "each path's latest change at or before version n".
    this.addSql(`create table "project_version_changes" (
      "project_id" uuid not null references "projects" ("id") on delete cascade,
      "version" int not null,
      "path" varchar(255) not null,
      "hash" char(64) null,
      primary key ("project_id", "path", "version")
    );`);
    // What one version changed, read by its summary and its diff against the version before.
    this.addSql(`create index "project_version_changes_version" on "project_version_changes" ("project_id", "version");`);

    // Every version's files: the old copies, and the current files as the project's current version.
    this.addSql(`create table "m0019_files" as
      select s.project_id, s.version, s.path, s.content, encode(sha256(convert_to(s.content, 'UTF8')), 'hex') as hash, octet_length(s.content) as size
      from (
        select v.project_id, v.version, f.key as path, f.value as content
          from project_versions v join projects p on p.id = v.project_id, jsonb_each_text(v.fs_index) f
         where v.version <> p.version
        union all
        select f.project_id, p.version, f.path, f.content from project_files f join projects p on p.id = f.project_id
      ) s;`);
    this.addSql(`create index "m0019_files_key" on "m0019_files" (project_id, version, path);`);
    this.addSql(`create table "m0019_versions" as
      select project_id, version, lag(version) over (partition by project_id order by version) as prev
      from (select project_id, version from project_versions union select id, version from projects) x;`);

    this.addSql(`insert into "project_blobs" ("project_id", "hash", "content", "size")
      select distinct on (project_id, hash) project_id, hash, content, size from m0019_files order by project_id, hash;`);
    this.addSql(`insert into "project_version_changes" ("project_id", "version", "path", "hash")
      select f.project_id, f.version, f.path, f.hash from m0019_files f join m0019_versions v on v.project_id = f.project_id and v.version = f.version
       where not exists (select 1 from m0019_files o where o.project_id = f.project_id and o.version = v.prev and o.path = f.path and o.hash = f.hash)
      union all
      select v.project_id, v.version, o.path, null from m0019_versions v join m0019_files o on o.project_id = v.project_id and o.version = v.prev
       where not exists (select 1 from m0019_files f where f.project_id = v.project_id and f.version = v.version and f.path = o.path);`);

    this.addSql(`create table "m0019_rows" as
      select v.project_id, v.version,
        coalesce(own.idea, before.idea, p.idea) as idea,
        case when v.prev is null then (
          select c.id from conversations c
           where c.project_id = p.id and c.status = 'completed'
             and not exists (select 1 from project_versions o where o.project_id = p.id and o.conversation_id = c.id)
           order by c.created_at limit 1
        ) else before.conversation_id end as conversation_id,
        case when v.prev is null then p.created_at else coalesce(before.created_at, p.updated_at) end as created_at,
        case when v.prev is null then '{"kind":"build"}'::jsonb
             when made.only_stages is not null then '{"kind":"repair"}'::jsonb
             else jsonb_build_object('kind', 'continue', 'idea', coalesce(made.idea, own.idea, p.idea)) end as source,
        coalesce(s.file_count, 0) as file_count, coalesce(s.total_bytes, 0) as total_bytes,
        coalesce(d.added, 0) as added, coalesce(d.changed, 0) as changed, coalesce(d.removed, 0) as removed,
        coalesce(s.tree_hash, encode(sha256(''::bytea), 'hex')) as tree_hash
      from m0019_versions v
      join projects p on p.id = v.project_id
      left join project_versions own on own.project_id = v.project_id and own.version = v.version
      left join project_versions before on before.project_id = v.project_id and before.version = v.prev
      left join conversations made on made.id = before.conversation_id
      left join (
        select project_id, version, count(*) as file_count, sum(size) as total_bytes,
               encode(sha256(convert_to(string_agg(hash || ' ' || path || E'\\n', '' order by path collate "C"), 'UTF8')), 'hex') as tree_hash
          from m0019_files group by project_id, version
      ) s on s.project_id = v.project_id and s.version = v.version
      left join (
        select c.project_id, c.version,
               count(*) filter (where c.hash is not null and o.path is null) as added,
               count(*) filter (where c.hash is not null and o.path is not null) as changed,
               count(*) filter (where c.hash is null) as removed
          from project_version_changes c
          join m0019_versions w on w.project_id = c.project_id and w.version = c.version
          left join m0019_files o on o.project_id = c.project_id and o.version = w.prev and o.path = c.path
         group by c.project_id, c.version
      ) d on d.project_id = v.project_id and d.version = v.version;`);

    this.addSql(`delete from "project_versions";`);
    this.addSql(`alter table "project_versions" drop column "fs_index";`);
    this.addSql(`alter table "project_versions"
      add column "source" jsonb not null,
      add column "file_count" int not null default 0,
      add column "total_bytes" bigint not null default 0,
      add column "added" int not null default 0,
      add column "changed" int not null default 0,
      add column "removed" int not null default 0,
      add column "tree_hash" char(64) not null;`);
    // An earlier version with the same files is found by its tree (a restore keeps its verdict).
    this.addSql(`create index "project_versions_tree" on "project_versions" ("project_id", "tree_hash");`);
    this.addSql(`insert into "project_versions" ("project_id", "version", "idea", "conversation_id", "created_at", "source", "file_count", "total_bytes", "added", "changed", "removed", "tree_hash")
      select project_id, version, idea, conversation_id, created_at, source, file_count, total_bytes, added, changed, removed, tree_hash from m0019_rows;`);
    for (const table of ['m0019_rows', 'm0019_versions', 'm0019_files']) this.addSql(`drop table "${table}";`);
  }
}
