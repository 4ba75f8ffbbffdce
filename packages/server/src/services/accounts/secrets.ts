import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';

const secretsFile = z
  .object({
    sessionKeys: z.array(z.string().min(32)).min(1),
    /** 32 bytes, base64url: encrypts per-user secrets (GitHub tokens) at rest. */
    secretKey: z.string().min(43).optional(),
    /** 32 bytes, base64url: the X-Admin-Secret of /admin/metrics when WOLFPACK_ADMIN_SECRET is unset. */
    adminSecret: z.string().min(32).optional(),
  })
  .loose();
export type StoredSecrets = z.infer<typeof secretsFile> & { secretKey: string; adminSecret: string };

/** The file in the data directory that holds generated secrets. */
export function secretsPath(dataDir: string): string {
  return join(dataDir, 'secrets.json');
}

/**
 * Secrets generated once into the data directory when the environment does not give them, so a
 * single server keeps its sessions and stored tokens across restarts without any setup. Several
 * servers behind a load balancer must share WOLFPACK_SESSION_KEYS, WOLFPACK_SECRET_KEY and WOLFPACK_ADMIN_SECRET instead.
 */
export async function loadOrCreateSecrets(dataDir: string): Promise<StoredSecrets> {
  const path = secretsPath(dataDir);
  let current: z.infer<typeof secretsFile> | undefined;
  try {
    current = secretsFile.parse(JSON.parse(await readFile(path, 'utf8')));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
      throw new Error(`${path} is unreadable or damaged; fix or delete it (deleting it signs everyone out).`, { cause: error });
    }
  }
  // A file from before a field existed gets the missing field added; existing values are kept.
  if (current?.secretKey && current.adminSecret) return current as StoredSecrets;
  const next: StoredSecrets = {
    ...current,
    sessionKeys: current?.sessionKeys ?? [randomBytes(32).toString('base64url')],
    secretKey: current?.secretKey ?? randomBytes(32).toString('base64url'),
    adminSecret: current?.adminSecret ?? randomBytes(32).toString('base64url'),
  };
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  // Written to a temporary file and renamed, so a crash never leaves half a secrets file.
  const temp = `${path}.${process.pid}.tmp`;
  await writeFile(temp, JSON.stringify(next, null, 2), { mode: 0o600 });
  await rename(temp, path);
  return next;
}
