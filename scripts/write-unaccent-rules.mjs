// Writes src/search/text-fold/unaccent-rules.json: PostgreSQL's unaccent rules (contrib/unaccent's
// unaccent.rules; PostgreSQL License, credited in docs/development.md), the rules lis_normalize folds text with in the database, as
// the table foldText folds text with in TypeScript. Read from the built-in database's own copy (the
// unaccent bundle of @electric-sql/pglite), or from the file given: `npm run text-fold:rules [-- path]`.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import * as tar from 'tar';

const ROOT = join(import.meta.dirname, '..');
const OUT = join(ROOT, 'src', 'search', 'text-fold', 'unaccent-rules.json');
const ENTRY = 'share/postgresql/tsearch_data/unaccent.rules';

// One rule a line: the character, white space, then what it becomes: nothing (it is dropped), a word,
// or a string in double quotes ("" for a quote), as unaccent.c reads it since PostgreSQL 17.
export function parseRules(text) {
  const rules = {};
  for (const line of text.split('\n')) {
    const m = /^(\S+)(?:[ \t]+(?:"((?:[^"]|"")*)"|(\S+)))?[ \t]*$/u.exec(line.replace(/\r$/, ''));
    if (!m) continue;
    rules[m[1]] = m[2] !== undefined ? m[2].replace(/""/g, '"') : (m[3] ?? '');
  }
  return rules;
}

async function builtInRules() {
  const pkg = join(ROOT, 'node_modules', '@electric-sql', 'pglite', 'package.json');
  const { version } = JSON.parse(readFileSync(pkg, 'utf8'));
  const chunks = [];
  await tar.t({
    file: join(dirname(pkg), 'dist', 'unaccent.tar.gz'),
    filter: (path) => path.replace(/^\.\//, '') === ENTRY,
    onReadEntry: (entry) => entry.on('data', (c) => chunks.push(c)),
  });
  if (chunks.length === 0) throw new Error(`no ${ENTRY} in @electric-sql/pglite's unaccent bundle`);
  return { from: `@electric-sql/pglite ${version}, ${ENTRY}`, text: Buffer.concat(chunks).toString('utf8') };
}

export async function unaccentRules(path) {
  const { from, text } = path ? { from: path, text: readFileSync(path, 'utf8') } : await builtInRules();
  return { from, rules: parseRules(text) };
}

function render({ from, rules }) {
  const lines = Object.entries(rules).map(
    ([source, target]) => `  ${JSON.stringify(source)}: ${JSON.stringify(target)}`,
  );
  return `{\n"from": ${JSON.stringify(from)},\n"rules": {\n${lines.join(',\n')}\n}\n}\n`;
}

// `--check`: exits 1 when the committed table is not what the rules make (test/unit/text-fold.spec.ts).
if (import.meta.filename === process.argv[1]) {
  const args = process.argv.slice(2);
  const check = args.includes('--check');
  const table = await unaccentRules(args.find((a) => a !== '--check'));
  const text = render(table);
  if (check) {
    if (readFileSync(OUT, 'utf8') !== text) {
      console.error(`${OUT} is not what ${table.from} makes: run npm run text-fold:rules`);
      process.exit(1);
    }
  } else {
    writeFileSync(OUT, text);
    console.log(`${Object.keys(table.rules).length} rules from ${table.from} -> ${OUT}`);
  }
}
