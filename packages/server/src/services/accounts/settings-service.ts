import type { MikroORM } from '@mikro-orm/core';
import { AppError, type GithubSettingsReply } from '@wolfpack/core';
import { UserSecret } from '../../entities/index.js';
import type { GithubPublisher } from '../projects/github-publisher.js';
import type { SecretBox } from './secret-box.js';

/** The user's GitHub token: checked with GitHub when saved, encrypted at rest, never sent back. */
export class SettingsService {
  constructor(
    private readonly orm: MikroORM,
    private readonly box: SecretBox,
    private readonly github: GithubPublisher,
  ) {}

  async githubStatus(userId: string): Promise<GithubSettingsReply> {
    const row = await this.orm.em.fork().findOne(UserSecret, { userId });
    return { connected: Boolean(row?.githubTokenCipher), login: row?.githubTokenCipher ? (row.githubLogin ?? null) : null };
  }

  async saveGithubToken(userId: string, token: string): Promise<GithubSettingsReply> {
    const { login } = await this.github.whoAmI(token);
    await this.orm.em.fork().upsert(UserSecret, {
      userId,
      githubTokenCipher: this.box.seal(token, userId),
      githubLogin: login,
      updatedAt: new Date(),
    });
    return { connected: true, login };
  }

  async removeGithubToken(userId: string): Promise<void> {
    await this.orm.em.fork().nativeUpdate(UserSecret, { userId }, { githubTokenCipher: null, githubLogin: null, updatedAt: new Date() });
  }

  /** The saved token, or a 400 that says how to provide one. */
  async githubToken(userId: string): Promise<string> {
    const row = await this.orm.em.fork().findOne(UserSecret, { userId });
    if (!row?.githubTokenCipher) {
      throw new AppError('BAD_REQUEST', 'Save a GitHub token in Settings first (a token with the repo scope), or send one in the X-GitHub-Token header.');
    }
    try {
      return this.box.open(row.githubTokenCipher, userId);
    } catch {
      throw new AppError('BAD_REQUEST', 'The saved GitHub token can no longer be read (the server secret key changed). Save it again in Settings.');
    }
  }
}
