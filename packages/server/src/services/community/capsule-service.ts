import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/core';
import {
  AppError,
  countsAsAudience,
  TRENDING_AGE_OFFSET_HOURS,
  TRENDING_GRAVITY,
  TRENDING_SHARE_WEIGHT,
  type CapsuleEventType,
  type CapsuleInput,
  type ShareCapsuleRequest,
} from '@wolfpack/core';
import type { Logger } from '../../logger.js';
import { insertCapsule, insertCapsuleRows, readRunAsCapsule, toDate, type FinishedRun } from './capsule-recording.js';
import type { Sql } from '../../db/plain-sql.js';
import { isUuid } from '../projects/project-service.js';

/** The same answer for a missing and for someone else's private capsule: no existence leak. */
export const CAPSULE_NOT_FOUND = "This capsule doesn't exist or is private.";

/** Who is looking: a signed-in user, or an anonymous visitor known only by a salted hash. */
export interface CapsuleViewer {
  userId?: string | undefined;
  ip: string;
}

export interface CapsuleEventJson {
  id: string;
  eventType: CapsuleEventType;
  timestamp: string;
  data: Record<string, unknown>;
}

export interface CapsuleDetailJson {
  capsule: CapsuleInput;
  events: CapsuleEventJson[];
  metrics: CapsuleInput['metrics'] | null;
  shareCount: number;
}

interface CapsuleRow {
  id: string;
  user_id: string;
  slug: string;
  share_slug: string;
  title: string;
  project_name: string;
  description: string | null;
  original_prompt: string;
  enhanced_prompt: string | null;
  final_code?: string | null;
  is_public: boolean | string;
  view_count: number | string;
  share_count: number | string;
  metrics: unknown;
  created_at: unknown;
}

const LIST_COLUMNS = 'id, user_id, slug, share_slug, title, project_name, description, original_prompt, enhanced_prompt, is_public, view_count, share_count, metrics, created_at';
const HOUR_MS = 3_600_000;
const SLUG_PATTERN = /^[a-z0-9-]{1,120}$/;

/**
 * PackCast capsules: recorded from every completed run (private), published by their owner,
 * viewed and shared (counted once per visitor per capsule per day, or the operator's period, never
 * the owner's, as they feed Trending), and discovered through the trending and latest lists of
 * public ones.
 */
export class CapsuleService {
  private salt: Promise<string> | undefined;

  constructor(
    readonly orm: MikroORM,
    readonly log: Logger,
    readonly clock: () => Date = () => new Date(),
    /** WOLFPACK_CAPSULE_COUNT_HOURS: the period a visitor's view or share counts once in. @default 24 */
    readonly countPeriodHours = 24,
  ) {}

  /** Records the capsule of a finished run; never throws into the run. */
  async recordRun(run: FinishedRun): Promise<void> {
    try {
      await this.record(run);
    } catch (error) {
      this.log.warn(`the capsule of run ${run.conversationId} was not recorded`, error);
    }
  }

  /** The capsule's id, or null when this run already has one. */
  async record(run: FinishedRun): Promise<string | null> {
    const sql = this.sql();
    const existing = await sql.execute<Array<{ id: string }>>('select id from capsules where conversation_id = ?', [run.conversationId]);
    if (existing.length > 0) return null;
    const now = this.clock();
    const capsule = await readRunAsCapsule(sql, run, now);
    // One statement: the capsule and its timeline, or nothing when the run has one already.
    return insertCapsule(sql, run, capsule, now);
  }

  /**
   * Records an njin iteration as a private capsule of the key's owner: the instruction
   * as the prompt, the winning patch as the code, the candidates and the vote as the timeline. It
   * has no run, so no conversation.
   */
  async recordIteration(input: {
    userId: string;
    instruction: string;
    files: Readonly<Record<string, string>>;
    outcome: { mode: string; patch: string; consensusScore: number; modelVotes: string; winner: string; candidates: ReadonlyArray<{ engine: string; passed: boolean; failedChecks: string[] }>; calls: ReadonlyArray<{ totalTokens: number; durationMs: number; costMillicents: number }> };
    createdAt: Date;
  }): Promise<string> {
    const { outcome, createdAt } = input;
    const firstLine = input.instruction.split('\n').find((line) => line.trim() !== '')?.trim() ?? 'njin iteration';
    const title = `njin: ${firstLine}`.slice(0, 120);
    const at = createdAt.toISOString();
    const events = [
      { eventType: 'prompt_received', data: { enhanced: false, reason: `${Object.keys(input.files).length} file(s), ${outcome.mode} mode`, iteration: 1 } },
      ...outcome.candidates.map((c) => ({ eventType: 'code_refined', data: { model: c.engine, enhanced: c.passed, reason: c.passed ? 'passed every check' : `failed: ${c.failedChecks.join(', ')}`, iteration: 1 } })),
      { eventType: 'session_complete', data: { model: outcome.winner, enhanced: true, reason: `chosen by ${outcome.modelVotes || 'the checks'}`, iteration: 1 } },
    ];
    const metrics = {
      totalDuration: outcome.calls.reduce((sum, c) => sum + c.durationMs, 0),
      totalTokens: outcome.calls.reduce((sum, c) => sum + c.totalTokens, 0),
      totalCost: outcome.calls.reduce((sum, c) => sum + c.costMillicents, 0) / 1000,
      modelVotes: outcome.modelVotes,
      consensusScore: outcome.consensusScore,
      outputLength: outcome.patch.length,
    };
    const id = await insertCapsuleRows(this.sql(), {
      userId: input.userId,
      conversationId: null,
      projectId: null,
      title,
      projectName: 'njin',
      description: 'An njin iteration: only patches that pass the checks compete.',
      originalPrompt: input.instruction,
      enhancedPrompt: null,
      finalCode: outcome.patch,
      metrics,
      createdAt,
      events: events.map((event) => ({ ...event, timestamp: at })),
    });
    // No run, so no conflict on it: the row is always new.
    if (!id) throw new Error('the njin capsule was not stored');
    return id;
  }

  /** GET /api/capsules/{slug}: public ones, or the owner's own; counts the view. */
  async detail(slug: string, viewer: CapsuleViewer): Promise<CapsuleDetailJson> {
    if (!SLUG_PATTERN.test(slug)) throw new AppError('NOT_FOUND', CAPSULE_NOT_FOUND);
    const sql = this.sql();
    const [row] = await sql.execute<CapsuleRow[]>(`select ${LIST_COLUMNS}, final_code from capsules where slug = ?`, [slug]);
    const isOwner = row !== undefined && !countsAsAudience(viewer.userId, row.user_id);
    if (!row || (!isPublic(row) && !isOwner)) throw new AppError('NOT_FOUND', CAPSULE_NOT_FOUND);
    if (!isOwner) {
      const counted = await this.countView(row.id, viewer);
      if (counted !== null) row.view_count = counted;
    }
    const events = await sql.execute<Array<{ id: string; event_type: CapsuleEventType; timestamp: unknown; data: unknown }>>(
      'select id, event_type, timestamp, data from capsule_events where capsule_id = ? order by seq',
      [row.id],
    );
    const capsule = toJson(row);
    return {
      capsule,
      events: events.map((e) => ({ id: e.id, eventType: e.event_type, timestamp: toDate(e.timestamp).toISOString(), data: parseJson(e.data) as Record<string, unknown> })),
      metrics: capsule.metrics ?? null,
      shareCount: Number(row.share_count),
    };
  }

  /**
   * One view per viewer per period (a UTC day by default): the view row's key (capsule, viewer,
   * period's start; the column is still named hour_bucket) admits one insert, and only an admitted insert bumps the counter, in
   * the same statement. The new count, or null.
   */
  private async countView(capsuleId: string, viewer: CapsuleViewer): Promise<number | null> {
    const now = this.clock();
    const period = this.periodStart(now);
    const key = await this.viewerKey(viewer);
    const rows = await this.sql().execute<Array<{ view_count: number | string }>>(
      `with counted as (
         insert into capsule_views (capsule_id, viewer_key, hour_bucket, created_at) values (?, ?, ?, ?)
         on conflict do nothing returning capsule_id
       )
       update capsules set view_count = view_count + 1 where id in (select capsule_id from counted) returning view_count`,
      [capsuleId, key, period, now],
    );
    return rows[0] ? Number(rows[0].view_count) : null;
  }

  /**
   * HMAC of the user id, or of the address of a visitor signed out, with a salt kept in the
   * database: no raw address is stored. Not the browser's User-Agent: changing it is free, so it
   * would let one address count as many visitors.
   */
  private async viewerKey(viewer: CapsuleViewer): Promise<string> {
    const who = viewer.userId ? `user:${viewer.userId}` : `anonymous:${viewer.ip}`;
    return createHmac('sha256', await this.viewerSalt()).update(who).digest('hex');
  }

  private viewerSalt(): Promise<string> {
    this.salt ??= (async () => {
      const sql = this.sql();
      await sql.execute('insert into capsule_secrets (id, viewer_salt) values (1, ?) on conflict (id) do nothing', [randomBytes(32).toString('base64url')]);
      const [row] = await sql.execute<Array<{ viewer_salt: string }>>('select viewer_salt from capsule_secrets where id = 1');
      return row!.viewer_salt;
    })();
    this.salt.catch(() => {
      this.salt = undefined;
    });
    return this.salt;
  }

  /**
   * The start of the counting period `at` falls in: periods of countPeriodHours counted from the
   * epoch, so the default 24 gives UTC days.
   */
  private periodStart(at: Date): Date {
    const length = this.countPeriodHours * HOUR_MS;
    return new Date(Math.floor(at.getTime() / length) * length);
  }

  /** GET /api/capsules/user/my-capsules: the owner's, newest first. */
  async mine(userId: string): Promise<CapsuleInput[]> {
    const rows = await this.sql().execute<CapsuleRow[]>(`select ${LIST_COLUMNS} from capsules where user_id = ? order by created_at desc, id desc limit 1000`, [userId]);
    return rows.map(toJson);
  }

  /** POST /api/capsules/{id}/publish: the owner only (anyone else: not found). */
  async publish(userId: string, id: string, makePublic: boolean): Promise<CapsuleInput> {
    if (!isUuid(id)) throw new AppError('NOT_FOUND', CAPSULE_NOT_FOUND);
    const [row] = await this.sql().execute<CapsuleRow[]>(
      `update capsules set is_public = ?, published_at = case when ? then coalesce(published_at, ?) else published_at end
       where id = ? and user_id = ? returning ${LIST_COLUMNS}`,
      [makePublic, makePublic, this.clock(), id, userId],
    );
    if (!row) throw new AppError('NOT_FOUND', CAPSULE_NOT_FOUND);
    return toJson(row);
  }

  /**
   * POST /api/capsules/{id}/share: a share of a public capsule (or the owner's own). Every share is
   * logged, but share_count (which weighs 3 × a view in trending) rises once per viewer and period
   * (a UTC day by default), whatever the method, and never for the owner (as with views), so clicking Share in a
   * loop cannot push a capsule up the trending list.
   */
  async share(viewer: CapsuleViewer, id: string, request: ShareCapsuleRequest): Promise<{ shareCount: number }> {
    if (!isUuid(id)) throw new AppError('NOT_FOUND', CAPSULE_NOT_FOUND);
    const key = await this.viewerKey(viewer);
    const now = this.clock();
    return this.orm.em.fork().transactional(async (em) => {
      const sql = em as Sql;
      // The row lock serialises shares of one capsule, so the "already counted" check cannot race.
      const [row] = await sql.execute<Array<{ user_id: string; is_public: boolean | string; share_count: number | string }>>('select user_id, is_public, share_count from capsules where id = ? for update', [id]);
      if (!row || (!isPublic(row) && row.user_id !== viewer.userId)) throw new AppError('NOT_FOUND', CAPSULE_NOT_FOUND);
      const recent = await sql.execute<unknown[]>(
        'select 1 from capsule_shares where capsule_id = ? and viewer_key = ? and counted and created_at >= ? limit 1',
        [id, key, this.periodStart(now)],
      );
      // Like views, the owner's own shares are logged but never counted.
      const counted = countsAsAudience(viewer.userId, row.user_id) && recent.length === 0;
      await sql.execute('insert into capsule_shares (id, capsule_id, user_id, viewer_key, method, referral_code, counted, created_at) values (?, ?, ?, ?, ?, ?, ?, ?)', [
        randomUUID(), id, viewer.userId ?? null, key, request.shareMethod, request.referralCode ?? null, counted, now,
      ]);
      if (!counted) return { shareCount: Number(row.share_count) };
      const [updated] = await sql.execute<Array<{ share_count: number | string }>>('update capsules set share_count = share_count + 1 where id = ? returning share_count', [id]);
      return { shareCount: Number(updated!.share_count) };
    });
  }

  /** Public capsules, newest first. */
  async latest(limit: number): Promise<CapsuleInput[]> {
    const rows = await this.sql().execute<CapsuleRow[]>(`select ${LIST_COLUMNS} from capsules where is_public order by created_at desc, id desc limit ?`, [limit]);
    return rows.map(toJson);
  }

  /**
   * Public capsules by core's trendingScore, (views + 3 × shares) / (age in hours + 2)^1.5, computed
   * in SQL with the same constants and the service's clock as "now".
   */
  async trending(limit: number): Promise<CapsuleInput[]> {
    const rows = await this.sql().execute<CapsuleRow[]>(
      `select ${LIST_COLUMNS} from capsules where is_public
       order by (view_count + ${TRENDING_SHARE_WEIGHT} * share_count)
         / power(greatest(extract(epoch from (cast(? as timestamptz) - created_at)) / 3600.0, 0) + ${TRENDING_AGE_OFFSET_HOURS}, ${TRENDING_GRAVITY}) desc,
         created_at desc, id desc
       limit ?`,
      [this.clock(), limit],
    );
    return rows.map(toJson);
  }

  /** Title and description of a public capsule for link previews (no view is counted). */
  async preview(slug: string): Promise<{ title: string; description: string } | null> {
    if (!SLUG_PATTERN.test(slug)) return null;
    const [row] = await this.sql().execute<Array<{ title: string; description: string | null }>>('select title, description from capsules where slug = ? and is_public', [slug]);
    return row ? { title: row.title, description: row.description ?? '' } : null;
  }

  private sql(): Sql {
    return this.orm.em.fork() as Sql;
  }
}

function isPublic(row: { is_public: boolean | string }): boolean {
  return row.is_public === true || row.is_public === 't' || row.is_public === 'true';
}

function parseJson(value: unknown): unknown {
  return typeof value === 'string' ? JSON.parse(value) : value;
}

/** A row as the API sends it: isPublic the string "true"/"false" (spec §3), finalCode on the detail only. */
function toJson(row: CapsuleRow): CapsuleInput {
  return {
    id: row.id,
    slug: row.slug,
    shareSlug: row.share_slug,
    title: row.title,
    projectName: row.project_name,
    description: row.description,
    originalPrompt: row.original_prompt,
    enhancedPrompt: row.enhanced_prompt,
    ...(row.final_code !== undefined ? { finalCode: row.final_code } : {}),
    viewCount: Number(row.view_count),
    shareCount: Number(row.share_count),
    createdAt: toDate(row.created_at).toISOString(),
    isPublic: isPublic(row) ? 'true' : 'false',
    metrics: parseJson(row.metrics) as CapsuleInput['metrics'],
  };
}

