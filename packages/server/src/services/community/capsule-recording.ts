import { randomBytes, randomUUID } from 'node:crypto';
import { oneStatement, rowsWrite, sqlPart } from '../../db/one-statement.js';
import { capsuleProof, recordCapsule, verificationRecord, type CapsuleEnhancementInput, type RecordedCapsule } from '@wolfpack/core';
import type { Sql } from '../../db/plain-sql.js';

export interface FinishedRun {
  userId: string;
  idea: string;
  conversationId: string;
  projectId: string;
}

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

/**
 * An unguessable slug: up to six words of the title (readable links) and 16 random base32
 * characters (80 bits), so a private capsule's address cannot be found by trying.
 */
export function capsuleSlug(title: string): string {
  const words = title
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()
    .split(' ')
    .filter(Boolean)
    .slice(0, 6)
    .join('-')
    .slice(0, 60)
    .replace(/-+$/, '');
  const bytes = randomBytes(16);
  const suffix = [...bytes].map((b) => BASE32[b & 31]).join('');
  return `${words || 'capsule'}-${suffix}`;
}

/**
 * Reads what a finished run left behind (its stored events, engine usage, files and the
 * enhancement linked to it) and turns it into the capsule's content with core's recorder.
 */
export async function readRunAsCapsule(sql: Sql, run: FinishedRun, now: Date): Promise<RecordedCapsule> {
  const [conversation] = await sql.execute<Array<{ created_at: unknown; completed_at: unknown; execution_ms: unknown }>>(
    'select created_at, completed_at, execution_ms from conversations where id = ?',
    [run.conversationId],
  );
  const events = await sql.execute<Array<{ data: unknown; created_at: unknown }>>(
    'select data, created_at from run_events where conversation_id = ? order by seq',
    [run.conversationId],
  );
  const [enhancementRow] = await sql.execute<Array<{ id: string; source_prompt: string; final_prompt: string; created_at: unknown }>>(
    'select id, source_prompt, final_prompt, created_at from enhancements where conversation_id = ? and user_id = ? order by created_at desc limit 1',
    [run.conversationId, run.userId],
  );
  let enhancement: CapsuleEnhancementInput | null = null;
  if (enhancementRow) {
    const steps = await sql.execute<Array<{ pass_number: unknown; engine_order: unknown; engine_key: string; duration_ms: unknown; ok: unknown }>>(
      'select pass_number, engine_order, engine_key, duration_ms, ok from enhancement_steps where enhancement_id = ? order by pass_number, engine_order',
      [enhancementRow.id],
    );
    enhancement = {
      sourcePrompt: enhancementRow.source_prompt,
      finalPrompt: enhancementRow.final_prompt,
      createdAt: toDate(enhancementRow.created_at),
      steps: steps.map((s) => ({ passNumber: Number(s.pass_number), engineOrder: Number(s.engine_order), engineKey: s.engine_key, durationMs: Number(s.duration_ms), ok: s.ok === true || s.ok === 't' })),
    };
  }
  const usage = await sql.execute<Array<{ engine_key: string; total_tokens: unknown; cost_millicents: unknown }>>(
    'select engine_key, total_tokens, cost_millicents from engine_usage where conversation_id = ? or (enhancement_id is not null and enhancement_id = ?) order by id',
    [run.conversationId, enhancementRow?.id ?? null],
  );
  const fileRows = await sql.execute<Array<{ path: string; content: string }>>('select path, content from project_files where project_id = ?', [run.projectId]);
  // Code point order, as the project's own file list (database collations differ).
  const files = fileRows.map((r) => [r.path, r.content] as [string, string]).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const storedEvents = events.map((e) => ({ data: typeof e.data === 'string' ? (JSON.parse(e.data) as unknown) : e.data, createdAt: toDate(e.created_at) }));
  return recordCapsule({
    idea: run.idea,
    events: storedEvents,
    usage: usage.map((u) => ({ engineKey: u.engine_key, totalTokens: Number(u.total_tokens) || 0, costMillicents: Number(u.cost_millicents) || 0 })),
    files,
    verification: capsuleProof(await provenCodeRecord(sql, run.projectId)),
    startedAt: conversation ? toDate(conversation.created_at) : now,
    completedAt: conversation?.completed_at ? toDate(conversation.completed_at) : now,
    executionMs: Number(conversation?.execution_ms ?? 0) || 0,
    enhancement,
  });
}

/**
 * Proven Code's record of the version the run saved (the newest: the capsule is recorded right
 * after the save). The capsule states this record's verdict, never a check of its own.
 */
async function provenCodeRecord(sql: Sql, projectId: string) {
  const [row] = await sql.execute<Array<{ record: unknown }>>('select record from project_verifications where project_id = ? order by version desc limit 1', [projectId]);
  if (!row) return null;
  const parsed = verificationRecord.safeParse(typeof row.record === 'string' ? JSON.parse(row.record) : row.record);
  return parsed.success ? parsed.data : null;
}

/** A capsule's row as stored (the run's, or an njin iteration's, which has no run). */
export interface CapsuleInsert {
  userId: string;
  conversationId: string | null;
  projectId: string | null;
  title: string;
  projectName: string;
  description: string;
  originalPrompt: string;
  enhancedPrompt: string | null;
  finalCode: string;
  metrics: unknown;
  createdAt: Date;
  events: ReadonlyArray<{ eventType: string; timestamp: Date | string; data: unknown }>;
}

/**
 * Stores a capsule and its timeline in one statement (the timeline's rows are written only with
 * the capsule), once per run: a second report of the same run stores nothing and answers null.
 */
export async function insertCapsuleRows(sql: Sql, capsule: CapsuleInsert): Promise<string | null> {
  const id = randomUUID();
  const slug = capsuleSlug(capsule.title);
  const row = sqlPart(
    `insert into capsules (id, user_id, conversation_id, project_id, slug, share_slug, title, project_name, description,
       original_prompt, enhanced_prompt, final_code, is_public, view_count, share_count, metrics, created_at, published_at)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, false, 0, 0, ?, ?, null)
     on conflict (conversation_id) do nothing returning id`,
    [id, capsule.userId, capsule.conversationId, capsule.projectId, slug, slug, capsule.title, capsule.projectName, capsule.description,
      capsule.originalPrompt, capsule.enhancedPrompt, capsule.finalCode, JSON.stringify(capsule.metrics), capsule.createdAt],
  );
  const events = rowsWrite(
    'capsule_events (id, capsule_id, seq, event_type, timestamp, data)',
    'x.id, c.id, x.seq, x.event_type, x.at, x.data',
    [],
    'id uuid, seq int, event_type text, at timestamptz, data jsonb',
    capsule.events.map((event, i) => ({ id: randomUUID(), seq: i + 1, event_type: event.eventType, at: toDate(event.timestamp).toISOString(), data: event.data })),
  );
  const { text, params } = oneStatement(['capsule', row], capsule.events.length > 0 ? [['events', events]] : [], sqlPart('select id from capsule'));
  const inserted = await sql.execute<Array<{ id: string }>>(text, params);
  return inserted.length > 0 ? id : null;
}

/** Stores the capsule a run recorded (see {@link insertCapsuleRows}). */
export function insertCapsule(sql: Sql, run: FinishedRun, capsule: RecordedCapsule, now: Date): Promise<string | null> {
  return insertCapsuleRows(sql, {
    userId: run.userId,
    conversationId: run.conversationId,
    projectId: run.projectId,
    title: capsule.title,
    projectName: capsule.title,
    description: capsule.description,
    originalPrompt: capsule.originalPrompt,
    enhancedPrompt: capsule.enhancedPrompt,
    finalCode: capsule.finalCode,
    metrics: capsule.metrics,
    createdAt: now,
    events: capsule.events,
  });
}

export function toDate(value: unknown): Date {
  if (value instanceof Date) return value;
  const date = new Date(typeof value === 'string' || typeof value === 'number' ? value : 0);
  return Number.isNaN(date.getTime()) ? new Date(0) : date;
}
