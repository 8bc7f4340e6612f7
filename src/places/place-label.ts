import { format } from '@fragaria/address-formatter';
import { LRUCache } from 'lru-cache';
import { hierarchyLabelParts, PlaceHierarchy } from './place-hierarchy';
import type { PlaceKind } from './place-record';
import { countryLabel, regionByCode } from './regions';

// The parts of a place its label is built from (a PlaceRecord has them all).
export interface LabelParts {
  kind: PlaceKind;
  name: string;
  housenumber?: string | null;
  street?: string | null;
  postcode?: string | null;
  locality?: string | null;
  municipality?: string | null;
  /** The places it lies in by kind: those below the city are named between the street and the town. */
  hierarchy?: PlaceHierarchy | null;
  region?: string | null;
  /** ISO 3166-2 ("US-IL"); its second half is what US, Canadian, Australian... addresses write. */
  regionCode?: string | null;
  /** ISO 3166-1 alpha-2; decides the address format. */
  countryCode?: string | null;
}

// The English name of a country code ("LI" -> "Liechtenstein"), or null for codes that are no country.
export function countryName(code: string | null | undefined): string | null {
  return code && /^[A-Za-z]{2}$/.test(code) ? (regionByCode(code)?.name ?? null) : null;
}

// An address on one line, written the way its country writes it (OpenCage's address templates, through
// @fragaria/address-formatter): "Herrengasse 35, 9490 Vaduz" in LI, "123 Main Street, Springfield, IL
// 62701" in the US. The country itself is never appended: labels are read beside a map, and the
// country code is a column of its own. Parts that are absent are left out; an unknown country gets
// the formatter's default order ("35 Herrengasse, 9490 Vaduz").
export function formatAddress(parts: Omit<LabelParts, 'kind' | 'name'>): string {
  // With nothing to format the formatter would still write the country's code.
  if (!parts.housenumber && !parts.street && !parts.postcode && !parts.locality && !parts.region) return '';
  if (!parts.housenumber) return formatNow(parts);
  // The formatter takes most of an import's time (docs/benchmarks.md#fig-place-label), and the houses
  // of one street differ only in their number: the street's address is formatted once with a stand-in number and
  // the stand-in replaced. A street whose template does not give exactly the formatter's own result
  // for its first house is formatted in full every time.
  const key = JSON.stringify([
    parts.countryCode,
    parts.street,
    parts.postcode,
    parts.locality,
    parts.region,
    parts.regionCode,
    parts.hierarchy,
    parts.municipality,
  ]);
  const template = streetTemplates.get(key);
  if (template === undefined) {
    const full = formatNow(parts);
    const candidate = formatNow({ ...parts, housenumber: HOUSE_STAND_IN }).split(HOUSE_STAND_IN);
    streetTemplates.set(key, candidate.length === 2 && candidate.join(parts.housenumber) === full ? candidate : false);
    return full;
  }
  return template === false ? formatNow(parts) : template.join(parts.housenumber);
}

const HOUSE_STAND_IN = 'HOUSENUMBERSTANDIN';
// Templates of recently seen streets (split at the stand-in), or false where one does not work.
const streetTemplates = new LRUCache<string, string[] | false>({ max: 10_000 });

function formatNow(parts: Omit<LabelParts, 'kind' | 'name'>): string {
  const stateCode = parts.regionCode?.split('-')[1];
  const lines = format(
    {
      houseNumber: parts.housenumber ?? undefined,
      road: parts.street ?? undefined,
      postcode: parts.postcode ?? undefined,
      city: parts.locality ?? undefined,
      state: parts.region ?? stateCode,
      stateCode,
    },
    { countryCode: parts.countryCode ?? undefined, appendCountry: false, output: 'array' },
  );
  const out = lines.map((line) => line.trim()).filter((line) => line !== '');
  // The hamlet, village, suburb... between the street and the town ("Silumer Strasse 12, Silum, 9497
  // Triesenberg"), as Nominatim's and Pelias's labels name them; a place with no town line ends with them.
  const within = hierarchyLabelParts(parts.hierarchy, [parts.street, parts.locality, parts.municipality]);
  if (within.length > 0) out.splice(out.length > 1 ? out.length - 1 : out.length, 0, ...within);
  return out.join(', ');
}

// How every place is shown (in search results, and as the recovered address of imagery near it):
// - address: its address as its country writes it;
// - street, postcode: the same formatter without a house number ("Herrengasse, 9490 Vaduz", "9490 Vaduz");
// - poi: "Name, <its address>" (the address as far as it is known);
// - locality, region, country: "Name, Region, Country", leaving out parts that are absent or repeat.
export function placeLabel(p: LabelParts): string {
  switch (p.kind) {
    case 'address':
      return formatAddress(p) || p.name;
    case 'street':
      return formatAddress({ ...p, housenumber: null, street: p.street ?? p.name }) || p.name;
    case 'postcode':
      return (
        formatAddress({ ...p, housenumber: null, street: null, hierarchy: null, postcode: p.postcode ?? p.name }) ||
        p.name
      );
    case 'poi':
      return distinct([p.name, formatAddress(p)]).join(', ');
    case 'country':
      return countryLabel(p.name, p.countryCode);
    default:
      return distinct([p.name, p.kind === 'locality' ? p.region : null, countryName(p.countryCode)]).join(', ');
  }
}

// Non-empty parts, each once, in order.
function distinct(parts: Array<string | null | undefined>): string[] {
  const out: string[] = [];
  for (const part of parts) if (part && !out.includes(part)) out.push(part);
  return out;
}
