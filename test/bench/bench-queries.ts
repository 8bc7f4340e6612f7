// The query classes: deterministic lists of different request bodies taken from the dataset, so
// every request of a run asks for something that exists (or, for typos, nearly exists).
import { hashString, seededRandom } from '../../src/common/deterministic-random';
import { MIN_LOCALITY_POPULATION } from '../../src/places/gazetteer/world-gazetteer';
import { geoNamesCities } from '../../src/places/gazetteer/gazetteer-sources';
import {
  addressOf,
  alongStreet,
  BenchDataset,
  BenchPlace,
  benchStreets,
  BenchStreet,
  denseCount,
} from './bench-dataset';
import { COMMON_BASES } from './bench-sources';

export const QUERY_CLASSES = [
  'exact',
  'street_city',
  'prefix',
  'typo',
  'broad',
  'coordinates',
  'dense_coordinates',
  'text_near',
  'place',
  'place_prefix',
  'place_typo',
  'place_region',
  'address_view',
  'dense_bbox',
  'deep_text',
  'deep_coordinates',
] as const;
export type QueryClass = (typeof QUERY_CLASSES)[number];

export const CLASS_LABELS: Record<QueryClass, string> = {
  exact: 'exact address',
  street_city: 'street and city',
  prefix: 'prefix (3-5 letters)',
  typo: 'one typo',
  broad: 'broad word',
  coordinates: 'coordinates',
  dense_coordinates: 'coordinates on a street',
  text_near: 'text + near',
  place: 'place name several share',
  place_prefix: 'place name as typed',
  place_typo: 'place name, one typo',
  place_region: 'place name + region',
  address_view: 'address place (best view)',
  dense_bbox: 'box around a street, newest first',
  deep_text: 'common word, page 50',
  deep_coordinates: 'coordinates, page 50',
};

export interface SearchBody {
  /** Absent only with bbox (dense_bbox). */
  query?: string;
  limit: number;
  page: number;
  /** Without lat and lon: the radius around the coordinates in query. */
  near?: { lat?: number; lon?: number; radius_m: number };
  region?: string;
  bbox?: [number, number, number, number];
}

// Words that match a large share of the catalogue (street types, and the US country name).
export const BROAD_WORDS = ['street', 'avenue', 'road', 'drive', 'lane', 'United States'];
const BROAD_PAGES = 4;
const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

// One letter of the longest word (at least 5 letters) changed, not the first: the commonest typo.
export function typoOf(text: string, rand: () => number): string {
  const words = text.split(/([\s,]+)/);
  let target = -1;
  for (let i = 0; i < words.length; i++) {
    if (/^\p{L}{5,}$/u.test(words[i]) && (target < 0 || words[i].length > words[target].length)) target = i;
  }
  if (target < 0) return text;
  const word = words[target];
  const at = 1 + Math.floor(rand() * (word.length - 1));
  const was = word[at].toLowerCase();
  let now = was;
  while (now === was) now = LETTERS[Math.floor(rand() * LETTERS.length)];
  words[target] = word.slice(0, at) + now + word.slice(at + 1);
  return words.join('');
}

// `perClass` bodies for every class (broad: its words times a few pages), from streets spread
// evenly over the dataset. The last street may be cut short by the record count, so it is not used.
export function queryBodies(
  seed: number,
  records: number,
  perClass: number,
  dataset: BenchDataset = 'sparse',
): Record<QueryClass, SearchBody[]> {
  const streets: BenchStreet[] = [...benchStreets(seed, records, dataset)].slice(0, -1);
  if (streets.length === 0) throw new Error('the dataset is too small for query classes');
  const rand = seededRandom(hashString(`queries:${seed}:${records}`));
  const chosen = Array.from({ length: perClass }, (_, i) => streets[Math.floor((i * streets.length) / perClass)]);
  const house = (s: BenchStreet) => s.houses[Math.floor(rand() * s.houses.length)];
  const body = (query: string | undefined, extra: Partial<SearchBody> = {}): SearchBody => ({
    ...(query === undefined ? {} : { query }),
    limit: 10,
    page: 1,
    ...extra,
  });
  const at = (n: number, digits: number) => Number(n.toFixed(digits));

  const out = {} as Record<QueryClass, SearchBody[]>;
  out.exact = chosen.map((s) => body(addressOf(s, house(s))));
  out.street_city = chosen.map((s) => body(`${s.name}, ${s.place.city}`));
  // What someone has typed so far of a city or street name.
  out.prefix = chosen.map((s) => {
    const word = (rand() < 0.5 ? s.place.city : s.base).split(/[\s,-]+/)[0];
    return body(word.slice(0, Math.min(word.length, 3 + Math.floor(rand() * 3))));
  });
  out.typo = chosen.map((s) => body(typoOf(`${s.name}, ${s.place.city}`, rand)));
  out.broad = BROAD_WORDS.flatMap((w) => Array.from({ length: BROAD_PAGES }, (_, p) => body(w, { page: p + 1 })));
  out.coordinates = chosen.map((s) => {
    const h = house(s);
    return body(`${h.lat.toFixed(5)}, ${h.lon.toFixed(5)}`);
  });
  out.text_near = chosen.map((s) => {
    const h = house(s);
    return body(s.name, { near: { lat: at(h.lat, 6), lon: at(h.lon, 6), radius_m: 1000 } });
  });
  placeClasses(out, chosen, house, body, rand);
  // Last, so the other classes' bodies stay those of earlier runs. A point on the street itself,
  // beside one of its houses: on the dense set, hundreds of images within the radius (every 3-5 m
  // along every pass), on the sparse one that house's few captures (a point anywhere along a long
  // street could lie farther than the radius from every house, and find nothing).
  out.dense_coordinates = chosen.map((s) => {
    const [lon, lat] = alongStreet(s, house(s).along, 0);
    return body(`${lat.toFixed(6)}, ${lon.toFixed(6)}`);
  });
  deepClasses(out, streets, chosen, dataset, seed, records, body);
  return out;
}

// Metres of a box's half side (dense_bbox), a page deep in the results (deep_*), and the circles of
// deep_coordinates: along a street (dense: the whole street is within 1 km of its middle, as streets
// run at most 2 km), or around a place (sparse: a place's streets start within about 7.5 km of it).
const BOX_HALF_M = 100;
export const DEEP_PAGE = 50;
const DEEP_STREET_RADIUS_M = 1000;
const DEEP_PLACE_RADIUS_M = 10_000;
// Records a deep page's search should hold at least: the page's 500 and a margin.
const DEEP_RECORDS = DEEP_PAGE * 10 + 100;
// A catalogue smaller than this (the smoke tier's 3,000 records) holds no search 50 pages deep: its
// deep classes ask for the first page, so they still run end to end and answer something.
const DEEP_PAGE_MIN_RECORDS = 20_000;
const deepPage = (records: number) => (records >= DEEP_PAGE_MIN_RECORDS ? DEEP_PAGE : 1);

// Generated after the others with their own random sequence, so the earlier classes' bodies stay.
function deepClasses(
  out: Record<QueryClass, SearchBody[]>,
  streets: BenchStreet[],
  chosen: BenchStreet[],
  dataset: BenchDataset,
  seed: number,
  records: number,
  body: (query: string | undefined, extra?: Partial<SearchBody>) => SearchBody,
): void {
  const rand = seededRandom(hashString(`deep-queries:${seed}:${records}`));
  const at = (n: number) => Number(n.toFixed(6));
  // A 200 m box centred on the street beside one of its houses: on the dense set every pass's
  // images along 200 m of it (and of any street crossing it), newest first.
  out.dense_bbox = chosen.map((s) => {
    const h = s.houses[Math.floor(rand() * s.houses.length)];
    const [lon, lat] = alongStreet(s, h.along, 0);
    const dLat = BOX_HALF_M / 111_320;
    const dLon = BOX_HALF_M / (111_320 * Math.cos((lat * Math.PI) / 180));
    return body(undefined, { bbox: [at(lon - dLon), at(lat - dLat), at(lon + dLon), at(lat + dLat)] });
  });
  // A word hundreds of streets share ("Maple"), page 50: the text search's cost of a deep page.
  const common = chosen.filter((s) => COMMON_BASES.includes(s.base));
  out.deep_text = chosen.map((_, i) =>
    body((common.length > 0 ? common[i % common.length] : chosen[i]).base, { page: deepPage(records) }),
  );
  const cycle = <T>(items: T[]) => chosen.map((_, i) => items[i % items.length]);
  if (dataset === 'dense') {
    const long = chosen.filter((s) => denseCount(s) >= DEEP_RECORDS);
    out.deep_coordinates = cycle(long.length > 0 ? long : chosen).map((s) => {
      const [lon, lat] = alongStreet(s, s.length / 2, 0);
      return body(`${lat.toFixed(6)}, ${lon.toFixed(6)}`, {
        page: deepPage(records),
        near: { radius_m: DEEP_STREET_RADIUS_M },
      });
    });
    return;
  }
  // Sparse: the places whose streets hold enough records between them.
  const byPlace = new Map<BenchPlace, number>();
  for (const s of streets) byPlace.set(s.place, (byPlace.get(s.place) ?? 0) + s.records);
  const places = [...new Set(chosen.map((s) => s.place))].filter((p) => (byPlace.get(p) ?? 0) >= DEEP_RECORDS);
  const busiest = [...byPlace].sort((a, b) => b[1] - a[1]).map(([p]) => p);
  out.deep_coordinates = cycle(places.length > 0 ? places : busiest.slice(0, chosen.length)).map((p) =>
    body(`${p.lat.toFixed(6)}, ${p.lon.toFixed(6)}`, {
      page: deepPage(records),
      near: { radius_m: DEEP_PLACE_RADIUS_M },
    }),
  );
}

// Names several localities of the world gazetteer share ("London", "Springfield"), lower case.
let shared: Set<string> | undefined;
function sharedNames(): Set<string> {
  if (!shared) {
    const counts = new Map<string, number>();
    for (const c of geoNamesCities()) {
      if (c.population >= MIN_LOCALITY_POPULATION)
        counts.set(c.name.toLowerCase(), (counts.get(c.name.toLowerCase()) ?? 0) + 1);
    }
    shared = new Set([...counts].filter(([, n]) => n >= 2).map(([name]) => name));
  }
  return shared;
}

// "San Fr": every word but the last, and the start of the last (one-word names: 60% of it, at least 3 letters).
export function typedSoFar(name: string): string {
  const words = name.split(' ');
  const last = words.pop()!;
  if (words.length > 0) return `${words.join(' ')} ${last.slice(0, Math.min(last.length, 2))}`;
  return last.slice(0, Math.max(3, Math.ceil(last.length * 0.6)));
}

// Classes of search that knows places, from the same streets: the cities of the dataset whose name
// several gazetteer localities share (cycled when fewer than the class size), and their addresses.
function placeClasses(
  out: Record<QueryClass, SearchBody[]>,
  chosen: BenchStreet[],
  house: (s: BenchStreet) => BenchStreet['houses'][number],
  body: (query: string, extra?: Partial<SearchBody>) => SearchBody,
  rand: () => number,
): void {
  const ambiguous = chosen.filter((s) => sharedNames().has(s.place.city.toLowerCase()));
  const cities = (ambiguous.length > 0 ? ambiguous : chosen).map((s) => s.place);
  const cycle = <T>(items: T[]) => chosen.map((_, i) => items[i % items.length]);
  out.place = cycle(cities).map((p) => body(p.city));
  out.place_prefix = chosen.map((s) => body(typedSoFar(s.place.city)));
  const typoable = chosen.filter((s) => /\p{L}{5,}/u.test(s.place.city));
  out.place_typo = cycle(typoable.length > 0 ? typoable : chosen).map((s) => body(typoOf(s.place.city, rand)));
  out.place_region = cycle(cities).map((p) => body(p.city, { region: p.regionCode ?? p.countryCode }));
  out.address_view = chosen.map((s) => body(`${house(s).number} ${s.name}, ${s.place.city}`));
}
