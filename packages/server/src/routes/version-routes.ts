import Router from '@koa/router';
import type { Logger } from '../logger.js';
import type { ProjectService } from '../services/projects/project-service.js';
import type { VersionReader } from '../services/projects/version-reader.js';
import type { VersionStore } from '../services/projects/version-store.js';
import type { VerificationService } from '../services/runs/verification-service.js';

export interface VersionRoutesDeps {
  store: VersionStore;
  reader: VersionReader;
  projects: ProjectService;
  verifications: VerificationService;
  log: Logger;
}

/** A project's versions, diffs and restores, and edits of its files. */
export function versionRoutes(deps: VersionRoutesDeps): Router {
  void deps;
  return new Router({ prefix: '/api' });
}
