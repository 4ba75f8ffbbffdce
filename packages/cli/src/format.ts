/** Small text formats of the listing commands: tables, dates, sizes. */

export interface Column {
  header: string;
  /** Numbers read better right-aligned. @default 'left' */
  align?: 'left' | 'right' | undefined;
}

/**
 * Rows under a header, columns two spaces apart, padded to the widest cell (by code points, so
 * an accented title does not shift the columns). The last column is not padded.
 */
export function formatTable(columns: readonly Column[], rows: ReadonlyArray<readonly string[]>): string[] {
  const width = (text: string) => [...text].length;
  const widths = columns.map((column, i) => Math.max(width(column.header), ...rows.map((row) => width(row[i] ?? ''))));
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, i) => {
        const pad = ' '.repeat(Math.max(0, widths[i]! - width(cell)));
        if (columns[i]?.align === 'right') return pad + cell;
        return i === cells.length - 1 ? cell : cell + pad;
      })
      .join('  ')
      .trimEnd();
  return [line(columns.map((column) => column.header)), ...rows.map(line)];
}

/** Cuts `text` to `max` characters, marking the cut with an ellipsis. */
export function truncate(text: string, max: number): string {
  const chars = [...text];
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}…`;
}

/** "2026-11-22 10:31" in local time; the text as it is when it is not a date. */
export function formatDate(timestamp: string): string {
  const date = new Date(timestamp);
  if (Number.isNaN(date.getTime())) return timestamp;
  const two = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())} ${two(date.getHours())}:${two(date.getMinutes())}`;
}

/** 512 → "512 B", 1536 → "1.5 kB", 3_200_000 → "3.2 MB" (powers of 1000, as file managers show). */
export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  const units = ['kB', 'MB', 'GB'];
  let value = bytes / 1000;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return `${value < 10 ? value.toFixed(1) : Math.round(value)} ${units[unit]}`;
}

/** "1 project", "3 projects". */
export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : pluralForm}`;
}

/** A word as a POSIX shell reads it back: as it is when that is safe, else in single quotes. */
export function shellQuote(word: string): string {
  if (/^[\w@%+=:,./-]+$/.test(word)) return word;
  return `'${word.replaceAll("'", `'\\''`)}'`;
}
