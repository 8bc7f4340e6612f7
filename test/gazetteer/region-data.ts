// Builds the compact first-level region table (src/places/gazetteer/region-data.json) from
// iso3166-2-db (MIT, esosedi): ISO 3166-2 codes, names in its languages, and the GeoNames admin1
// code of each region. The package is 175 MB in 42,000 files, so it stays a devDependency and the
// app ships only the ~0.4 MB it needs; a unit test fails when the committed file drifts from it.

/** One region: [ISO 3166-2 suffix ("CA"), display name, GeoNames admin1 code, other names...]. */
export type RegionRow = [string, string, string, ...string[]];
export interface RegionData {
  source: string;
  /** Regions by ISO 3166-1 alpha-2 country code, sorted by code. */
  regions: Record<string, RegionRow[]>;
}

interface DbRegion {
  iso: string;
  name: string;
  names?: Record<string, string>;
  admin?: string;
  fips?: string;
}

// Names of the languages the package carries; kept in this order so the file is stable.
const NAME_ORDER = ['en', 'geonames', 'de', 'fr', 'es', 'it', 'pt', 'ru', 'ar', 'zh', 'ja', 'he', 'hi'];

// "Punjab, India" / "Centre Region, France": the package disambiguates some English names for
// Wikipedia; the country is in the label anyway.
function displayName(r: DbRegion): string {
  const name = (r.names?.en ?? r.name).trim();
  const comma = name.indexOf(', ');
  return comma > 0 ? name.slice(0, comma) : name;
}

export function buildRegionData(): RegionData {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const db = require('iso3166-2-db/data/iso3166-2.json') as Record<string, { iso: string; regions: DbRegion[] }>;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const version = (require('iso3166-2-db/package.json') as { version: string }).version;
  const regions: Record<string, RegionRow[]> = {};
  for (const country of Object.keys(db).sort()) {
    const rows = new Map<string, RegionRow>();
    for (const r of db[country].regions) {
      const code = r.iso.trim().toUpperCase();
      // Entries without an ISO code are places the package lists that ISO 3166-2 does not.
      if (!code || rows.has(code)) continue;
      const name = displayName(r);
      const seen = new Set([name.toLowerCase()]);
      const others: string[] = [];
      for (const n of [r.name, ...NAME_ORDER.map((l) => r.names?.[l])]) {
        const v = n?.trim();
        if (v && !seen.has(v.toLowerCase())) {
          seen.add(v.toLowerCase());
          others.push(v);
        }
      }
      rows.set(code, [code, name, (r.admin ?? '').trim(), ...others]);
    }
    if (rows.size > 0) regions[country] = [...rows.values()].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  }
  return { source: `iso3166-2-db ${version}`, regions };
}

export function renderRegionData(data: RegionData): string {
  const lines = Object.entries(data.regions).map(
    ([c, rows]) => `    ${JSON.stringify(c)}: [\n${rows.map((r) => `      ${JSON.stringify(r)}`).join(',\n')}\n    ]`,
  );
  return `{\n  "source": ${JSON.stringify(data.source)},\n  "regions": {\n${lines.join(',\n')}\n  }\n}\n`;
}

// The languages whose region names a search's `lang` can ask for (src/places/region-names-by-language.ts).
const LANGUAGES = ['de', 'fr', 'es', 'it', 'ru', 'ar', 'zh'];

/** Region names by language, each a list of "CODE\tname" lines, only where it differs from the display name. */
export interface RegionNamesByLanguage {
  source: string;
  languages: Record<string, string>;
}

export function buildRegionNamesByLanguage(): RegionNamesByLanguage {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const db = require('iso3166-2-db/data/iso3166-2.json') as Record<string, { iso: string; regions: DbRegion[] }>;
  const data = buildRegionData();
  const lines = new Map<string, string[]>(LANGUAGES.map((l) => [l, []]));
  for (const country of Object.keys(data.regions)) {
    const shown = new Map(data.regions[country].map(([code, name]) => [code, name]));
    const seen = new Set<string>();
    for (const r of db[country].regions) {
      const code = r.iso.trim().toUpperCase();
      if (!shown.has(code) || seen.has(code)) continue;
      seen.add(code);
      for (const language of LANGUAGES) {
        const name = r.names?.[language]?.replace(/\s+/g, ' ').trim();
        if (name && name !== shown.get(code)) lines.get(language)!.push(`${country}-${code}\t${name}`);
      }
    }
  }
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const version = (require('iso3166-2-db/package.json') as { version: string }).version;
  return {
    source: `iso3166-2-db ${version}`,
    languages: Object.fromEntries([...lines].map(([l, v]) => [l, v.join('\n')])),
  };
}

export function renderRegionNamesByLanguage(data: RegionNamesByLanguage): string {
  const entries = Object.entries(data.languages).map(([l, v]) => `    ${JSON.stringify(l)}: ${JSON.stringify(v)}`);
  return `{\n  "source": ${JSON.stringify(data.source)},\n  "languages": {\n${entries.join(',\n')}\n  }\n}\n`;
}
