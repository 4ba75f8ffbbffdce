import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { envSchema } from './env.js';

const doc = (path: string) => readFileSync(new URL(`../../../../${path}`, import.meta.url), 'utf8');

/** The variables named in the first cell of each table row, and the row's last cell. */
function tableRows(markdown: string): Array<{ names: string[]; meaning: string }> {
  return markdown
    .split('\n')
    .filter((line) => line.startsWith('| ') && !line.startsWith('| Variable') && !line.startsWith('| ---'))
    .map((line) => {
      const cells = line.split(' | ');
      return { names: [...cells[0]!.matchAll(/`([A-Za-z0-9_]+)`/g)].map((m) => m[1]!), meaning: cells.at(-1)!.replace(/ \|$/, '') };
    });
}

describe('docs/CONFIGURATION.md', () => {
  const rows = tableRows(doc('docs/CONFIGURATION.md'));

  it('lists every variable the schema reads, and only those', () => {
    expect(rows.flatMap((row) => row.names).sort()).toEqual(Object.keys(envSchema.shape).sort());
  });

  it('says what each one does in one sentence', () => {
    for (const { names, meaning } of rows) {
      expect(meaning.replace(/\be\.g\./g, 'eg').split(/[.!?](?:\s+|$)/).filter(Boolean), names.join()).toHaveLength(1);
    }
  });
});

describe("README's settings", () => {
  const section = doc('README.md').split('\n## Configuration\n')[1]!.split('\n### ')[0]!;
  const rows = tableRows(section);

  it('are the few an operator needs first, each in the schema, with a link to all of them', () => {
    expect(rows.length).toBeGreaterThan(5);
    expect(rows.length).toBeLessThanOrEqual(12);
    for (const name of rows.flatMap((row) => row.names)) expect(Object.keys(envSchema.shape)).toContain(name);
    expect(section).toContain('(docs/CONFIGURATION.md)');
  });
});
