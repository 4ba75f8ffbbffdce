/**
 * Runs once before all browser tests: builds the web app (see harness.ts) and starts one server
 * that every spec file shares through `inject('wolfpackBaseUrl')`.
 */
import type { TestProject } from 'vitest/node';
import { buildWebOnce, startTestServer } from './harness';

export default async function setup(project: TestProject) {
  await buildWebOnce();
  const server = await startTestServer();
  project.provide('wolfpackBaseUrl', server.url);
  return async () => {
    await server.close();
  };
}
