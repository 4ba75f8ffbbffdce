/**
 * The SQL of one page of a user's project list (GET /api/projects) and its opaque cursor. Keyset
 * paging: each order is total (it ends with the id), the cursor holds the sort key of the last row
 * shown, and the next page starts strictly after it. New projects, or deleted ones, between two
 * pages never shift a row into a second page or out of both, as OFFSET would; and a deep page
 * costs what the first does, since it starts from the index at the cursor instead of counting
 * rows. The indexes are in migration 0011.
 */
import { AppError, type ProjectSort } from '@wolfpack/core';

/**
 * The title a list sorts by, as migration 0011 indexes it (keep the two identical): the idea's
 * first non-blank line, lowercased, 200 characters at most, 'untitled project' for an empty idea,
 * compared byte-wise so PGlite and every PostgreSQL server agree.
 */
export const TITLE_KEY_SQL = `(coalesce(nullif(lower(left(btrim(split_part(btrim("idea", E' \\t\\r\\n'), E'\\n', 1), E' \\t\\r'), 200)), ''), 'untitled project') collate "C")`;

/** The folder as migration 0011 indexes it: the root (no folder) is the nil UUID. */
export const FOLDER_KEY_SQL = `coalesce("folder_id", '00000000-0000-0000-0000-000000000000'::uuid)`;
const ROOT_KEY = '00000000-0000-0000-0000-000000000000';

/**
 * The last update with every microsecond PostgreSQL keeps (a JS Date has milliseconds): rows
 * written by SQL's now() would otherwise compare as equal and be skipped or repeated.
 */
const UPDATED_KEY_SQL = `to_char("updated_at" at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/**
 * created_at as the reply writes it (UTC ISO 8601, milliseconds, cut as a JS Date cuts them). As
 * text: the driver's parse of a timestamp into a Date and the Date back to text took about 3 µs a
 * value, two a row (measured with another process beside it), on the server's one thread;
 * PostgreSQL's to_char costs a fraction of that, on its own processes.
 */
const CREATED_ISO_SQL = `to_char("created_at" at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** The reply's updatedAt from a row's updated_key: microseconds cut to milliseconds, as a JS Date holds it. */
export const updatedIso = (updatedKey: string): string => `${updatedKey.slice(0, 23)}Z`;

type KeyKind = 'title' | 'files' | 'none';

interface Order {
  /** The column before (updated_at, id), if any. */
  lead: KeyKind;
  direction: 'asc' | 'desc';
}

/** Every order is one direction throughout, so a row comparison finds the cursor in the index. */
const ORDERS: Record<ProjectSort, Order> = {
  newest: { lead: 'none', direction: 'desc' },
  oldest: { lead: 'none', direction: 'asc' },
  'a-z': { lead: 'title', direction: 'asc' },
  'z-a': { lead: 'title', direction: 'desc' },
  'most-files': { lead: 'files', direction: 'desc' },
  'least-files': { lead: 'files', direction: 'asc' },
};

const LEAD_SQL: Record<Exclude<KeyKind, 'none'>, string> = { title: TITLE_KEY_SQL, files: `"file_count"` };

/** Where a page starts: the sort key of the last row of the page before. */
export interface Cursor {
  sort: ProjectSort;
  /** Title (a-z, z-a) or file count (most-files, least-files); null for newest and oldest. */
  lead: string | number | null;
  /** updated_at as UTC ISO 8601 with microseconds. */
  updated: string;
  id: string;
}

const BAD_CURSOR = 'cursor is not valid: pass the nextCursor of an earlier page, or leave cursor out to start from the first page.';
const ISO_MICROS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A UTC instant as the cursor writes it, and one PostgreSQL accepts (no February 30th). */
function validInstant(text: string): boolean {
  // Year 0 parses in JavaScript but not in PostgreSQL.
  if (!ISO_MICROS.test(text) || text.startsWith('0000')) return false;
  const time = Date.parse(text);
  return !Number.isNaN(time) && new Date(time).toISOString().slice(0, 19) === text.slice(0, 19);
}

/** base64url of a small JSON array: opaque to clients, and a URL-safe query value as it is. */
export function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify([1, cursor.sort, cursor.lead, cursor.updated, cursor.id])).toString('base64url');
}

/** The cursor of a page for `sort`; a 400 that says what to do for anything else. */
export function decodeCursor(text: string, sort: ProjectSort): Cursor {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw new AppError('BAD_REQUEST', BAD_CURSOR);
  }
  if (!Array.isArray(value) || value.length !== 5 || value[0] !== 1) throw new AppError('BAD_REQUEST', BAD_CURSOR);
  const [, cursorSort, lead, updated, id] = value as unknown[];
  if (cursorSort !== sort) {
    throw new AppError('BAD_REQUEST', `cursor belongs to another sort order (${String(cursorSort)}): leave cursor out to start from the first page.`);
  }
  const kind = ORDERS[sort].lead;
  const leadOk =
    kind === 'none' ? lead === null : kind === 'title' ? typeof lead === 'string' && !lead.includes('\u0000') : Number.isSafeInteger(lead) && (lead as number) >= 0;
  if (!leadOk || typeof updated !== 'string' || !validInstant(updated) || typeof id !== 'string' || !UUID.test(id)) {
    throw new AppError('BAD_REQUEST', BAD_CURSOR);
  }
  return { sort, lead: lead as string | number | null, updated, id };
}

export interface PageFilter {
  userId: string;
  /** undefined: every folder; null: the root. */
  folderId: string | null | undefined;
  /** Case-insensitive substring of the idea. */
  q: string | undefined;
}

/** `where` of a filter without the cursor, and its parameters (shared by the page and its count). */
export function filterSql({ userId, folderId, q }: PageFilter): { where: string; params: unknown[] } {
  const parts = ['"user_id" = ?'];
  const params: unknown[] = [userId];
  if (folderId !== undefined) {
    parts.push(`${FOLDER_KEY_SQL} = ?::uuid`);
    params.push(folderId ?? ROOT_KEY);
  }
  if (q) {
    parts.push(`"idea" ilike ? escape '\\'`);
    params.push(`%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
  }
  return { where: parts.join(' and '), params };
}

/**
 * How many projects each folder of a user holds ('root': none), as a JSON object in text (only
 * one row's copy is parsed): kept by triggers as projects change (migration 0014), a dozen rows,
 * not every project. One parameter, the user.
 */
export const FOLDER_COUNTS_SQL = `select coalesce(json_object_agg(case when "folder_key" = '${ROOT_KEY}'::uuid then 'root' else "folder_key"::text end, "n"), '{}')::text from "project_counts" where "user_id" = ? and "n" > 0`;

/**
 * Select-list columns of the counts a page asks for: `folder_counts` ({@link FOLDER_COUNTS_SQL}) and,
 * with a search, `filter_total` (how many projects match the filter, whatever the cursor).
 */
export function countColumns(filter: PageFilter): { columns: string; params: unknown[] } {
  const { where, params } = filterSql(filter);
  return {
    columns: `(${FOLDER_COUNTS_SQL}) as "folder_counts"${filter.q ? `, (select count(*) from "projects" where ${where}) as "filter_total"` : ''}`,
    params: [filter.userId, ...(filter.q ? params : [])],
  };
}

/** Columns of a page row: the summary, plus the keys its cursor is made of. */
export interface PageRow {
  id: string;
  idea: string;
  folder_id: string | null;
  file_count: number | string;
  session_count: number | string;
  total_cost_millicents: number | string;
  total_processing_time_ms: number | string;
  /** created_at as UTC ISO 8601 with milliseconds. */
  created_iso: string;
  updated_key: string;
  /** Only for the title orders. */
  title_key: string | null;
  /** With counts: {@link FOLDER_COUNTS_SQL}'s object, the same on every row. */
  folder_counts?: string;
  /** With counts and a search: how many projects match it, the same on every row. */
  filter_total?: number | string;
}

/**
 * One page: `limit + 1` rows are read, so the extra one says whether another page follows
 * without a count.
 */
export function pageSql(filter: PageFilter, sort: ProjectSort, limit: number, after: Cursor | undefined, counts = false): { sql: string; params: unknown[] } {
  const { lead, direction } = ORDERS[sort];
  const { where, params: whereParams } = filterSql(filter);
  // The counts ride on the page's rows (each subquery runs once, whatever the rows): one round trip
  // for the sidebar's request instead of two.
  const extra = counts ? countColumns(filter) : undefined;
  const params = extra ? [...extra.params, ...whereParams] : whereParams;
  const keys = [...(lead === 'none' ? [] : [LEAD_SQL[lead]]), '"updated_at"', '"id"'];
  let keyset = '';
  if (after) {
    const values = [...(lead === 'none' ? [] : ['?']), '?::timestamptz', '?::uuid'];
    keyset = ` and (${keys.join(', ')}) ${direction === 'desc' ? '<' : '>'} (${values.join(', ')})`;
    params.push(...(lead === 'none' ? [] : [after.lead]), after.updated, after.id);
  }
  params.push(limit + 1);
  const sql =
    `select "id", "idea", "folder_id", "file_count", "session_count", "total_cost_millicents", "total_processing_time_ms", ` +
    `${CREATED_ISO_SQL} as "created_iso", ${UPDATED_KEY_SQL} as "updated_key", ${lead === 'title' ? TITLE_KEY_SQL : 'null'} as "title_key"${extra ? `, ${extra.columns}` : ''} ` +
    `from "projects" where ${where}${keyset} order by ${keys.map((key) => `${key} ${direction}`).join(', ')} limit ?`;
  return { sql, params };
}

/** The cursor that continues after `row`. */
export function cursorAfter(row: PageRow, sort: ProjectSort): string {
  const lead = ORDERS[sort].lead;
  return encodeCursor({
    sort,
    lead: lead === 'none' ? null : lead === 'title' ? row.title_key : Number(row.file_count),
    updated: row.updated_key,
    id: row.id,
  });
}
