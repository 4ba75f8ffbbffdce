import { randomUUID } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/core';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { AppError, type Credentials, type PublicUser } from '@wolfpack/core';
import { plainSql } from '../../db/plain-sql.js';
import { LoginFailure, User } from '../../entities/index.js';
import { PasswordHasher } from './password.js';
import { newReferralCode } from './referral-service.js';
import type { UserRow } from './session-store.js';

/** After this many failed sign-ins for one username within the window, sign-in is refused. */
export const LOGIN_FAILURE_LIMIT = 10;
export const LOGIN_FAILURE_WINDOW_MS = 15 * 60_000;

/** Registration: credentials and, when the visitor came through a referral link, its code. */
export type RegisterInput = Credentials & { referralCode?: string | undefined };

/** Referral codes drawn per registration before giving up (36^6 codes: collisions stay rare). */
const REFERRAL_CODE_ATTEMPTS = 5;

export interface AuthenticatedUser extends PublicUser {
  id: string;
}

export function usernameKey(username: string): string {
  return username.trim().normalize('NFKC').toLowerCase();
}

function toAuthenticated(user: { id: string; username: string; plan: string }): AuthenticatedUser {
  return { id: user.id, username: user.username, plan: user.plan };
}

/** Who a user row signs in as: nobody when it is gone or closed. */
export function signedInAs(user: UserRow | null): AuthenticatedUser | null {
  // A closed account has no sessions or tokens left; this also refuses one a racing request revived.
  return user && user.status !== 'closed' ? toAuthenticated(user) : null;
}

/** Accounts: registration, password sign-in with a per-username throttle, look-up by id. */
export class AuthService {
  constructor(
    private readonly orm: MikroORM,
    private readonly now: () => number = Date.now,
    private readonly newCode: () => string = newReferralCode,
    private readonly passwords: PasswordHasher = new PasswordHasher(),
  ) {}

  /**
   * Creates an account with a fresh referral code. A `referralCode` of an active user makes that
   * user the referrer; any other code is ignored. The referrer is set only here, to an account that
   * already exists, so the chain of referrers can never loop (nor point at the new user itself).
   */
  async register(input: RegisterInput): Promise<AuthenticatedUser> {
    const key = usernameKey(input.username);
    if (await this.orm.em.fork().count(User, { usernameKey: key })) throw usernameTaken(input.username);
    const referrer = input.referralCode
      ? await this.orm.em.fork().findOne(User, { referralCode: input.referralCode, status: 'active' }, { fields: ['id'] })
      : null;
    const passwordHash = await this.passwords.hash(input.password);
    for (let attempt = 1; ; attempt++) {
      const em = this.orm.em.fork();
      const user = em.create(User, {
        id: randomUUID(),
        username: input.username.trim(),
        usernameKey: key,
        passwordHash,
        plan: 'Free',
        createdAt: new Date(this.now()),
        referralCode: this.newCode(),
        referredBy: referrer?.id ?? null,
        status: 'active',
      });
      try {
        await em.flush();
        return toAuthenticated(user);
      } catch (error) {
        if (!(error instanceof UniqueConstraintViolationException)) throw error;
        // Two registrations racing for one name: the unique index decides.
        if (await this.orm.em.fork().count(User, { usernameKey: key })) throw usernameTaken(input.username);
        // Otherwise the random referral code was taken: draw another.
        if (attempt >= REFERRAL_CODE_ATTEMPTS) throw error;
      }
    }
  }

  /**
   * Checks a password. Refuses with 429 while the username is throttled, even for the right
   * password, so guessing cannot continue by waiting for a lucky hit.
   */
  async verifyCredentials(input: Credentials): Promise<AuthenticatedUser> {
    const em = this.orm.em.fork();
    const key = usernameKey(input.username);
    await this.assertNotThrottled(key);
    // The try is written down as a failure before the password is checked, and the throttle asked
    // again counting every other try: concurrent guesses each see the others, so a burst of them
    // cannot slip more than LOGIN_FAILURE_LIMIT past a check that all read before any was stored.
    const attempt = em.create(LoginFailure, { usernameKey: key, failedAt: new Date(this.now()) });
    await em.flush();
    try {
      await this.assertNotThrottled(key, attempt.id);
    } catch (error) {
      // Refused without a try: it must not push the lock further out.
      await em.nativeDelete(LoginFailure, { id: attempt.id });
      throw error;
    }
    const user = await em.findOne(User, { usernameKey: key }, { fields: ['id', 'username', 'plan', 'passwordHash'] });
    const ok = await this.passwords.verify(input.password, user?.passwordHash ?? (await this.passwords.dummyHash()));
    // A wrong password leaves its row: that is the failure.
    if (!user || !ok) throw new AppError('UNAUTHORIZED', 'Invalid username or password.');
    await em.nativeDelete(LoginFailure, { usernameKey: key });
    return toAuthenticated(user);
  }

  async findById(id: string): Promise<AuthenticatedUser | null> {
    // Every signed-in request looks its user up: a plain statement, not an entity.
    const [user] = await plainSql(this.orm.em.fork()).execute<UserRow[]>('select id, username, plan, status from users where id = ?', [id]);
    return signedInAs(user ?? null);
  }

  /** Refuses with 429 when LOGIN_FAILURE_LIMIT tries (other than `ownAttempt`) are in the window. */
  private async assertNotThrottled(key: string, ownAttempt?: string | number | bigint): Promise<void> {
    const em = this.orm.em.fork();
    const since = new Date(this.now() - LOGIN_FAILURE_WINDOW_MS);
    const failures = await em.find(
      LoginFailure,
      { usernameKey: key, failedAt: { $gt: since }, ...(ownAttempt === undefined ? {} : { id: { $ne: ownAttempt } }) },
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
