import { PgliteConnection } from '@mikro-orm/pglite';
import { PostgreSqlConnection } from '@mikro-orm/postgresql';
import type { Pool } from 'pg';
import type { PgliteProtocol } from './pglite-binary-rows.js';

/** The driver's own client behind an ORM connection, for the few paths that go around the ORM. */
export type NativeClient = { kind: 'postgres'; pool: Pool } | { kind: 'pglite'; pglite: PgliteProtocol };

const clients = new WeakMap<object, Promise<NativeClient | undefined>>();

/** node-postgres's pool or the PGlite instance behind `connection` (`em.getConnection()`), asked once per connection. */
export function nativeClientOf(connection: object): Promise<NativeClient | undefined> {
  let client = clients.get(connection);
  if (!client) {
    client =
      connection instanceof PostgreSqlConnection
        ? connection.getNativeClient().then((pool): NativeClient => ({ kind: 'postgres', pool }))
        : connection instanceof PgliteConnection
          ? connection.getNativeClient().then((pglite): NativeClient => ({ kind: 'pglite', pglite: pglite as unknown as PgliteProtocol }))
          : Promise.resolve(undefined);
    clients.set(connection, client);
  }
  return client;
}
