import type { EntityManager, MikroORM } from '@mikro-orm/core';
import { buildVerificationRecord, verificationRecord, type VerificationRecord } from '@wolfpack/core';
import { verifyProject } from '@wolfpack/core/pipeline';
import { executeProject, type ExecuteOptions, type ProjectExecutor } from '@wolfpack/core/proof';
import type { ProjectService } from '../projects/project-service.js';
import type { SandboxShares } from './sandbox-shares.js';
import { plainSql } from '../../db/plain-sql.js';
import { sqlPart, ungated, type GatedWrite } from '../../db/one-statement.js';


/**
 * Proven Code's verification records, one per project version (project_verifications). A run
 * stores the record of the version it saved, in the same transaction; a re-check runs the checks
 * again on the current files (no engine, no charge) and replaces the current version's record.
 */
export class VerificationService {
  constructor(
    private readonly orm: MikroORM,
    private readonly projects: ProjectService,
    /** How generated code is run (the sandbox, limits); tests and settings pass theirs. */
    private readonly execute: ExecuteOptions = {},
    /** What runs it: the app's `ExecutionThread`, or executeProject on this thread. */
    private readonly run: ProjectExecutor = executeProject,
    /** Each user's and project's sandboxes: a re-check over its share is refused (429). None: no bound. */
    private readonly shares?: SandboxShares,
  ) {}

  /** Stores `record` as the record of its version of the project, in the caller's transaction. */
  async saveIn(em: EntityManager, projectId: string, record: VerificationRecord): Promise<void> {
    const { text, params } = this.recordWrite(projectId, record)(ungated());
    await plainSql(em).execute(text, params);
  }

  /** {@link saveIn} as a write for the caller's statement (the end of a run, gated by its lease). */
  recordWrite(projectId: string, record: VerificationRecord): GatedWrite {
    return (from) =>
      sqlPart(
        `insert into project_verifications (project_id, version, verdict, record, created_at)
         select ?::uuid, ?::int, ?::text, ?::jsonb, now() from ${from.text} as c
         on conflict (project_id, version) do update set verdict = excluded.verdict, record = excluded.record, created_at = excluded.created_at`,
        [projectId, record.version, record.verdict, JSON.stringify(record), ...from.params],
      );
  }

  /** The current version's record of an owned project, or null when it has none (made before records were kept). */
  async current(userId: string, projectId: string): Promise<VerificationRecord | null> {
    const em = this.orm.em.fork();
    const project = await this.projects.getOwned(userId, projectId, em);
    return this.currentIn(em, projectId, project.version);
  }

  /** The record of one version of a project (whose ownership the caller checked), in the caller's transaction. */
  async currentIn(em: EntityManager, projectId: string, version: number): Promise<VerificationRecord | null> {
    const rows = await plainSql(em).execute<Array<{ record: unknown }>>('select record from project_verifications where project_id = ? and version = ?', [
      projectId,
      version,
    ]);
    const parsed = rows[0] ? verificationRecord.safeParse(typeof rows[0].record === 'string' ? JSON.parse(rows[0].record) : rows[0].record) : null;
    return parsed?.success ? parsed.data : null;
  }

  /**
   * Runs every check again on the project's current files and stores the new record. Counted like a
   * build's checks, and refused (429) while the project is being checked or the user has their
   * share of sandboxes; it waits for a sandbox in its user's turn.
   */
  async recheck(userId: string, projectId: string, signal?: AbortSignal): Promise<VerificationRecord> {
    const project = await this.projects.getOwned(userId, projectId);
    const owner = { userId, projectId };
    // Right after the ownership check, with no wait in between: two re-checks cannot both pass.
    const release = this.shares?.hold(owner, true);
    try {
      const files = await this.projects.files(userId, projectId);
      const execution = await this.run(files, { ...this.execute, owner, ...(signal ? { signal } : {}) });
      const record = buildVerificationRecord({ version: project.version, paths: Object.keys(files), staticReport: verifyProject(files), execution });
      await this.orm.em.fork().transactional((em) => this.saveIn(em, projectId, record));
      return record;
    } finally {
      release?.();
    }
  }
}
