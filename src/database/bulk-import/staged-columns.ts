// The columns an import stages a batch in, and the batch in the two forms the server takes it: COPY
// text (PostgreSQL) or one array parameter per column (the built-in database cannot COPY FROM STDIN).

export type StagedValue = string | number | boolean | null;

/** A staged column: its name, its PostgreSQL type, and how a row gives its value. */
export type StagedColumn<R> = readonly [name: string, type: string, get: (row: R) => StagedValue];

const COPY_ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };
const escape = (c: string) => COPY_ESCAPES[c];
const TEXT = 0;
const BOOLEAN = 1;
const PLAIN = 2;

function copyCell(kind: number, v: StagedValue): string {
  if (v === null) return '\\N';
  if (kind === TEXT && typeof v === 'string') return /[\\\t\n\r]/.test(v) ? v.replace(/[\\\t\n\r]/g, escape) : v;
  if (kind === BOOLEAN) return v ? 't' : 'f';
  return String(v);
}

// COPY text format: one line per row, tab-separated, backslash escapes, \N for NULL. Only text can
// hold a character to escape (uuids, dates and numbers cannot), so only text columns are scanned.
export function copyRows<R>(columns: readonly StagedColumn<R>[], rows: readonly R[]): string {
  const gets = columns.map(([, , get]) => get);
  const kinds = columns.map(([, type]) => (type === 'text' ? TEXT : type === 'boolean' ? BOOLEAN : PLAIN));
  const n = gets.length;
  let out = '';
  for (const row of rows) {
    for (let i = 0; i < n; i++) {
      out += copyCell(kinds[i], gets[i](row));
      out += i === n - 1 ? '\n' : '\t';
    }
  }
  return out;
}

// A batch as one array per column, for INSERT ... SELECT FROM unnest(...) (see stagingSql).
export function columnArrays<R>(columns: readonly StagedColumn<R>[], rows: readonly R[]): StagedValue[][] {
  return columns.map(([, , get]) => rows.map(get));
}

// Filling a staging table (its name is made by the importer, never taken from input).
export function stagingSql<R>(
  staging: string,
  columns: readonly StagedColumn<R>[],
): { copyIn: string; insertArrays: string } {
  const names = columns.map(([c]) => c).join(', ');
  return {
    copyIn: `COPY ${staging} (${names}) FROM STDIN`,
    insertArrays: `INSERT INTO ${staging} (${names}) SELECT * FROM unnest(${columns.map(([, type], i) => `$${i + 1}::${type}[]`).join(', ')})`,
  };
}
