import { createReadStream } from 'node:fs';
import Router from '@koa/router';
import type { CliTarball } from '../services/operations/cli-tarball.js';

/**
 * GET /cli/wolfpack-cli.tgz: the CLI of this server's version as an npm tarball, so a CI job
 * installs it with `npm i -g https://HOST/cli/wolfpack-cli.tgz`. Public, like the CLI itself.
 */
export function cliRoutes(tarball: CliTarball): Router {
  const router = new Router();
  router.get('/cli/wolfpack-cli.tgz', async (ctx) => {
    const file = await tarball.file();
    ctx.type = 'application/gzip';
    ctx.length = file.size;
    ctx.set('Content-Disposition', `attachment; filename="${file.fileName}"`);
    // The name stays while the version changes: caches must ask again.
    ctx.set('Cache-Control', 'no-cache');
    ctx.body = createReadStream(file.path);
  });
  return router;
}
