import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

// docs/development.md's Layout table is the map of the code: it cannot drift from the folders. Every
// folder of src/ has a row; every folder a row names exists; every file or folder its text names
// (`place-ranking.ts`, `pipeline/`) is one of that row's folders.
const ROOT = join(__dirname, '..', '..');

function layoutRows(): Array<{ folders: string[]; what: string }> {
  const doc = readFileSync(join(ROOT, 'docs', 'development.md'), 'utf8');
  const section = doc.slice(doc.indexOf('## Layout'), doc.indexOf('\n## ', doc.indexOf('## Layout') + 1));
  return section
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .map((line) => {
      const [, first, what] = line.split('|');
      return { folders: [...first.matchAll(/`([^`]+)`/g)].map((m) => m[1].replace(/\/$/, '')), what };
    });
}

function filesUnder(dir: string): string[] {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) return [dir];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? [`${path}/`, ...filesUnder(path)] : [path];
  });
}

describe('the code map (docs/development.md, Layout)', () => {
  const rows = layoutRows();

  it('has a row for every folder of src/', () => {
    const mapped = new Set(rows.flatMap((r) => r.folders));
    const folders = readdirSync(join(ROOT, 'src')).filter((n) => statSync(join(ROOT, 'src', n)).isDirectory());
    expect(folders.map((f) => `src/${f}`).filter((f) => !mapped.has(f))).toEqual([]);
  });

  it('names only folders and files that exist, each where its row says', () => {
    const missing: string[] = [];
    for (const row of rows) {
      for (const folder of row.folders) if (!existsSync(join(ROOT, folder))) missing.push(folder);
      const paths = row.folders.flatMap((f) => filesUnder(join(ROOT, f)).map((p) => relative(ROOT, p)));
      for (const [, named] of row.what.matchAll(/`([\w-][\w./-]*\.(?:ts|mjs|sql|json)|[\w-]+\/)`/g)) {
        if (named.startsWith('src/') || named.startsWith('test/') || named.startsWith('web/')) {
          if (!existsSync(join(ROOT, named))) missing.push(named);
        } else if (!paths.some((p) => p.endsWith(`/${named.replace(/\/$/, '')}`)))
          missing.push(`${row.folders[0]}: ${named}`);
      }
    }
    expect(missing).toEqual([]);
  });
});
