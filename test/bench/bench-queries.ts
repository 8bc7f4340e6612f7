// The query classes: deterministic lists of different request bodies taken from the dataset, so
// every request of a run asks for something that exists (or, for typos, nearly exists).
import { hashString, seededRandom } from '../../src/common/deterministic-random';
import { addressOf, benchStreets, BenchStreet } from './bench-dataset';

export const QUERY_CLASSES = ['exact', 'street_city', 'prefix', 'typo', 'broad', 'coordinates', 'text_near'] as const;
export type QueryClass = (typeof QUERY_CLASSES)[number];

export const CLASS_LABELS: Record<QueryClass, string> = {
  exact: 'exact address',
  street_city: 'street and city',
  prefix: 'prefix (3-5 letters)',
  typo: 'one typo',
  broad: 'broad word',
  coordinates: 'coordinates',
  text_near: 'text + near',
};

export interface SearchBody {
  query: string;
  limit: number;
  page: number;
  near?: { lat: number; lon: number; radius_m: number };
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
export function queryBodies(seed: number, records: number, perClass: number): Record<QueryClass, SearchBody[]> {
  const streets: BenchStreet[] = [...benchStreets(seed, records)].slice(0, -1);
  if (streets.length === 0) throw new Error('the dataset is too small for query classes');
  const rand = seededRandom(hashString(`queries:${seed}:${records}`));
  const chosen = Array.from({ length: perClass }, (_, i) => streets[Math.floor((i * streets.length) / perClass)]);
  const house = (s: BenchStreet) => s.houses[Math.floor(rand() * s.houses.length)];
  const body = (query: string, extra: Partial<SearchBody> = {}): SearchBody => ({ query, limit: 10, page: 1, ...extra });
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
  return out;
}
