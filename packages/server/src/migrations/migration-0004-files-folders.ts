import { Migration } from '@mikro-orm/migrations';

/**
 * Project files get a row each (streamed exports stay flat in memory however large the project),
 * folders, the GitHub repository a project was published to, and per-user encrypted secrets.
 */
export class Migration0004FilesFolders extends Migration {
  override name = 'Migration0004FilesFolders';

  override up(): void {
    this.addSql(`create table "project_files" (
      "project_id" uuid not null references "projects" ("id") on delete cascade,
      "path" varchar(255) not null,
      "content" text not null,
      "size" int not null,
      primary key ("project_id", "path")
    );`);
    this.addSql(`insert into "project_files" ("project_id", "path", "content", "size")
      select p."id", f."key", f."value", octet_length(f."value") from "projects" p, jsonb_each_text(p."fs_index") f;`);
    this.addSql(`alter table "projects" drop column "fs_index";`);
    this.addSql(`alter table "projects" add column "total_bytes" bigint not null default 0;`);
    this.addSql(`update "projects" p set "total_bytes" = coalesce((select sum("size") from "project_files" f where f."project_id" = p."id"), 0);`);
    this.addSql(`alter table "projects" add column "github_repo" varchar(200) null;`);
    this.addSql(`create table "folders" (
      "id" uuid not null primary key,
      "user_id" uuid not null references "users" ("id") on delete cascade,
      "name" varchar(100) not null,
      "parent_folder_id" uuid null references "folders" ("id") on delete set null,
      "created_at" timestamptz not null
    );`);
    this.addSql(`create index "folders_user_id_index" on "folders" ("user_id");`);
    this.addSql(`alter table "projects" add constraint "projects_folder_id_foreign" foreign key ("folder_id") references "folders" ("id") on delete set null;`);
    this.addSql(`create index "projects_folder_id_index" on "projects" ("folder_id");`);
    this.addSql(`create table "user_secrets" (
      "user_id" uuid not null primary key references "users" ("id") on delete cascade,
      "github_token_cipher" text null,
      "github_login" varchar(100) null,
      "updated_at" timestamptz not null
    );`);
  }
}
