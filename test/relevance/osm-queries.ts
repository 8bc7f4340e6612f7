import { v5 as uuidv5 } from 'uuid';
import { hashString, seededRandom } from '../../src/common/deterministic-random';
import { distanceM, pick, sample } from './relevance-catalogue';
import { ScoredQuery } from './relevance-suite';
import { inTown, OsmObject, OsmTruth } from './osm-truth';

// The queries of the OpenStreetMap relevance suite, every expected answer read from the OSM tags
// (osm-truth.ts): the imagery record standing at the object the query was made from. Deterministic: a
// seeded sample of each category, the same every run.

export const OSM_CATEGORIES = [
  'street number, town',
  'number street postcode',
  'poi name',
  'natural name',
  'place name',
  'category in town',
  'category by tag, town',
  'fallback: number -> street',
  'fallback: street -> town',
  'street variant, town',
  'interpolation number, town',
  'structured: number street town',
  'structured fallback',
  'name + coordinates',
  'garbage',
] as const;
export type OsmCategory = (typeof OSM_CATEGORIES)[number];
export type OsmQuery = ScoredQuery<OsmCategory>;

const NAMESPACE = '0b8f4a52-6a57-4a43-9d41-6c1f2f7ad0c4';
// One imagery record per point: objects drawn at the same point (a shop in an address node) share it.
export const pointKey = (o: OsmObject) => `${o.lon.toFixed(7)},${o.lat.toFixed(7)}`;
export const recordId = (o: OsmObject) => uuidv5(pointKey(o), NAMESPACE);

const normal = (s: string) => s.toLowerCase().replace(/\s+/g, ' ').trim();

// Queries whose text (case and spacing aside) is the same are one query: every object it was made
// from is as right as another ("Post" names several post offices), and so are the `peers` of each
// (what the data cannot tell apart from it).
export function grouped(
  category: OsmCategory,
  made: Array<{ query: string; from: OsmObject }>,
  limit: number,
  peers: (o: OsmObject) => OsmObject[] = () => [],
): OsmQuery[] {
  const byText = new Map<string, Array<{ query: string; from: OsmObject }>>();
  for (const m of made) byText.set(normal(m.query), [...(byText.get(normal(m.query)) ?? []), m]);
  return sample([...byText.values()], limit, (g) => `${category}:${g[0].query}`).map((g) => {
    const expected = recordId(g[0].from);
    const right = new Set(g.flatMap((m) => [m.from, ...peers(m.from)]).map(recordId));
    right.delete(expected);
    return { category, query: g[0].query, expected, alsoRight: [...right], from: g.map((m) => m.from.id).join(' ') };
  });
}

// Peers of an object. By name: every object of that name (a guidepost "Fürstenweg" and the street
// Fürstenweg). By address: the same street and number within 300 m, the duplicates mappers leave
// (a building and an entrance node; one may lack addr:postcode).
export function peerIndex(truth: OsmTruth) {
  const byName = new Map<string, OsmObject[]>();
  for (const o of truth.objects)
    if (o.tags.name) byName.set(normal(o.tags.name), [...(byName.get(normal(o.tags.name)) ?? []), o]);
  const byStreet = new Map<string, OsmObject[]>();
  for (const o of truth.addresses)
    if (o.address!.street) byStreet.set(o.address!.street, [...(byStreet.get(o.address!.street) ?? []), o]);
  return {
    sameName: (o: OsmObject) => byName.get(normal(o.tags.name ?? '')) ?? [],
    sameAddress: (o: OsmObject) =>
      (byStreet.get(o.address!.street!) ?? []).filter(
        (p) => p.address!.numbers.some((n) => o.address!.numbers.includes(n)) && distanceM(o, p) < 300,
      ),
  };
}

// What a person calls a category: the tag's value in words ("fast_food" -> "fast food").
const categoryWords = (value: string) => value.replace(/_/g, ' ');

const COUNTRIES = ['Poland', 'Kenya', 'Brazil', 'Japan', 'Canada', 'Portugal', 'Egypt', 'Peru', 'Norway', 'Vietnam'];

// Garbage that must find nothing: random letters, and a real town in another country.
function garbage(truth: OsmTruth, limit: number): OsmQuery[] {
  const rand = seededRandom(hashString('osm-garbage'));
  const out: OsmQuery[] = [];
  const add = (query: string, from: string) => out.push({ category: 'garbage', query, expected: null, from });
  const half = Math.ceil(limit / 2);
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  for (let i = 0; i < half; i++) {
    const words = Array.from({ length: 1 + Math.floor(rand() * 3) }, () =>
      Array.from({ length: 4 + Math.floor(rand() * 6) }, () => pick(rand, [...letters])).join(''),
    );
    add(words.join(' '), 'random letters');
  }
  const towns = truth.places.filter((p) => ['town', 'village'].includes(p.tags.place));
  while (out.length < limit) {
    const town = pick(rand, towns);
    add(`${town.tags.name}, ${pick(rand, COUNTRIES)}`, `${town.id} is in Liechtenstein`);
  }
  return out;
}

// The records a town answers with: every object's inside it (see inTown), the town's own node first.
function townRecords(truth: OsmTruth, town: OsmObject): { expected: string; alsoRight: string[] } {
  const inside = truth.objects.filter((o) => o !== town && inTown(truth, o, town.tags.name)).map(recordId);
  return { expected: recordId(town), alsoRight: [...new Set(inside)] };
}

// Fallback by parts, street -> town: a real street with a real town it is not in ("no address on the
// street names the town, no street of that name within 3 km of the town's node") answers the town.
export function streetATownLacks(truth: OsmTruth, limit: number, structured = false): OsmQuery[] {
  const rand = seededRandom(hashString(structured ? 'osm-structured-fallback-town' : 'osm-fallback-town'));
  const out: OsmQuery[] = [];
  const towns = truth.places.filter((p) => ['town', 'village'].includes(p.tags.place));
  // A street named like a place ("Nendeln") names that place too.
  const placeNames = new Set(truth.places.map((p) => normal(p.tags.name)));
  const streetNames = [...new Set(truth.streets.map((s) => s.tags.name))]
    .filter((n) => !placeNames.has(normal(n)))
    .sort();
  const lacks = (street: string, town: OsmObject) =>
    !truth.addresses.some((a) => a.address!.street === street && a.address!.city === town.tags.name) &&
    !truth.streets.some((s) => s.tags.name === street && distanceM(s, town) < 3000);
  for (let tries = 0; out.length < limit && tries < 10 * limit; tries++) {
    const street = pick(rand, streetNames);
    const town = pick(rand, towns);
    if (!lacks(street, town)) continue;
    const query = `${street}, ${town.tags.name}`;
    if (out.some((q) => q.query === query)) continue;
    out.push({
      category: structured ? 'structured fallback' : 'fallback: street -> town',
      query,
      ...(structured && { address: { street, city: town.tags.name } }),
      ...townRecords(truth, town),
      from: `${town.id}: no ${street} there`,
    });
  }
  return out;
}

// Fallback by parts, number -> street: a real street and town with a house number no address of that
// street has answers the street's records in the town: its addresses there, its lines inside it, and
// whatever stands within STREET_VIEW_M of them (a shop in front of an address, a bus stop on the line).
const STREET_VIEW_M = 25;
export function numberAStreetLacks(truth: OsmTruth, limit: number, structured = false): OsmQuery[] {
  const byStreet = new Map<string, OsmObject[]>();
  for (const a of truth.addresses)
    if (a.address!.street && a.address!.city) {
      const key = `${a.address!.street}\u0000${a.address!.city}`;
      byStreet.set(key, [...(byStreet.get(key) ?? []), a]);
    }
  const numbersOf = (street: string) =>
    new Set(truth.addresses.filter((a) => a.address!.street === street).flatMap((a) => a.address!.numbers));
  const seed = structured ? 'structured-fallback-street' : 'fallback-street';
  const made = sample([...byStreet.entries()], limit, ([key]) => `${seed}:${key}`).map(([key, addresses]) => {
    const [street, city] = key.split('\u0000');
    const taken = numbersOf(street);
    let number = 900 + (hashString(key) % 90);
    while (taken.has(String(number))) number++;
    const lines = truth.streets.filter((s) => s.tags.name === street && inTown(truth, s, city));
    // The street's addresses inside the town too, whatever their addr:city (many tag none).
    const inside = truth.addresses.filter((a) => a.address!.street === street && inTown(truth, a, city));
    const on = [...new Set([...addresses, ...inside, ...lines])];
    const near = truth.objects.filter((o) => on.some((a) => distanceM(a, o) <= STREET_VIEW_M));
    const right = [...new Set([...on, ...near].map(recordId))];
    return {
      category: structured ? ('structured fallback' as const) : ('fallback: number -> street' as const),
      query: `${street} ${number}, ${city}`,
      ...(structured && { address: { housenumber: String(number), street, city } }),
      expected: right[0],
      alsoRight: right.slice(1),
      from: `${street} in ${city} has no number ${number}`,
    };
  });
  return made;
}

// A street name as people type it when they cannot, or do not, type it as written: ß as ss, the
// Swiss and Liechtenstein "strasse" as the German "straße", ä/ö/ü as ae/oe/ue, Sankt as St. and St.
// as Sankt. Each street's spellings in turn, by its address (null when the name has none of them).
const STREET_SPELLINGS: ReadonlyArray<(street: string) => string | null> = [
  (s) => (s.includes('ß') ? s.replace(/ß/gu, 'ss') : null),
  (s) => (/strasse/iu.test(s) ? s.replace(/(s)trasse/giu, '$1traße') : null),
  (s) => (/[äöüÄÖÜ]/u.test(s) ? s.replace(/[äöüÄÖÜ]/gu, (c) => UMLAUT_PAIRS[c]) : null),
  (s) => (/\bSankt /u.test(s) ? s.replace(/\bSankt /u, 'St. ') : null),
  (s) => (/\bSt\. /u.test(s) ? s.replace(/\bSt\. /u, 'Sankt ') : null),
];
const UMLAUT_PAIRS: Record<string, string> = { ä: 'ae', ö: 'oe', ü: 'ue', Ä: 'Ae', Ö: 'Oe', Ü: 'Ue' };

function streetSpelling(street: string, seed: string): string | null {
  const variants = STREET_SPELLINGS.map((f) => f(street)).filter((v): v is string => v !== null);
  return variants.length === 0 ? null : variants[hashString(seed) % variants.length];
}

export function osmQueries(truth: OsmTruth, perCategory: number): OsmQuery[] {
  const a = truth.addresses.filter((o) => o.address!.street);
  const { sameName, sameAddress } = peerIndex(truth);
  const pois = truth.pois.filter((o) => o.tags['addr:city']);
  // As right as the poi a query was made from: every poi of its kind in its town (its addr:city, or
  // inside the town: see inTown; most pois carry no addr:city).
  const sameKindInTown = (o: OsmObject) => {
    const town = o.tags['addr:city'];
    return truth.pois.filter((p) => p.poi === o.poi && (p.tags['addr:city'] === town || inTown(truth, p, town)));
  };
  return [
    ...grouped(
      'street number, town',
      a
        .filter((o) => o.address!.city)
        .map((o) => ({ query: `${o.address!.street} ${o.address!.number}, ${o.address!.city}`, from: o })),
      perCategory,
      sameAddress,
    ),
    ...grouped(
      'number street postcode',
      a
        .filter((o) => o.address!.postcode)
        .map((o) => ({ query: `${o.address!.number} ${o.address!.street} ${o.address!.postcode}`, from: o })),
      perCategory,
      sameAddress,
    ),
    ...grouped(
      'poi name',
      truth.pois.map((o) => ({ query: o.tags.name, from: o })),
      perCategory,
      sameName,
    ),
    ...grouped(
      'natural name',
      truth.naturals.map((o) => ({ query: o.tags.name, from: o })),
      perCategory,
      sameName,
    ),
    ...grouped(
      'place name',
      truth.places.map((o) => ({ query: o.tags.name, from: o })),
      perCategory,
      sameName,
    ),
    ...grouped(
      'category in town',
      pois.map((o) => ({ query: `${categoryWords(o.poi!)} in ${o.tags['addr:city']}`, from: o })),
      perCategory,
      sameKindInTown,
    ),
    ...grouped(
      'street variant, town',
      a.flatMap((o) => {
        const street = streetSpelling(o.address!.street!, `${o.id}:${o.address!.number}`);
        return street && o.address!.city
          ? [{ query: `${street} ${o.address!.number}, ${o.address!.city}`, from: o }]
          : [];
      }),
      Math.max(100, Math.min(perCategory, 300)),
      sameAddress,
    ),
    ...numberAStreetLacks(truth, Math.max(50, Math.min(perCategory, 150))),
    ...streetATownLacks(truth, Math.max(50, Math.min(perCategory, 100))),
    ...garbage(truth, Math.max(60, Math.min(perCategory, 100))),
  ];
}
