import { format } from 'sql-formatter';
// The SQL review: every statement that the classes running SQL send, written to src/queries/*.sql by
// `npm run sql` and compared with those files by test/unit/repository-sql.spec.ts, so a change to a
// query shows in the diff. The statements come from the @GenerateSql declarations next to each method
// (src/database/generate-sql.ts): each sample call runs on a recording database (recording-database.ts).
import { readdirSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { sqlDeclarations, SqlExample } from '../../src/database/generate-sql';
import { Recorder, Statement } from './recording-database';

const ROOT = resolve(__dirname, '..', '..');
export const QUERIES_DIR = join(ROOT, 'src', 'queries');

// The files whose classes run SQL: repositories, and the import sessions they open.
const SQL_FILE = /(\.repository|-session)\.ts$/;

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((d) => (d.isDirectory() ? walk(join(dir, d.name)) : SQL_FILE.test(d.name) ? [join(dir, d.name)] : []))
    .sort();
}

/** src files the SQL review reads (relative to the repository). */
export function sqlFiles(): string[] {
  return walk(join(ROOT, 'src')).map((f) => relative(ROOT, f));
}

type Class = abstract new (...args: never[]) => unknown;

/** The classes those files export (once each, however often re-exported). */
export function sqlClasses(): Class[] {
  const found = new Set<Class>();
  for (const file of sqlFiles()) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- modules found at run time, loaded synchronously for it.each
    for (const value of Object.values(require(join(ROOT, file)) as Record<string, unknown>)) {
      if (typeof value === 'function' && /^class\b/.test(Function.prototype.toString.call(value)))
        found.add(value as Class);
    }
  }
  return [...found].sort((a, b) => a.name.localeCompare(b.name));
}

/** A class's methods (inherited ones too), each with the declaration that covers it, if any. */
export function sqlMethods(cls: Class): Array<{ method: string; examples?: SqlExample[]; exempt?: string }> {
  const out: Array<{ method: string; examples?: SqlExample[]; exempt?: string }> = [];
  const seen = new Set<string>();
  for (let c: Class | null = cls; c && c.prototype; c = Object.getPrototypeOf(c) as Class | null) {
    const d = sqlDeclarations(c);
    for (const method of Object.getOwnPropertyNames(c.prototype)) {
      const descriptor = Object.getOwnPropertyDescriptor(c.prototype, method)!;
      if (method === 'constructor' || typeof descriptor.value !== 'function' || seen.has(method)) continue;
      seen.add(method);
      out.push({ method, examples: d?.examples.get(method), exempt: d?.exempt.get(method) });
    }
  }
  return out;
}

// Kebab case with the role as suffix: ImageryImportSession -> imagery-import.session.
export function queryFile(cls: Class): string {
  const words = cls.name.split(/(?=[A-Z])/).map((w) => w.toLowerCase());
  return `${words.slice(0, -1).join('-')}.${words[words.length - 1]}`;
}

// What a sample call sends, in order.
async function transcript(cls: Class, method: string, example: SqlExample): Promise<Statement[]> {
  if (example.sql) {
    const sql = example.sql();
    return [typeof sql === 'string' ? { text: sql, values: [] } : { text: sql.text, values: sql.values }];
  }
  const db = new Recorder(example.subjectAnswers);
  const subject = sqlDeclarations(cls)!.subject!;
  const instance = (await subject(db)) as Record<string, (...args: unknown[]) => unknown>;
  db.reset(example.answers);
  const result = await instance[method](...(example.params?.() ?? []));
  if (result && typeof result === 'object' && Symbol.asyncIterator in result) {
    const rows = (result as AsyncIterable<unknown>)[Symbol.asyncIterator]();
    while (!(await rows.next()).done); // an export: every page is read
  }
  if (db.statements.length === 0)
    throw new Error(`${cls.name}.${method}${example.name ? ` (${example.name})` : ''}: the sample call ran no SQL`);
  return [...db.statements];
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/;

// Values made during the call (Prisma's generated ids, now()) would change every run.
function renderValue(value: unknown, given: string): string {
  const json = JSON.stringify(value instanceof Date ? value.toISOString() : value);
  if (typeof value === 'string' && UUID.test(value) && !given.includes(value)) return '"<generated uuid>"';
  if ((typeof value === 'string' && TIMESTAMP.test(value)) || value instanceof Date)
    return given.includes(json) ? json : '"<now>"';
  return json;
}

// Temporary tables get random suffixes per connection.
const normalize = (text: string) =>
  text.replace(/\b([a-z_]+_(?:staging|seen|stored|links|missing))_[0-9a-f]{12}\b/g, '$1_<random>');

// `earlier`: the statements already written in the file, by text; a repeated one is named, not repeated.
function renderStatement(header: string, statement: Statement, given: string, earlier: Map<string, string>): string {
  const values = statement.values.map((v, i) => `--   $${i + 1} = ${renderValue(v, given)}`);
  const text = normalize(statement.text);
  const first = earlier.get(text);
  if (first) return [`-- ${header}`, ...values, `--   the statement of ${first}`].join('\n');
  earlier.set(text, header);
  return [`-- ${header}`, ...values, formatted(text), ';'].join('\n');
}

// The statement laid out by sql-formatter (PostgreSQL dialect), so every file reads the same way
// whatever the builder's template literals looked like. A statement it cannot parse fails `npm run sql`.
function formatted(text: string): string {
  return format(text, { language: 'postgresql', tabWidth: 2, keywordCase: 'preserve' });
}

/** The review file of each class that can be sampled (base classes are reviewed through their subclasses). */
export async function repositoryQueries(): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  for (const cls of sqlClasses()) {
    if (!sqlDeclarations(cls)?.subject) continue;
    const blocks: string[] = [];
    const earlier = new Map<string, string>();
    for (const { method, examples } of sqlMethods(cls)) {
      for (const example of examples ?? []) {
        const statements = await transcript(cls, method, example);
        const given = JSON.stringify(example.params?.() ?? [], (_k, v: unknown) =>
          typeof v === 'bigint' ? String(v) : v,
        );
        const name = `${cls.name}.${method}${example.name ? `: ${example.name}` : ''}`;
        blocks.push(
          statements
            .map((s, i) =>
              renderStatement(
                statements.length > 1 ? `${name} [${i + 1}/${statements.length}]` : name,
                s,
                given,
                earlier,
              ),
            )
            .join('\n'),
        );
      }
    }
    files[queryFile(cls)] =
      `-- Generated by \`npm run sql\` from the @GenerateSql declarations of ${cls.name}; do not edit.\n\n${blocks.join('\n\n')}\n`;
  }
  return files;
}
