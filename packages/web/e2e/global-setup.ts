/**
 * Runs once before all browser tests: builds the web app (see harness.ts) and starts one server
 * that every spec file shares through `inject('wolfpackBaseUrl')`.
 */
import type { TestProject } from 'vitest/node';
import { buildWebOnce, startTestServer } from './harness';

export default async function setup(project: TestProject) {
  const { createDatabaseTemplates } = await import('@wolfpack/server/testing');
  const [templates] = await Promise.all([createDatabaseTemplates({ postgres: false }), buildWebOnce()]);
  project.provide('pgliteTemplateDir', templates.pgliteTemplateDir);
  const server = await startTestServer({ templateDir: templates.pgliteTemplateDir });
  project.provide('wolfpackBaseUrl', server.url);
  return async () => {
    await server.close();
    await templates.dispose();
  };
}
