// The configuration table of docs/operations.md, generated from src/config/settings.ts so the page
// cannot drift from what the server accepts. `npm run docs:config` rewrites it; a unit test compares.
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Setting } from '../../src/config/setting-types';
import { SETTINGS } from '../../src/config/settings';

export const OPERATIONS_PAGE = resolve(__dirname, '..', '..', 'docs', 'operations.md');
const START = '<!-- configuration table: generated from src/config/settings.ts by `npm run docs:config` -->';
const END = '<!-- end of configuration table -->';

function shownDefault(setting: Setting<unknown>): string {
  if (setting.shownDefault) return setting.shownDefault;
  return setting.default === undefined ? 'unset' : `\`${String(setting.default)}\``;
}

export function renderConfigTable(): string {
  const rows = Object.values(SETTINGS as Record<string, Setting<unknown>>).map(
    (s) => `| \`${s.env}\` | ${shownDefault(s)} | ${s.type.rule} | ${s.meaning} |`,
  );
  return ['| variable | default | must be | meaning |', '|----------|---------|---------|---------|', ...rows].join(
    '\n',
  );
}

/** The page with its generated section replaced by the current table. */
export function pageWithCurrentTable(page: string): string {
  const start = page.indexOf(START);
  const end = page.indexOf(END);
  if (start < 0 || end < start) throw new Error(`docs/operations.md lost its markers: ${START} ... ${END}`);
  return `${page.slice(0, start + START.length)}\n${renderConfigTable()}\n${page.slice(end)}`;
}

if (require.main === module) {
  writeFileSync(OPERATIONS_PAGE, pageWithCurrentTable(readFileSync(OPERATIONS_PAGE, 'utf8')));
  console.log('wrote the configuration table of docs/operations.md');
}
