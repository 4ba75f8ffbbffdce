import { describe, expect, it } from 'vitest';
import { LEDGER_KIND_LABELS, LEDGER_KINDS } from './ledger-kinds.js';

describe('LEDGER_KIND_LABELS', () => {
  it('gives every kind of entry a label of its own for recent activity, and labels nothing else', () => {
    expect(Object.keys(LEDGER_KIND_LABELS).sort()).toEqual([...LEDGER_KINDS].sort());
    const labels = LEDGER_KINDS.map((kind) => LEDGER_KIND_LABELS[kind]);
    // A word a person reads, capitalised, and never two kinds that read the same.
    for (const label of labels) expect(label).toMatch(/^[A-Z][a-z]+( [a-z]+)*$/);
    expect(new Set(labels).size).toBe(LEDGER_KINDS.length);
  });

  it('tells a hold from the money it gives back and from what the engines cost', () => {
    expect(LEDGER_KIND_LABELS.reservation).toBe('Held for a stage');
    expect(LEDGER_KIND_LABELS.reservation_release).toBe('Hold released');
    expect(LEDGER_KIND_LABELS.engine_usage).toBe('Engine usage');
  });
});
