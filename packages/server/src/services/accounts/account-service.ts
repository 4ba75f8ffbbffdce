import { LockMode, type MikroORM } from '@mikro-orm/core';
import { AppError, type AccountReplyJson } from '@wolfpack/core';
import {
  ApiToken,
  Conversation,
  Enhancement,
  Folder,
  LoginFailure,
  PaymentCard,
  Project,
  SessionRecord,
  User,
  UserSecret,
} from '../../entities/index.js';
import type { LedgerService } from '../billing/ledger-service.js';

/** How many ledger entries the Account page shows as recent activity. */
export const RECENT_ACTIVITY_LIMIT = 10;

/** Not a scrypt hash (see password.ts), so no password ever verifies against it. */
const UNUSABLE_PASSWORD_HASH = '!closed';

/** The Account page, and closing an account. */
export class AccountService {
  constructor(
    private readonly orm: MikroORM,
    private readonly ledger: LedgerService,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  async account(userId: string): Promise<AccountReplyJson> {
    const em = this.orm.em.fork();
    const user = await em.findOne(User, { id: userId }, { fields: ['username', 'status', 'createdAt'] });
    if (!user) throw new AppError('NOT_FOUND', 'This account does not exist.');
    const card = await em.findOne(PaymentCard, { userId });
    return {
      username: user.username,
      status: user.status,
      createdAt: user.createdAt.toISOString(),
      billingCycle: 'Pay-as-you-go',
      card: card ? { brand: card.brand, last4: card.last4, expMonth: card.expMonth, expYear: card.expYear } : null,
      recentActivity: await this.ledger.entries(userId, { limit: RECENT_ACTIVITY_LIMIT }),
    };
  }

  /**
   * Signs the user out everywhere: every browser session and every personal API token (the
   * command line's `wolfpack login`) ends, in one transaction. The caller ends the preview links
   * too (PreviewService.revokeAll).
   */
  async signOutEverywhere(userId: string): Promise<void> {
    await this.orm.em.fork().transactional(async (em) => {
      await em.nativeDelete(SessionRecord, { userId });
      await em.nativeUpdate(ApiToken, { userId, revokedAt: null }, { revokedAt: this.clock() });
    });
  }

  /**
   * Cancel Account: in one transaction the user row is anonymised (its name freed, its password
   * unusable, its referral code gone) and every personal record is deleted: sessions, API tokens,
   * secrets, the card, projects (their files and versions cascade), folders, runs (their events
   * and usage cascade) and enhancements. What the account exposed or paid for ends with it
   *: its njin keys are revoked, its Showcase listings unpublished (copies already
   * bought stay with their buyers) and its capsules made private; the njin subscription is
   * cancelled at Stripe after the commit (SubscriptionCloser). The ledger, holds, wallet and
   * referral rewards stay, attached to the anonymised row, so the books still add up.
   */
  async close(userId: string): Promise<void> {
    await this.orm.em.fork().transactional(async (em) => {
      // Taking the row lock first makes a second, concurrent close wait and then find it closed.
      const user = await em.findOne(User, { id: userId }, { fields: ['usernameKey', 'status'], lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!user || user.status === 'closed') throw new AppError('NOT_FOUND', 'This account does not exist or is already closed.');
      // A build still writing into the run rows would fail half-way: let it finish first.
      if (await em.count(Conversation, { userId, status: 'running' })) {
        throw new AppError('CONFLICT', 'A build is still running. Wait for it to finish, then close the account.');
      }
      await em.nativeDelete(SessionRecord, { userId });
      await em.nativeDelete(ApiToken, { userId });
      await em.nativeDelete(UserSecret, { userId });
      await em.nativeDelete(PaymentCard, { userId });
      await em.nativeDelete(Enhancement, { userId });
      await em.nativeDelete(Conversation, { userId });
      await em.nativeDelete(Project, { userId });
      await em.nativeDelete(Folder, { userId });
      await em.nativeDelete(LoginFailure, { usernameKey: user.usernameKey });
      const now = this.clock();
      const sql = em as typeof em & { execute(sql: string, params?: unknown[]): Promise<unknown> };
      await sql.execute('update njin_api_keys set revoked_at = ? where user_id = ? and revoked_at is null', [now, userId]);
      await sql.execute('update listings set deleted_at = ?, updated_at = ? where user_id = ? and deleted_at is null', [now, now, userId]);
      await sql.execute('update capsules set is_public = ? where user_id = ? and is_public', [false, userId]);
      await em.nativeUpdate(
        User,
        { id: userId },
        {
          status: 'closed',
          closedAt: now,
          username: `closed-${userId.slice(0, 8)}`,
          // Not a name anyone can type (':' is not allowed in usernames), so the old name is free.
          usernameKey: `closed:${userId}`,
          passwordHash: UNUSABLE_PASSWORD_HASH,
          referralCode: null,
        },
      );
    });
  }
}
