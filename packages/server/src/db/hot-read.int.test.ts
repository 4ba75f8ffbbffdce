/**
 * hotRead: on PostgreSQL a named prepared statement ($n placeholders, planned once per pooled
 * connection), on PGlite the ORM's path; the same rows either way, parameters of every kind the
 * hot paths send.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, testDatabases, type TestServer } from '../testing/test-server.js';
import { hotRead } from './hot-read.js';
import { plainSql } from './plain-sql.js';

describe.each(testDatabases())('hotRead on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterAll(() => server?.dispose());

  const statement = `select ?::text as "text", ?::int as "n", ?::text is null as "nothing", ?::uuid as "id", 'a literal, with E''\\n''' as "literal"`;
  const params = [`it's "quoted" % _`, 42, null, '00000000-0000-4000-8000-000000000001'];

  it('answers the rows the ORM answers, parameters apart from the text', async () => {
    const viaOrm = await plainSql(server.db.orm.em.fork()).execute<unknown[]>(statement, params);
    for (let i = 0; i < 3; i++) expect(await hotRead(server.db.orm, statement, params)).toEqual(viaOrm);
    expect(viaOrm).toEqual([{ text: `it's "quoted" % _`, n: 42, nothing: true, id: params[3], literal: 'a literal, with E\'\\n\'' }]);
  });

  it(kind === 'postgres' ? 'prepares each statement once per connection, by a name of its text' : 'runs unprepared in PGlite', async () => {
    const mine = await hotRead<{ name: string; statement: string }>(server.db.orm, 'select name, statement from pg_prepared_statements where statement like ?', ['%pg_prepared_statements where statement like $1%']);
    if (kind === 'postgres') {
      expect(mine).toHaveLength(1);
      expect(mine[0]!.name).toMatch(/^wp_[\w-]{24}$/);
    } else {
      expect(mine).toEqual([]);
    }
  });
});
