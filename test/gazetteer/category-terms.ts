import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { CATEGORY_KEYS } from '../../src/places/poi-category';

// The words that name each category of poi, from the iD editor's presets (@openstreetmap/id-tagging-schema,
// ISC): for every preset of a poi key whose tags are that one key=value, its English and German name
// and search terms. Presets of several tags (amenity=restaurant + cuisine=pizza) are left out: a poi's
// category is one tag. So are presets of a key alone (amenity=*). The schema moved schools,
// kindergartens, universities and colleges to `education=*` presets that add the amenity tag
// mappers still use (amenity=school): such a preset's words name the one poi tag it adds.
// Unsearchable presets (iD hides them from its search: amenity=recycling, whose searchable presets
// add recycling_type) count after searchable ones, when they have an English name. Deprecated tags
// take the words of the preset that replaces them (deprecated.json).

interface Preset {
  tags?: Record<string, string>;
  addTags?: Record<string, string>;
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
  // The poi tag a preset names: its one tag, or the one poi tag it adds to its one tag.
  const poiTag = (preset: Preset): string | null => {
    const tags = Object.entries(preset.tags ?? {});
    if (tags.length !== 1) return null;
    const added = Object.entries(preset.addTags ?? {}).filter(([k]) => keys.has(k));
    const [key, value] = keys.has(tags[0][0]) ? tags[0] : added.length === 1 ? added[0] : [null, null];
    // "yes" is no kind ("healthcare=yes"): its word would make "yes" a category.
    return key && value !== '*' && value !== 'yes' && /^[a-z0-9_]+$/.test(value!) ? `${key}=${value}` : null;
  };
  const byTag = new Map<string, CategoryTerms>();
  const sorted = Object.entries(presets).sort(([a], [b]) => a.localeCompare(b));
  for (const searchable of [true, false]) {
    for (const [id, preset] of sorted) {
      if ((preset.searchable !== false) !== searchable) continue;
      const tag = poiTag(preset);
      const entry = tag ? { tag, en: words(en[id]), de: words(de[id]) } : null;
      if (!entry || !entry.en.name || byTag.has(entry.tag)) continue;
      byTag.set(entry.tag, entry);
    }
  }
  // Deprecated tags mappers still use (amenity=public_building, now building=public): the words of
  // the preset that replaces them, so "public building in Vaduz" finds the pois tagged the old way.
  const deprecated = readJson<Array<{ old: Record<string, string>; replace?: Record<string, string> }>>(
    dir,
    'deprecated.json',
  );
  const presetOf = new Map(sorted.map(([id, preset]) => [tagsKey(preset.tags ?? {}), id]));
  for (const { old, replace } of deprecated) {
    const tag = poiTag({ tags: old });
    const id = replace && presetOf.get(tagsKey(replace));
    if (!tag || !id || byTag.has(tag) || !en[id]?.name) continue;
    byTag.set(tag, { tag, en: words(en[id]), de: words(de[id]) });
  }
  return {
    source: `${PACKAGE} ${version} (ISC), presets.json, deprecated.json and translations/en.json, de.json`,
    categories: [...byTag.values()],
  };
}

// Tags as one string, in key order: a preset's identity.
function tagsKey(tags: Record<string, string>): string {
  return JSON.stringify(Object.entries(tags).sort(([a], [b]) => a.localeCompare(b)));
}

// One category a line: small diffs when the presets change (prettier leaves the file alone).
export function renderCategoryTerms(data: ReturnType<typeof buildCategoryTerms>): string {
  const lines = data.categories.map((c) => `    ${JSON.stringify(c)}`);
  return `{\n  "source": ${JSON.stringify(data.source)},\n  "categories": [\n${lines.join(',\n')}\n  ]\n}\n`;
}
