import { statfs } from 'node:fs/promises';
import type { Database } from '../../db/orm.js';
import { databaseErrorText, isDiskFull } from '../../db/database-faults.js';

/** Why the database is not fit to serve: the sentence GET /api/health answers with its 503. */
export class DatabaseUnfit extends Error {
  override readonly name = 'DatabaseUnfit';
}

/** An embedded database with less room than this left cannot be relied on to store a run's next event. */
const MIN_FREE_BYTES = 1024 * 1024;
/** The longest a probe waits for the database's answer. */
const ANSWER_MS = 3_000;
/** A write refused for want of disk space keeps the server unhealthy for this long (a probe cannot try a real write). */
const DISK_FULL_MS = 30_000;

/**
 * Whether the database answers, for GET /api/health. A load balancer probes often, and under load
 * a probe that queries each time costs a round trip the requests beside it wait behind: probes
 * that arrive together share one `select 1`, and an answer is good for `freshMs` after it came.
 * A failure is never kept: the next probe asks again. A write the database refused for want of
 * disk space, anywhere in this process ({@link noteDiskFull}), fails the probes for a while too:
 * reads still work then, and a probe must not write (a failed write can break the embedded database).
 */
export class DatabaseProbe {
  private answeredAt = Number.NEGATIVE_INFINITY;
  private inFlight: Promise<void> | undefined;
  private diskFull: { at: number; text: string } | undefined;

  constructor(
    /** One question to the database (`select 1`). */
    private readonly ask: () => Promise<unknown>,
    private readonly freshMs = 1_000,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** A write failed for want of disk space (other failures are not the probe's business). */
  noteDiskFull(error: unknown): void {
    if (isDiskFull(error)) this.diskFull = { at: this.now(), text: databaseErrorText(error) };
  }

  /** Resolves once the database has answered within `freshMs`; rejects with the database's error (or a DatabaseUnfit). */
  check(): Promise<void> {
    if (this.diskFull && this.now() - this.diskFull.at < DISK_FULL_MS) {
      return Promise.reject(new DatabaseUnfit(`The database cannot store data: its disk is full (${this.diskFull.text}). Free disk space on the database's server.`));
    }
    if (this.now() - this.answeredAt < this.freshMs) return Promise.resolve();
    this.inFlight ??= this.ask()
      .then(() => {
        this.answeredAt = this.now();
      })
      .finally(() => {
        this.inFlight = undefined;
      });
    return this.inFlight;
  }
}

/**
 * The probe's question: `select 1` must answer 1 (an embedded database broken by a failed write
 * answers nothing), and the embedded database's disk (`dataDir`) must have room for more.
 */
export function askDatabase(db: Database, dataDir?: string): () => Promise<void> {
  return async () => {
    // A database behind a dead network may never answer: the probe says so instead of hanging.
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new DatabaseUnfit(`The database did not answer within ${ANSWER_MS / 1000} s.`)), ANSWER_MS);
    });
    const rows = (await Promise.race([db.orm.em.getConnection().execute('select 1 as ok'), late]).finally(() => clearTimeout(timer))) as Array<{ ok: unknown }>;
    if (Number(rows[0]?.ok) !== 1) throw new DatabaseUnfit('The database answered a plain select with nothing: it is not working (a failed write may have broken it). Restart the server.');
    if (db.kind !== 'pglite' || !dataDir) return;
    const { bavail, bsize } = await statfs(dataDir);
    const free = Number(bavail) * Number(bsize);
    if (free < MIN_FREE_BYTES) {
      throw new DatabaseUnfit(`The database cannot store data: the disk of ${dataDir} is full (${Math.floor(free / 1024)} KiB free). Free disk space there.`);
    }
  };
}

/** A probe's failure as the sentence a 503 carries. */
export function unfitReason(error: unknown): string {
  if (error instanceof DatabaseUnfit) return error.message;
  return `The database cannot be reached: ${databaseErrorText(error)}`;
}
