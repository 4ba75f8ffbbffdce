/** SQL text with its `?` parameters, in the order they appear. */
export interface SqlPart {
  text: string;
  params: unknown[];
}

export const sqlPart = (text: string, params: unknown[] = []): SqlPart => ({ text, params });

/**
 * A write that depends on a gate: `from` is a FROM item (for instance a CTE's name) that yields
 * one row with the run's `id` when the write may happen, and none when it may not (another
 * process owns the run now). Written as `insert … select … from ${from} as c …`, it stores
 * nothing when the gate yields nothing.
 */
export type GatedWrite = (from: SqlPart) => SqlPart;

/** A FROM item that always lets a {@link GatedWrite} through, for writes no lease guards. */
export const ungated = (id: string | null = null): SqlPart => sqlPart('(select ?::uuid as id)', [id]);

/**
 * Several writes as one statement: `gate` and then each write as a data-modifying CTE, each write
 * reading from the gate, and `select` last (it may read every CTE by name). One round trip instead
 * of one per write, plus a `begin` and a `commit`: outside a transaction the statement commits
 * alone, and all of it or none. On the database side the CTEs run against one snapshot and
 * foreign keys are checked when the statement ends, so a row may reference one inserted beside it.
 */
export function oneStatement(gate: readonly [name: string, part: SqlPart], writes: ReadonlyArray<readonly [name: string, write: GatedWrite]>, select: SqlPart): SqlPart {
  const from = sqlPart(gate[0]);
  const ctes = [[gate[0], gate[1]] as const, ...writes.map(([name, write]) => [name, write(from)] as const)];
  return {
    text: `with ${ctes.map(([name, part]) => `${name} as (${part.text})`).join(',\n')}\n${select.text}`,
    params: [...ctes.flatMap(([, part]) => part.params), ...select.params],
  };
}

/**
 * Rows as one gated multi-row insert, sent as a single JSON parameter however many there are:
 * `into` is the table with its columns, `select` the values (`c` the gate's row, `x` each row, its
 * `?` taking `params`), `columns` the rows' fields with their types.
 */
export function rowsWrite(into: string, select: string, params: readonly unknown[], columns: string, rows: readonly unknown[]): GatedWrite {
  const json = JSON.stringify(rows);
  return (from) => sqlPart(`insert into ${into}\n       select ${select} from ${from.text} as c, jsonb_to_recordset(?::jsonb) as x(${columns})`, [...params, ...from.params, json]);
}
