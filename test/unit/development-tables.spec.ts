import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

// docs/development.md's tables of the test tree stay true: the tier table has a row for each jest
// project of jest.config.js, in its order, with the number of spec files the project runs; the
// Layout table has a row naming every folder of test/.
const ROOT = join(__dirname, '..', '..');
const DOC = readFileSync(join(ROOT, 'docs', 'development.md'), 'utf8');

function section(heading: string): string {
  const start = DOC.indexOf(`\n## ${heading}\n`);
  expect(start).toBeGreaterThan(-1);
  const end = DOC.indexOf('\n## ', start + 1);
  return DOC.slice(start, end === -1 ? undefined : end);
}

function tableRows(text: string): string[][] {
  return text
    .split('\n')
    .filter((line) => line.startsWith('|') && !/^\|[-:| ]+\|$/.test(line))
    .map((line) =>
      line
        .slice(1, -1)
        .split('|')
        .map((cell) => cell.trim()),
    );
}

interface Tier {
  name: string;
  specs: number;
}

// The spec files of each jest project: testMatch is `<rootDir>/<folder>/**/*<suffix>`.
function jestTiers(): Tier[] {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- jest.config.js is CommonJS
  const config = require(join(ROOT, 'jest.config.js')) as {
    projects: Array<{ displayName: string; testMatch: string[] }>;
  };
  return config.projects.map(({ displayName, testMatch }) => {
    expect(testMatch).toHaveLength(1);
    const match = /^<rootDir>\/(.+?)\/\*\*\/\*(\.[\w.]+)$/.exec(testMatch[0]);
    if (!match) throw new Error(`${displayName}: testMatch ${testMatch[0]} is not <rootDir>/<folder>/**/*<suffix>`);
    const [, folder, suffix] = match;
    const specs = readdirSync(join(ROOT, folder), { recursive: true }).filter((f) => String(f).endsWith(suffix));
    return { name: displayName, specs: specs.length };
  });
}

describe('docs/development.md, the test tree', () => {
  it('lists every jest project with its number of spec files', () => {
    const rows = tableRows(section('Tests'));
    const header = rows.find((r) => r[0] === 'tier');
    expect(header).toBeDefined();
    const suites = header!.indexOf('suites');
    const documented = rows.filter((r) => r !== header).map((r) => ({ name: r[0], specs: Number(r[suites]) }));
    const tiers = jestTiers();
    expect(tiers.length).toBeGreaterThanOrEqual(6);
    expect(tiers.find((t) => t.name === 'unit')!.specs).toBeGreaterThan(50);
    expect(documented).toEqual(tiers);
  });

  it('has a Layout row for every folder of test/', () => {
    const named = new Set(
      tableRows(section('Layout')).flatMap(([first]) =>
        [...first.matchAll(/`([^`]+)`/g)].map((m) => m[1].replace(/\/$/, '')),
      ),
    );
    const folders = readdirSync(join(ROOT, 'test'))
      .filter((name) => statSync(join(ROOT, 'test', name)).isDirectory())
      .map((name) => `test/${name}`);
    expect(folders.length).toBeGreaterThan(10);
    expect(folders.filter((f) => !named.has(f))).toEqual([]);
  });
});
