/**
 * The write-behind writer's order and hand-over rules at a run's end: held events are stored with
 * the end's statement, never twice and never lost when that statement fails.
 * The SQL function records what each statement would store (the statements themselves run against
 * both databases in the run tests).
 */
import { describe, expect, it } from 'vitest';
import type { PipelineEvent } from '@wolfpack/core';
import { RunEventWriter, type SqlAll, type StoredEvent } from './run-event-writer.js';
import { ungated, type GatedWrite } from '../../db/one-statement.js';

/** The events a gated write would store. */
const seqsOf = (write: GatedWrite) => (JSON.parse(write(ungated('run')).params.at(-1) as string) as Array<{ seq: number }>).map((r) => r.seq);

const log = (message: string): PipelineEvent => ({ type: 'log', id: message, level: 'info', message, timestamp: '2026-11-24T00:00:00.000Z' });

function recorder() {
  const statements: number[][] = [];
  const sql: SqlAll = async <T,>(_text: string, params: unknown[]) => {
    const rows = JSON.parse(params.at(-1) as string) as Array<{ seq: number }>;
    statements.push(rows.map((r) => r.seq));
    return rows.map((r) => ({ seq: r.seq })) as T[];
  };
  return { statements, sql };
}

/** A writer whose batches wait until `release` (the engines busy, say). */
function gatedWriter() {
  let release: () => void = () => {};
  const gate = new Promise<void>((resolve) => (release = resolve));
  const { statements, sql } = recorder();
  return { statements, release, writer: new RunEventWriter(sql, 'run', 'me', () => {}, () => gate) };
}

describe('RunEventWriter at the end of a run', () => {
  it('stores held events with the end, in one statement, and announces them only then', async () => {
    const { statements, sql } = recorder();
    const announced: StoredEvent[][] = [];
    const writer = new RunEventWriter(sql, 'run', 'me', (batch) => announced.push([...batch]));
    writer.push(1, log('a'));
    await writer.flush();
    writer.hold();
    writer.push(2, log('verdict'));
    writer.push(3, log('refund'));
    await writer.idle();
    expect(statements).toEqual([[1]]);
    const { write, batch } = writer.takeHeld(4, log('complete'));
    expect(seqsOf(write)).toEqual([2, 3, 4]);
    expect(announced.map((b) => b.map((e) => e.seq))).toEqual([[1]]);
    writer.announce(batch);
    expect(announced.map((b) => b.map((e) => e.seq))).toEqual([[1], [2, 3, 4]]);
    // Nothing is stored a second time afterwards.
    await writer.flush();
    expect(statements).toEqual([[1]]);
  });

  it('puts the events of a failed end statement back first, so the error after them is stored in order', async () => {
    const { statements, sql } = recorder();
    const writer = new RunEventWriter(sql, 'run', 'me', () => {});
    writer.hold();
    writer.push(1, log('verdict'));
    writer.takeHeld(2, log('complete'));
    // The statement then failed (rolled back): the run stores its error instead.
    expect(writer.reset()).toBe(true);
    writer.push(2, { type: 'error', error: 'The run stopped because of an internal error.' });
    await writer.flush();
    expect(statements).toEqual([[1, 2]]);
  });

  it('refuses to hand held events to a statement while a batch is on its way (PGlite would wait on itself)', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { sql } = recorder();
    const writer = new RunEventWriter(sql, 'run', 'me', () => {}, () => gate);
    writer.push(1, log('a'));
    expect(() => writer.takeHeld(2, log('complete'))).toThrow(/await idle\(\) first/);
    release();
    await writer.idle();
    expect(writer.takeHeld(2, log('complete')).batch).toHaveLength(1);
  });

  it('leaves a batch still waiting for the engines when the run ends to the end statement, not a statement the end would wait for', async () => {
    const { statements, writer, release } = gatedWriter();
    writer.push(1, log('stage done'));
    writer.hold();
    writer.push(2, log('verdict'));
    release();
    await writer.idle();
    expect(statements).toEqual([]);
    expect(seqsOf(writer.takeHeld(3, log('complete')).write)).toEqual([1, 2, 3]);
  });

  it('still stores everything held on a flush (a failed run, a refund that reads what was billed)', async () => {
    const { statements, writer, release } = gatedWriter();
    writer.push(1, log('stage done'));
    writer.hold();
    writer.push(2, log('verdict'));
    const flushed = writer.flush();
    release();
    await flushed;
    expect(statements.flat()).toEqual([1, 2]);
  });
});
