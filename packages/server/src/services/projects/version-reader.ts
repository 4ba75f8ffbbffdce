import type { MikroORM } from '@mikro-orm/core';

/** The read side of a project's versions: the list, a version's files, and diffs. */
export class VersionReader {
  constructor(private readonly orm: MikroORM) {
    void this.orm;
  }
}
