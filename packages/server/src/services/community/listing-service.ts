import { randomUUID } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/core';
import {
  AppError,
  COVER_IMAGE_MAX_BYTES,
  COVER_IMAGE_MAX_SIDE,
  detectTechStack,
  generatedCoverSvg,
  LISTING_MIN_PRICE_CENTS,
  type CreateListingRequest,
  type ListingDraftReply,
  type ListingJson,
  type ListingsQuery,
  type UpdateListingRequest,
} from '@wolfpack/core';
import { CoverDecodeError, decodeCoverImage } from './cover-decoder.js';
import type { LedgerService } from '../billing/ledger-service.js';
import { ListingPurchases, type ListingRow } from './listing-purchases.js';
import type { Sql } from '../../db/plain-sql.js';
import type { PaymentService } from '../billing/payment-service.js';
import { isUuid, type ProjectService } from '../projects/project-service.js';

export interface ListingServiceOptions {
  /** The time purchases and listings are stamped with. @default () => new Date() */
  clock?: () => Date;
  /** The platform's share of a commercial sale, in percent. @default 20 */
  platformSharePercent?: number;
}

export const LISTING_NOT_FOUND = 'This listing could not be found or has been removed.';
const COVER_TYPE_MESSAGE = 'The cover image must be a PNG, JPEG, WebP or GIF';
const COVER_SIZE_MESSAGE = 'The cover image must be at most 1 MB';
const COMMERCIAL_PRICE_MESSAGE = 'A commercial listing needs a price of at least $1 (priceCents ≥ 100)';

/** The columns a listing reply is made of (never the cover bytes). */
const LISTING_COLUMNS = `l.id, l.user_id, l.title, l.summary, l.visibility, l.price_cents, l.currency, l.tech_stack, l.tags,
  l.demo_url, l.repo_url, l.prompt_original, l.prompt_enhanced_snapshot, l.file_count, l.cover_version, l.created_at, u.username`;

/** A cover to send: uploaded bytes of a sniffed type, or the generated SVG. */
export interface CoverImage {
  body: Buffer | string;
  type: string;
  version: number;
}

/**
 * Showcase listings: browsing (public, searched on the generated tsvector column), a listing's
 * life for its owner (create with a snapshot of the project's files, edit, delete), covers, and
 * purchases (ListingPurchases). Plain SQL: the search, paging and copies are set operations.
 */
export class ListingService {
  readonly purchases: ListingPurchases;

  constructor(
    readonly orm: MikroORM,
    readonly ledger: LedgerService,
    readonly payments: PaymentService,
    readonly projects: ProjectService,
    readonly options: ListingServiceOptions = {},
  ) {
    this.purchases = new ListingPurchases(orm, ledger, payments, { clock: this.clock, platformSharePercent: options.platformSharePercent ?? 20, find: (id) => this.liveRow(id) });
  }

  private readonly clock = (): Date => (this.options.clock ?? (() => new Date()))();

  /** One page of live listings; `viewerId` adds isOwner and purchasedProjectId. */
  async list(query: ListingsQuery, viewerId?: string): Promise<ListingJson[]> {
    const where = ['l.deleted_at is null'];
    const params: unknown[] = [];
    if (query.isCommercial) {
      where.push('l.visibility = ?');
      params.push(query.isCommercial === 'true' ? 'commercial' : 'free');
    }
    const search = searchQuery(query.search);
    if (search !== undefined) {
      // A constant tsquery (not a subquery) lets the planner weigh the words against the column's
      // statistics: rare words go through the GIN index, common ones down the sort index.
      where.push(`l.search @@ to_tsquery('simple', ?)`);
      params.push(search);
    }
    const column = query.sortBy === 'priceCents' ? 'l.price_cents' : 'l.created_at';
    const direction = query.sortOrder === 'asc' ? 'asc' : 'desc';
    const rows = await this.sql().execute<ListingRow[]>(
      `select ${LISTING_COLUMNS}${viewerId ? ', p.project_id as purchased_project_id, p.id as purchase_id' : ''}
       from listings l join users u on u.id = l.user_id
       ${viewerId ? 'left join listing_purchases p on p.listing_id = l.id and p.buyer_id = ?' : ''}
       where ${where.join(' and ')}
       order by ${column} ${direction}, l.id ${direction} limit ? offset ?`,
      [...(viewerId ? [viewerId] : []), ...params, query.limit, query.offset],
    );
    return rows.map((row) => toJson(row, viewerId));
  }

  async get(id: string, viewerId?: string): Promise<ListingJson> {
    const row = await this.liveRow(id, viewerId);
    if (!row) throw new AppError('NOT_FOUND', LISTING_NOT_FOUND);
    return toJson(row, viewerId);
  }

  /** What the "List in Showcase" form starts from. */
  async draft(userId: string, projectId: string): Promise<ListingDraftReply['draft']> {
    const project = await this.projects.getOwned(userId, projectId);
    const files = await this.stackFiles(projectId);
    const prompts = await this.prompts(projectId, project.idea);
    const lines = project.idea.trim().split(/\r?\n/);
    const title = (lines[0] ?? '').trim().slice(0, 120) || 'Untitled Project';
    const rest = lines.slice(1).join('\n').trim();
    return { title, summary: (rest || project.idea.trim()).slice(0, 2000), techStack: detectTechStack(files), ...prompts, fileCount: files.length };
  }

  /** Lists an owned project: its files are copied now, later runs do not change the listing. */
  async create(userId: string, input: CreateListingRequest): Promise<ListingJson> {
    const project = await this.projects.getOwned(userId, input.projectId);
    const cover = input.coverImage ? await decodeCover(input.coverImage) : null;
    const files = await this.stackFiles(project.id);
    if (files.length === 0) throw new AppError('BAD_REQUEST', 'This project has no files yet. Build it first, then list it in the Showcase.');
    const prompts = await this.prompts(project.id, project.idea);
    const id = randomUUID();
    const now = this.clock();
    const tags = cleanTags(input.tags ?? []);
    await this.orm.em.fork().transactional(async (em) => {
      const sql = em as Sql;
      await sql.execute(
        `insert into listings (id, user_id, project_id, title, summary, visibility, price_cents, currency, tech_stack, tags, tags_text,
           demo_url, repo_url, prompt_original, prompt_enhanced_snapshot, file_count, cover_bytes, cover_type, cover_version, created_at, updated_at)
         values (?, ?, ?, ?, ?, ?, ?, 'usd', ?::jsonb, ?::jsonb, ?, ?, ?, ?, ?, 0, ?, ?, 1, ?, ?)`,
        [
          id, userId, project.id, input.title, input.summary, input.visibility, priceFor(input.visibility, input.priceCents),
          JSON.stringify(uniqueStrings(input.techStack ?? detectTechStack(files))), JSON.stringify(tags), tags.join(' '),
          input.demoUrl ?? null, input.repoUrl ?? null, prompts.promptOriginal, prompts.promptEnhancedSnapshot,
          cover?.bytes ?? null, cover?.type ?? null, now, now,
        ],
      );
      // The snapshot is copied inside the database: the contents never travel through the server.
      await sql.execute('insert into listing_files (listing_id, path, content, size) select ?, path, content, size from project_files where project_id = ?', [id, project.id]);
      await sql.execute('update listings set file_count = (select count(*) from listing_files where listing_id = ?) where id = ?', [id, id]);
    });
    return this.get(id, userId);
  }

  /** The owner's edit; anyone else gets the same 404 as for a listing that does not exist. */
  async update(userId: string, id: string, input: UpdateListingRequest): Promise<ListingJson> {
    const current = await this.ownedRow(userId, id);
    const visibility = input.visibility ?? current.visibility;
    const price = input.priceCents ?? Number(current.price_cents);
    if (visibility === 'commercial' && price < LISTING_MIN_PRICE_CENTS) {
      throw new AppError('BAD_REQUEST', COMMERCIAL_PRICE_MESSAGE, { issues: [{ path: 'priceCents', message: COMMERCIAL_PRICE_MESSAGE }] });
    }
    const sets: string[] = ['visibility = ?', 'price_cents = ?', 'updated_at = ?'];
    const params: unknown[] = [visibility, priceFor(visibility, price), this.clock()];
    const set = (column: string, value: unknown, cast = '') => {
      sets.push(`${column} = ?${cast}`);
      params.push(value);
    };
    if (input.title !== undefined) set('title', input.title);
    if (input.summary !== undefined) set('summary', input.summary);
    if (input.techStack !== undefined) set('tech_stack', JSON.stringify(uniqueStrings(input.techStack)), '::jsonb');
    if (input.tags !== undefined) {
      const tags = cleanTags(input.tags);
      set('tags', JSON.stringify(tags), '::jsonb');
      set('tags_text', tags.join(' '));
    }
    if (input.demoUrl !== undefined) set('demo_url', input.demoUrl);
    if (input.repoUrl !== undefined) set('repo_url', input.repoUrl);
    if (input.coverImage !== undefined) {
      const cover = input.coverImage ? await decodeCover(input.coverImage) : null;
      set('cover_bytes', cover?.bytes ?? null);
      set('cover_type', cover?.type ?? null);
    }
    // A new upload, or a new title on a generated cover, must not be served from a cache.
    if (input.coverImage !== undefined || (input.title !== undefined && input.title !== current.title)) sets.push('cover_version = cover_version + 1');
    await this.sql().execute(`update listings set ${sets.join(', ')} where id = ? and user_id = ? and deleted_at is null`, [...params, id, userId]);
    return this.get(id, userId);
  }

  /** Takes the listing down; the snapshot stays for the buyers' sake, the listing never shows again. */
  async remove(userId: string, id: string): Promise<void> {
    await this.ownedRow(userId, id);
    await this.sql().execute('update listings set deleted_at = ?, updated_at = ? where id = ? and user_id = ? and deleted_at is null', [this.clock(), this.clock(), id, userId]);
  }

  /** The uploaded cover, or the one generated from the title. */
  async cover(id: string): Promise<CoverImage> {
    if (!isUuid(id)) throw new AppError('NOT_FOUND', LISTING_NOT_FOUND);
    const rows = await this.sql().execute<Array<{ title: string; cover_bytes: Uint8Array | null; cover_type: string | null; cover_version: number | string }>>(
      'select title, cover_bytes, cover_type, cover_version from listings where id = ? and deleted_at is null',
      [id],
    );
    const row = rows[0];
    if (!row) throw new AppError('NOT_FOUND', LISTING_NOT_FOUND);
    const version = Number(row.cover_version);
    if (row.cover_bytes && row.cover_type) return { body: Buffer.from(row.cover_bytes), type: row.cover_type, version };
    return { body: generatedCoverSvg(row.title), type: 'image/svg+xml', version };
  }

  /** A live listing's row (with the viewer's purchase), or null; ids that are not UUIDs name nothing. */
  async liveRow(id: string, viewerId?: string): Promise<ListingRow | null> {
    if (!isUuid(id)) return null;
    const rows = await this.sql().execute<ListingRow[]>(
      `select ${LISTING_COLUMNS}${viewerId ? ', p.project_id as purchased_project_id, p.id as purchase_id' : ''}
       from listings l join users u on u.id = l.user_id
       ${viewerId ? 'left join listing_purchases p on p.listing_id = l.id and p.buyer_id = ?' : ''}
       where l.id = ? and l.deleted_at is null`,
      viewerId ? [viewerId, id] : [id],
    );
    return rows[0] ?? null;
  }

  private async ownedRow(userId: string, id: string): Promise<ListingRow> {
    const row = await this.liveRow(id);
    if (!row || row.user_id !== userId) throw new AppError('NOT_FOUND', LISTING_NOT_FOUND);
    return row;
  }

  /** Every path of a project, with the content of its package.json files only (detection needs no more). */
  private async stackFiles(projectId: string): Promise<Array<{ path: string; content: string }>> {
    const rows = await this.sql().execute<Array<{ path: string; content: string | null }>>(
      `select path, case when path = 'package.json' or path like '%/package.json' then content else null end as content
       from project_files where project_id = ?`,
      [projectId],
    );
    return rows.map((r) => ({ path: r.path, content: r.content ?? '' }));
  }

  /**
   * The project's prompts: the enhancement its run came from (the Prompt Evolution), else the
   * idea of its first run, else the idea it carries now.
   */
  private async prompts(projectId: string, idea: string): Promise<{ promptOriginal: string | null; promptEnhancedSnapshot: string | null }> {
    const sql = this.sql();
    const enhanced = await sql.execute<Array<{ source_prompt: string; final_prompt: string }>>(
      'select source_prompt, final_prompt from enhancements where project_id = ? order by created_at desc limit 1',
      [projectId],
    );
    if (enhanced[0]) return { promptOriginal: enhanced[0].source_prompt, promptEnhancedSnapshot: enhanced[0].final_prompt };
    const first = await sql.execute<Array<{ idea: string }>>('select idea from conversations where project_id = ? order by created_at asc limit 1', [projectId]);
    return { promptOriginal: first[0]?.idea ?? (idea.trim() || null), promptEnhancedSnapshot: null };
  }

  private sql(): Sql {
    return this.orm.em.fork() as Sql;
  }
}

/**
 * The search text as a tsquery: every word quoted (so `&`, `|`, `!`, `:*` or quotes typed by the
 * user are text to look for, never operators), matched as a prefix ("reac" finds React), all
 * required. to_tsquery runs each through the column's own 'simple' parser, so "Next.js" is the
 * lexeme the column holds. Undefined when there is no letter or digit to look for.
 */
export function searchQuery(search: string | undefined): string | undefined {
  const words = (search ?? '').split(/\s+/).filter((word) => /[\p{L}\p{N}]/u.test(word));
  if (words.length === 0) return undefined;
  return [...new Set(words)]
    .slice(0, 16)
    .map((word) => `'${word.replace(/\\/g, '\\\\').replace(/'/g, "''")}':*`)
    .join(' & ');
}

function priceFor(visibility: 'free' | 'commercial', priceCents: number | undefined): number {
  return visibility === 'free' ? 0 : (priceCents ?? 0);
}

function uniqueStrings(values: readonly string[]): string[] {
  return [...new Set(values.map((v) => v.trim()).filter(Boolean))];
}

/** Tags without repeats, whatever their case. */
function cleanTags(tags: readonly string[]): string[] {
  const seen = new Set<string>();
  return tags.map((t) => t.trim()).filter((t) => t && !seen.has(t.toLowerCase()) && seen.add(t.toLowerCase()));
}

const coverRefused = (message: string) => new AppError('BAD_REQUEST', message, { issues: [{ path: 'coverImage', message }] });
const FORMAT_NAMES: Record<string, string> = { 'image/png': 'PNG', 'image/jpeg': 'JPEG', 'image/webp': 'WebP', 'image/gif': 'GIF' };

/**
 * A data URL's bytes and their type, once they decode as an image (cover-decoder.ts); the data
 * URL's declared type is ignored. A file of another kind is refused; one that starts
 * like an image but cannot be shown is refused with what is wrong with it and what to send.
 */
export async function decodeCover(dataUrl: string): Promise<{ bytes: Buffer; type: string }> {
  const match = /^data:[^,;]*(;[^,;=]+=[^,;]*)*;base64,([A-Za-z0-9+/=\s]*)$/.exec(dataUrl.trim());
  if (!match) throw coverRefused(COVER_TYPE_MESSAGE);
  const bytes = Buffer.from(match[2]!.replace(/\s/g, ''), 'base64');
  if (bytes.length > COVER_IMAGE_MAX_BYTES) throw coverRefused(COVER_SIZE_MESSAGE);
  try {
    const { type } = await decodeCoverImage(bytes);
    return { bytes, type };
  } catch (error) {
    if (!(error instanceof CoverDecodeError)) throw error;
    if (error.type === null) throw coverRefused(COVER_TYPE_MESSAGE);
    throw coverRefused(
      `The cover image (coverImage) is not a readable ${FORMAT_NAMES[error.type]}: ${error.problem}. Send a PNG, JPEG, WebP or GIF image that opens in an image viewer, at most 1 MB and ${COVER_IMAGE_MAX_SIDE} pixels on a side.`,
    );
  }
}

const json = <T>(value: T | string): T => (typeof value === 'string' ? (JSON.parse(value) as T) : value);

function toJson(row: ListingRow, viewerId: string | undefined): ListingJson {
  return {
    id: row.id,
    title: row.title,
    summary: row.summary,
    coverImage: `/api/listings/${row.id}/cover?v=${Number(row.cover_version)}`,
    visibility: row.visibility,
    priceCents: Number(row.price_cents),
    currency: row.currency,
    techStack: json<string[]>(row.tech_stack),
    tags: json<string[]>(row.tags).map((tagName) => ({ tagName })),
    demoUrl: row.demo_url,
    repoUrl: row.repo_url,
    ...listingPrompts(row, viewerId),
    createdAt: new Date(row.created_at).toISOString(),
    fileCount: Number(row.file_count),
    // The part before any '@': an email used as a username never shows in full.
    sellerName: row.username.split('@')[0] || 'anonymous',
    ...(viewerId ? { isOwner: row.user_id === viewerId, purchasedProjectId: row.purchased_project_id ?? null } : {}),
  };
}

/**
 * A commercial listing's prompts are part of what its buyers pay for: only the seller and buyers
 * read them. Everyone else (signed out included) is told they come with the purchase.
 */
function listingPrompts(row: ListingRow, viewerId: string | undefined): Pick<ListingJson, 'promptOriginal' | 'promptEnhancedSnapshot' | 'promptsWithPurchase'> {
  const entitled = row.visibility === 'free' || (viewerId !== undefined && (row.user_id === viewerId || Boolean(row.purchase_id)));
  const none = row.prompt_original === null && row.prompt_enhanced_snapshot === null;
  if (entitled || none) return { promptOriginal: row.prompt_original, promptEnhancedSnapshot: row.prompt_enhanced_snapshot };
  return { promptOriginal: null, promptEnhancedSnapshot: null, promptsWithPurchase: true };
}

