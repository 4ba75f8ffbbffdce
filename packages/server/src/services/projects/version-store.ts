import type { MikroORM } from '@mikro-orm/core';
import type { ProjectSummary, VersionSource, VersionSummary, VerificationRecord } from '@wolfpack/core';

/** A change to a project's files, applied to the current files under the project's row lock. */
export type FilesChange = (current: Readonly<Record<string, string>>) => Record<string, string>;

/**
 * The write side of a project's versions: every change to a project's files is a new version,
 * its contents stored once per project by hash (content-addressed) and shared by every version
 * that holds them.
 */
export class VersionStore {
  constructor(
    private readonly orm: MikroORM,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /**
   * A new version of an owned project from its current files: `change` gives the new files. With
   * `expectedVersion`, another current version is a 409 CONFLICT that names it. The verdict of an
   * earlier version with the same files comes with it.
   */
  async commit(userId: string, projectId: string, source: VersionSource, change: FilesChange, expectedVersion?: number): Promise<{ version: VersionSummary; verification: VerificationRecord | null }> {
    void this.orm;
    void this.clock;
    void [userId, projectId, source, change, expectedVersion];
    throw new Error('not yet built');
  }

  /** A new project of the user whose version 1 is `files` (an import). */
  async createProject(userId: string, idea: string, files: Record<string, string>, source: VersionSource): Promise<ProjectSummary> {
    void [userId, idea, files, source];
    throw new Error('not yet built');
  }
}
