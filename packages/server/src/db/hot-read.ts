import { createHash } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/core';
import { nativeClientOf } from './native-client.js';
import { numberedPlaceholders, plainSql } from './plain-sql.js';

/** Statements as pg's named statements: `?` placeholders made `$n` once, and the name from the text. */
const prepared = new Map<string, { name: string; text: string }>();

/**
 * A read on a path every signed-in request takes (the session, the projects page) as a named
 * prepared statement on PostgreSQL: parsed and planned once per pooled connection, not each time,
 * and sent with its parameters apart instead of inlined into the text by the ORM. Under 50
 * clients at once the database's CPU was as large as the server's (about 160 µs a request), and
 * the session's join took half as long prepared as planned anew (pgbench, 2026-11-27). PGlite, in
 * the process, takes the ORM's path. `sql` must hold `?` only as placeholders, never in a literal.
 */
export async function hotRead<T>(orm: MikroORM, sql: string, params: unknown[]): Promise<T[]> {
  const native = await nativeClientOf(orm.em.getConnection());
  if (native?.kind !== 'postgres') return plainSql(orm.em.fork()).execute<T[]>(sql, params);
  const statement = prepared.get(sql) ?? prepare(sql);
  const result = await native.pool.query({ name: statement.name, text: statement.text, values: params });
  return result.rows as T[];
}

function prepare(sql: string): { name: string; text: string } {
  const statement = { name: `wp_${createHash('sha256').update(sql).digest('base64url').slice(0, 24)}`, text: numberedPlaceholders(sql) };
  // The shapes are few (a page's sort, filter, cursor and counts), so the map stays small.
  prepared.set(sql, statement);
  return statement;
}
