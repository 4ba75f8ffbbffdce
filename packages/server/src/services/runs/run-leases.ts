import type { SqlAll } from './run-event-writer.js';

/** A run this process just took over. */
export interface ClaimedRun {
  id: string;
  attempt: number;
  takeovers: number;
}

/** Postgres array literal of UUIDs (ids come from our own rows, so no quoting is needed). */
const uuidArray = (ids: readonly string[]) => `{${ids.join(',')}}`;

/**
 * The lease of each running run, in SQL that is the same on PGlite and PostgreSQL. Times are the
 * database's (`now()`), so servers whose clocks disagree still agree on who owns what.
 */
export class RunLeases {
  constructor(
    private readonly sql: SqlAll,
    readonly instanceId: string,
    readonly leaseMs: number,
  ) {}

  /** Renews the leases of the runs this process runs; answers those it still owns (the others were taken over). */
  async renew(ids: readonly string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await this.sql<{ id: string }>(
      // A run that just ended keeps its owner: it is still this process's, only not running.
      `update conversations set heartbeat_at = case when status = 'running' then now() else heartbeat_at end
       where id = any(?::uuid[]) and instance_id = ? returning id`,
      [uuidArray(ids), this.instanceId],
    );
    return new Set(rows.map((r) => r.id));
  }

  /**
   * Takes over up to `limit` running runs whose lease expired, or every running run when
   * `orphaned` (PGlite at start-up: its one process died, so nobody else can own them). `running`
   * are this process's own live runs; a run of its own it stopped running (its database writes
   * failed) is taken like anyone else's once its lease expires. The row
   * locks with SKIP LOCKED make two processes that look at once take different runs, and the
   * lease condition is checked again on the locked row, so exactly one process wins each run.
   */
  async claimExpired(limit: number, orphaned: boolean, running: readonly string[] = []): Promise<ClaimedRun[]> {
    const rows = await this.sql<{ id: string; attempt: number; takeovers: number }>(
      `update conversations c
       set instance_id = ?, heartbeat_at = now(), attempt = c.attempt + 1, takeovers = c.takeovers + 1, updated_at = now()
       where c.id in (
         select id from conversations
         where status = 'running' and not (id = any(?::uuid[]))
           and (? or heartbeat_at is null or heartbeat_at < now() - ? * interval '1 millisecond')
         order by heartbeat_at asc nulls first
         limit ?
         for update skip locked
       )
       returning c.id, c.attempt, c.takeovers`,
      [this.instanceId, uuidArray(running), orphaned, this.leaseMs, limit],
    );
    return rows.map((r) => ({ id: r.id, attempt: Number(r.attempt), takeovers: Number(r.takeovers) }));
  }

  /** Clean shutdown: the runs stay `running` with no lease, so a live process takes them at once. */
  async release(ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.sql(`update conversations set heartbeat_at = null where id = any(?::uuid[]) and instance_id = ? and status = 'running' returning id`, [
      uuidArray(ids),
      this.instanceId,
    ]);
  }
}
