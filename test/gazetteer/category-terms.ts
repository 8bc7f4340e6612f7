import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { CATEGORY_KEYS } from '../../src/places/poi-category';

// The words that name each category of poi, from the iD editor's presets (@openstreetmap/id-tagging-schema,
// ISC): for every searchable preset of a poi key whose tags are that one key=value, its English and
// German name and search terms. Presets of several tags (amenity=restaurant + cuisine=pizza) are
// left out: a poi's category is one tag. So are presets of a key alone (amenity=*).

interface Preset {
  tags?: Record<string, string>;
  searchable?: boolean;
}
interface Translation {
  name?: string;
  terms?: string;
}
export interface CategoryTerms {
  tag: string;
  en: { name: string; terms: string[] };
  de: { name: string; terms: string[] };
}

const PACKAGE = '@openstreetmap/id-tagging-schema';

function readJson<T>(dir: string, file: string): T {
  return JSON.parse(readFileSync(join(dir, file), 'utf8')) as T;
}

function words(t: Translation | undefined): { name: string; terms: string[] } {
  const terms = (t?.terms ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return { name: t?.name?.trim() ?? '', terms: [...new Set(terms)].sort() };
}

export function buildCategoryTerms(): { source: string; categories: CategoryTerms[] } {
  const dir = join(dirname(require.resolve(`${PACKAGE}/package.json`)), 'dist');
  const version = readJson<{ version: string }>(join(dir, '..'), 'package.json').version;
  const presets = readJson<Record<string, Preset>>(dir, 'presets.json');
  const en = readJson<Record<string, { presets: { presets: Record<string, Translation> } }>>(
    dir,
    'translations/en.json',
  ).en.presets.presets;
  const de = readJson<Record<string, { presets: { presets: Record<string, Translation> } }>>(
    dir,
    'translations/de.json',
  ).de.presets.presets;
  const keys = new Set<string>(CATEGORY_KEYS);
  const byTag = new Map<string, CategoryTerms>();
  for (const [id, preset] of Object.entries(presets).sort(([a], [b]) => a.localeCompare(b))) {
    const tags = Object.entries(preset.tags ?? {});
    if (preset.searchable === false || tags.length !== 1) continue;
    const [[key, value]] = tags;
    if (!keys.has(key) || value === '*' || !/^[a-z0-9_]+$/.test(value)) continue;
    const entry = { tag: `${key}=${value}`, en: words(en[id]), de: words(de[id]) };
    if (!entry.en.name || byTag.has(entry.tag)) continue;
    byTag.set(entry.tag, entry);
  }
  return {
    source: `${PACKAGE} ${version} (ISC), presets.json and translations/en.json, de.json`,
    categories: [...byTag.values()],
  };
}

// One category a line: small diffs when the presets change (prettier leaves the file alone).
export function renderCategoryTerms(data: ReturnType<typeof buildCategoryTerms>): string {
  const lines = data.categories.map((c) => `    ${JSON.stringify(c)}`);
  return `{\n  "source": ${JSON.stringify(data.source)},\n  "categories": [\n${lines.join(',\n')}\n  ]\n}\n`;
}
