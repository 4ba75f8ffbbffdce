/**
 * Runs once before all browser tests: builds the web app (see harness.ts) and starts one server
 * and one Chromium that every spec file shares (`inject('wolfpackBaseUrl')`, `inject('chromiumEndpoint')`).
 */
import type { TestProject } from 'vitest/node';
import { buildWebOnce, launchSharedBrowser, startTestServer } from './harness';

export default async function setup(project: TestProject) {
  const { createDatabaseTemplates } = await import('@wolfpack/server/testing');
  const [templates] = await Promise.all([createDatabaseTemplates({ postgres: false }), buildWebOnce()]);
  project.provide('pgliteTemplateDir', templates.pgliteTemplateDir);
  const [server, browser] = await Promise.all([startTestServer({ templateDir: templates.pgliteTemplateDir }), launchSharedBrowser()]);
  project.provide('wolfpackBaseUrl', server.url);
  project.provide('chromiumEndpoint', browser.wsEndpoint());
  return async () => {
    await browser.close();
    await server.close();
    await templates.dispose();
  };
}
