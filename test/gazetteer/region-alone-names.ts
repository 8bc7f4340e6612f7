import countries from 'i18n-iso-countries';
import { allCountries, allRegions } from '../../src/places/regions';
import { aloneKey } from '../../src/search/query/region-named-alone';

// The names a whole query may name a country or region by, beyond what named-region.ts reads: a
// country's names in every language i18n-iso-countries has ("Shqipëri", "日本") and every ISO 3166-2
// region's names (region-data.json, from iso3166-2-db). Keyed as a query is (aloneKey), each to its
// ISO code, or to null where two of them share the name (it then means neither).
// Stored as one text, a line per name sorted by code unit ("key\tcode", the code empty where two
// share it): a few MB less than an object of 32,000 keys in every process that searches.
export interface RegionAloneNames {
  source: string;
  names: string;
}

// Two Latin letters are a code, not a name; two of other scripts can be one ("日本").
const longEnough = (name: string) => [...name].length > 2 || !/\p{Script=Latin}/u.test(name);

export function buildRegionAloneNames(): RegionAloneNames {
  const names = new Map<string, string | null>();
  const add = (name: string, code: string) => {
    const key = aloneKey(name);
    if (!key || !longEnough(name)) return;
    const held = names.get(key);
    if (held === undefined) names.set(key, code);
    else if (held !== null && held !== code) names.set(key, null);
  };
  const languages = countries.langs();
  for (const country of allCountries()) {
    // Many languages write a country's name alike ("Andorra"): each name keyed once.
    const all = new Set(languages.flatMap((lang) => countries.getName(country.code, lang, { select: 'all' }) ?? []));
    for (const name of all) add(name, country.code);
  }
  for (const entry of allRegions()) for (const name of [entry.name, ...entry.otherNames]) add(name, entry.code);
  const lines = [...names]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, code]) => `${key}\t${code ?? ''}`);
  return { source: 'i18n-iso-countries (every language it has) and region-data.json', names: lines.join('\n') };
}

export const renderRegionAloneNames = (data: RegionAloneNames) => `${JSON.stringify(data)}\n`;
