import { randomUUID } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/core';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { AppError, type Credentials, type PublicUser } from '@wolfpack/core';
import { LoginFailure, User } from '../entities/index.js';
import { dummyPasswordHash, hashPassword, verifyPassword } from './password.js';

/** After this many failed sign-ins for one username within the window, sign-in is refused. */
export const LOGIN_FAILURE_LIMIT = 10;
export const LOGIN_FAILURE_WINDOW_MS = 15 * 60_000;

export interface AuthenticatedUser extends PublicUser {
  id: string;
}

export function usernameKey(username: string): string {
  return username.trim().normalize('NFKC').toLowerCase();
}

function toAuthenticated(user: { id: string; username: string; plan: string }): AuthenticatedUser {
  return { id: user.id, username: user.username, plan: user.plan };
}

/** Accounts: registration, password sign-in with a per-username throttle, look-up by id. */
export class AuthService {
  constructor(
    private readonly orm: MikroORM,
    private readonly now: () => number = Date.now,
  ) {}

  async register(input: Credentials): Promise<AuthenticatedUser> {
    const em = this.orm.em.fork();
    const key = usernameKey(input.username);
    if (await em.count(User, { usernameKey: key })) throw usernameTaken(input.username);
    const user = em.create(User, {
      id: randomUUID(),
      username: input.username.trim(),
      usernameKey: key,
      passwordHash: await hashPassword(input.password),
      plan: 'Free',
      createdAt: new Date(this.now()),
    });
    try {
      await em.flush();
    } catch (error) {
      // Two registrations racing for one name: the unique index decides.
      if (error instanceof UniqueConstraintViolationException) throw usernameTaken(input.username);
      throw error;
    }
    return toAuthenticated(user);
  }

  /**
   * Checks a password. Refuses with 429 while the username is throttled, even for the right
   * password, so guessing cannot continue by waiting for a lucky hit.
   */
  async verifyCredentials(input: Credentials): Promise<AuthenticatedUser> {
    const em = this.orm.em.fork();
    const key = usernameKey(input.username);
    await this.assertNotThrottled(key);
    const user = await em.findOne(User, { usernameKey: key }, { fields: ['id', 'username', 'plan', 'passwordHash'] });
    const ok = await verifyPassword(input.password, user?.passwordHash ?? (await dummyPasswordHash()));
    if (!user || !ok) {
      em.create(LoginFailure, { usernameKey: key, failedAt: new Date(this.now()) });
      await em.flush();
      throw new AppError('UNAUTHORIZED', 'Invalid username or password.');
    }
    await em.nativeDelete(LoginFailure, { usernameKey: key });
    return toAuthenticated(user);
  }

  async findById(id: string): Promise<AuthenticatedUser | null> {
    const user = await this.orm.em.fork().findOne(User, { id }, { fields: ['id', 'username', 'plan'] });
    return user ? toAuthenticated(user) : null;
  }

  private async assertNotThrottled(key: string): Promise<void> {
    const em = this.orm.em.fork();
    const since = new Date(this.now() - LOGIN_FAILURE_WINDOW_MS);
    const failures = await em.find(
      LoginFailure,
      { usernameKey: key, failedAt: { $gt: since } },
      { orderBy: { failedAt: 'desc' }, limit: LOGIN_FAILURE_LIMIT, fields: ['failedAt'] },
    );
    if (failures.length < LOGIN_FAILURE_LIMIT) return;
    // The oldest of the last LIMIT failures leaving the window is when one more try is allowed.
    const oldest = failures[failures.length - 1]!.failedAt.getTime();
    const retryAt = oldest + LOGIN_FAILURE_WINDOW_MS;
    const seconds = Math.max(1, Math.ceil((retryAt - this.now()) / 1000));
    const minutes = Math.ceil(seconds / 60);
    throw new AppError(
      'TOO_MANY_REQUESTS',
      `Too many failed sign-in attempts for this username. Try again in ${minutes} minute${minutes === 1 ? '' : 's'} (after ${new Date(retryAt).toISOString().slice(11, 16)} UTC).`,
      { retryAfterSeconds: seconds },
    );
  }
}

function usernameTaken(username: string): AppError {
  return new AppError('CONFLICT', `The username "${username.trim()}" is already taken. Choose another one or sign in.`);
}
