import type { MikroORM } from '@mikro-orm/core';
import { AppError, njinKeyProblem, type AdminNjinLicenceReply, type NjinIterateReply, type NjinIterateRequest, type NjinKeySummary, type NjinLicense, type NjinSnippetReply, type NjinValidateReply } from '@wolfpack/core';
import type { Logger } from '../../logger.js';
import { usernameKey } from '../accounts/auth-service.js';
import type { CapsuleService } from '../community/capsule-service.js';
import type { EngineRegistry } from '../runs/engine-registry.js';
import { NjinIterations } from './njin-iterate.js';
import { NjinKeys, type ResolvedNjinKey } from './njin-keys.js';
import { NjinLicences } from './njin-licences.js';
import type { PaymentService } from '../billing/payment-service.js';
import type { Sql } from '../../db/plain-sql.js';
import { njinSnippet } from './njin-snippet.js';

export interface NjinServiceOptions {
  clock?: () => Date;
  /** Live API keys one user may hold (WOLFPACK_NJIN_KEYS_PER_USER). @default 10 */
  maxKeysPerUser?: number;
}

/** The validate answer for any key that cannot be used (spec §8 'Invalid License'). */
export const NJIN_INVALID_LICENSE = 'Invalid License';

/**
 * njin: API keys, the licence (a Stripe subscription) and the consensus iteration API. Keys and
 * the licence live in their own classes; this one is what the routes call.
 */
export class NjinService {
  readonly keys: NjinKeys;
  readonly licences: NjinLicences;
  readonly iterations: NjinIterations;

  constructor(
    readonly orm: MikroORM,
    readonly engines: EngineRegistry,
    readonly payments: PaymentService,
    readonly capsules: CapsuleService,
    readonly log: Logger,
    readonly options: NjinServiceOptions = {},
  ) {
    const clock = options.clock ?? (() => new Date());
    this.keys = new NjinKeys(orm, clock, options.maxKeysPerUser);
    this.licences = new NjinLicences(orm, payments, log, clock);
    this.iterations = new NjinIterations(orm, engines, this.keys, this.licences, capsules, log, clock);
  }

  createKey(userId: string) {
    return this.keys.create(userId);
  }

  listKeys(userId: string): Promise<NjinKeySummary[]> {
    return this.keys.list(userId);
  }

  revokeKey(userId: string, keyId: string): Promise<void> {
    return this.keys.revoke(userId, keyId);
  }

  /** The caller's own licence, with the prefix of their newest key. */
  async license(userId: string): Promise<NjinLicense | null> {
    return this.licences.license(userId, await this.keys.newestPrefix(userId));
  }

  /** Valid only for a live key whose owner holds an active licence. */
  async validate(apiKey: string): Promise<NjinValidateReply> {
    const key = await this.keys.resolve(apiKey);
    if (!key) return { valid: false, error: NJIN_INVALID_LICENSE };
    const row = await this.licences.row(key.userId);
    if (!row || !this.licences.isActive(row)) return { valid: false, usageCount: row ? Number(row.usage_count) : 0, error: NJIN_INVALID_LICENSE };
    return { valid: true, usageCount: Number(row.usage_count) };
  }

  /** Ready-to-paste examples with the key filled in; a mistyped key is refused before anything else. */
  snippet(apiKey: string, origin: string): NjinSnippetReply {
    const problem = njinKeyProblem(apiKey);
    if (problem) throw new AppError('BAD_REQUEST', problem);
    return { snippet: njinSnippet(apiKey, origin), language: 'markdown' };
  }

  subscribe(userId: string, origin: string, requestKey?: string): Promise<string> {
    return this.licences.subscribe(userId, origin, requestKey);
  }

  /** Cancels at the period end; answers the licence as it now stands. */
  async cancel(userId: string): Promise<NjinLicense | null> {
    await this.licences.cancel(userId);
    return this.license(userId);
  }

  /** The operator's grant: `username`'s licence is active until `until` (PUT /api/admin/njin-licences/{username}). */
  async grantLicence(username: string, until: Date): Promise<AdminNjinLicenceReply> {
    const user = await this.userNamed(username);
    return { licence: await this.licences.grant(user.id, user.username, until), changed: true };
  }

  /** The operator's revocation of a granted licence (DELETE /api/admin/njin-licences/{username}). */
  async revokeLicence(username: string): Promise<AdminNjinLicenceReply> {
    const user = await this.userNamed(username);
    const { licence, changed } = await this.licences.revoke(user.id, user.username);
    return { licence: licence ?? { username: user.username, status: 'inactive', expiresAt: null, usageCount: 0, paidThroughStripe: false }, changed };
  }

  /** An open account by its username (any case), or a 404 that names it. */
  private async userNamed(username: string): Promise<{ id: string; username: string }> {
    const rows = await (this.orm.em.fork() as Sql).execute<Array<{ id: string; username: string }>>(`select id, username from users where username_key = ? and status = 'active'`, [usernameKey(username)]);
    if (!rows[0]) throw new AppError('NOT_FOUND', `There is no account named ${username} on this server. Usernames are as people sign in with them.`);
    return rows[0];
  }

  /** 401 for a bad key, 402 without an active licence, 429 past the key's rate limit. */
  authorizeIteration(apiKey: string): Promise<ResolvedNjinKey> {
    return this.iterations.authorize(apiKey);
  }

  iterate(key: ResolvedNjinKey, request: NjinIterateRequest, signal?: AbortSignal): Promise<NjinIterateReply> {
    return this.iterations.iterate(key, request, signal);
  }
}
