import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';

const secretsFile = z.object({ sessionKeys: z.array(z.string().min(32)).min(1) }).loose();
export type StoredSecrets = z.infer<typeof secretsFile>;

/**
 * Secrets generated once into the data directory when the environment does not give them, so a
 * single server keeps its sessions across restarts without any setup. Several servers behind a
 * load balancer must share WOLFPACK_SESSION_KEYS instead.
 */
export async function loadOrCreateSecrets(dataDir: string): Promise<StoredSecrets> {
  const path = join(dataDir, 'secrets.json');
  try {
    return secretsFile.parse(JSON.parse(await readFile(path, 'utf8')));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
      throw new Error(`${path} is unreadable or damaged; fix or delete it (deleting it signs everyone out).`, {
        cause: error,
      });
    }
  }
  const secrets: StoredSecrets = { sessionKeys: [randomBytes(32).toString('base64url')] };
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  // 'wx' so two servers starting at once on one data dir do not overwrite each other's keys.
  await writeFile(path, JSON.stringify(secrets, null, 2), { mode: 0o600, flag: 'wx' }).catch(async (error) => {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  });
  return secretsFile.parse(JSON.parse(await readFile(path, 'utf8')));
}
