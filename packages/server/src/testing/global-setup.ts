import type { TestProject } from 'vitest/node';
import { createDatabaseTemplates } from './database-template.js';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplateDir: string;
    postgresTemplate: string | null;
  }
}

/** One migrated database of each kind for the whole suite (see createDatabaseTemplates). */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const templates = await createDatabaseTemplates();
  project.provide('pgliteTemplateDir', templates.pgliteTemplateDir);
  project.provide('postgresTemplate', templates.postgresTemplate);
  return () => templates.dispose();
}
