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
function grouped(
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
function peerIndex(truth: OsmTruth) {
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

// Garbage that must find nothing: random letters, a real street with a real town it is not in, a
// real town in another country.
function garbage(truth: OsmTruth, limit: number): OsmQuery[] {
  const rand = seededRandom(hashString('osm-garbage'));
  const out: OsmQuery[] = [];
  const add = (query: string, from: string) => out.push({ category: 'garbage', query, expected: null, from });
  const third = Math.ceil(limit / 3);
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  for (let i = 0; i < third; i++) {
    const words = Array.from({ length: 1 + Math.floor(rand() * 3) }, () =>
      Array.from({ length: 4 + Math.floor(rand() * 6) }, () => pick(rand, [...letters])).join(''),
    );
    add(words.join(' '), 'random letters');
  }
  // Towns: the named towns and villages of the file. A street "is in" a town when an address on it
  // names the town, or a street of that name lies within 3 km of the town's node.
  const towns = truth.places.filter((p) => ['town', 'village'].includes(p.tags.place));
  // A street named like a place ("Nendeln") names that place too: not garbage.
  const placeNames = new Set(truth.places.map((p) => normal(p.tags.name)));
  const streetNames = [...new Set(truth.streets.map((s) => s.tags.name))]
    .filter((n) => !placeNames.has(normal(n)))
    .sort();
  const inTown = (street: string, town: OsmObject) =>
    truth.addresses.some((a) => a.address!.street === street && a.address!.city === town.tags.name) ||
    truth.streets.some((s) => s.tags.name === street && distanceM(s, town) < 3000);
  for (let tries = 0; out.length < 2 * third && tries < 10 * third; tries++) {
    const street = pick(rand, streetNames);
    const town = pick(rand, towns);
    if (!inTown(street, town)) add(`${street}, ${town.tags.name}`, `${town.id}: no ${street} there`);
  }
  while (out.length < limit) {
    const town = pick(rand, towns);
    add(`${town.tags.name}, ${pick(rand, COUNTRIES)}`, `${town.id} is in Liechtenstein`);
  }
  return out;
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
    ...garbage(truth, Math.max(60, Math.min(perCategory, 150))),
  ];
}
