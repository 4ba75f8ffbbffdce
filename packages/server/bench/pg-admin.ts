import pg from 'pg';

/** One statement on the PostgreSQL server itself (create or drop a bench database). */
export async function pgAdmin(adminUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query(sql);
  } finally {
    await client.end().catch(() => {});
  }
}

/** Ends the bench with a line saying why when PostgreSQL is not reachable (a bench is not a test). */
export async function requirePostgres(adminUrl: string, hint: string): Promise<void> {
  try {
    await pgAdmin(adminUrl, 'select 1');
  } catch (error) {
    console.log(`Skipped: PostgreSQL is not reachable at ${adminUrl} (${(error as Error).message}). ${hint}`);
    process.exit(0);
  }
}
