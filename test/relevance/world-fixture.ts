import { v5 as uuidv5 } from 'uuid';
import { buildWorldGazetteer } from '../../src/places/gazetteer/world-gazetteer';
import { PlaceRecord } from '../../src/places/place-record';
import { foldText } from '../../src/search/text-fold/text-fold';
import { hashString } from '../../src/common/deterministic-random';
import type { FixtureRecord } from './relevance-catalogue';
import type { RelevanceQuery } from './relevance-fixture';
import { qualifiedQueries } from './qualified-queries';
import { variantFixture } from './variant-queries';

// The world category: names many places share, from the built-in gazetteer. Each place of such a
// name gets one imagery record at its point (its address the gazetteer's label, as demo cities
// have); asking for the name, a prefix of it as typed, or a misspelling of it must put the imagery of
// the most important place of that name first (the most populous: what a person most likely means).

// Named by the issue that asked for it; more are sampled from the gazetteer.
const NAMED = ['San Francisco', 'London', 'Paris', 'Cambridge', 'Córdoba', 'Birmingham', 'Sydney', 'Springfield'];
const SAMPLED = 40;
// A sampled name is ambiguous only when its most populous place is clearly the one people mean.
const POPULATION_RATIO = 2;
const NAMESPACE = '7d0c4a52-8a1e-4b7f-b1c3-2f5e9d6a8b41';

export interface WorldFixture {
  places: PlaceRecord[];
  records: FixtureRecord[];
  queries: Array<RelevanceQuery & { alsoRight?: string[] }>;
  /** The places of each name asked for, most important first, and the record at each place. */
  names: PlaceRecord[][];
  recordOf: ReadonlyMap<string, string>;
}

const key = (name: string) => foldText(name);

// `others`: the suite's other records (variant-queries.ts counts those at a variant's town as right).
export function worldFixture(others: readonly FixtureRecord[] = []): WorldFixture {
  const localities = buildWorldGazetteer().filter((p) => p.kind === 'locality');
  const byName = new Map<string, PlaceRecord[]>();
  for (const p of localities) byName.set(key(p.name), [...(byName.get(key(p.name)) ?? []), p]);
  for (const list of byName.values()) list.sort((a, b) => b.importance - a.importance || (a.id < b.id ? -1 : 1));

  const clear = [...byName.entries()].filter(([name, list]) => {
    if (list.length < 2 || NAMED.some((n) => key(n) === name) || !/^[a-z ]{5,}$/.test(name)) return false;
    return (list[0].population ?? 0) >= POPULATION_RATIO * (list[1].population ?? 0);
  });
  const sampled = clear
    .sort((a, b) => hashString(a[0]) - hashString(b[0]) || a[0].localeCompare(b[0]))
    .slice(0, SAMPLED);
  const names = [...NAMED.map((n) => [key(n), byName.get(key(n))!] as const), ...sampled];

  const places = names.flatMap(([, list]) => list);
  const records = places.map((p) => ({ id: uuidv5(p.id, NAMESPACE), address: p.label, lat: p.lat, lon: p.lon }));
  const recordOf = new Map(places.map((p, i) => [p.id, records[i].id]));
  const queries: RelevanceQuery[] = [];
  const sf = byName.get(key('San Francisco'))![0];
  queries.push({
    category: 'world',
    query: 'Sna Francisco',
    expected: recordOf.get(sf.id)!,
    from: `${sf.label} (a typo the issue names)`,
  });
  for (const [, list] of names) {
    const best = list[0];
    const expected = recordOf.get(best.id)!;
    const from = `${best.label} (the most populous of ${list.length})`;
    queries.push({ category: 'world', query: best.name, expected, from });
    queries.push({ category: 'world', query: typedPrefix(best.name), expected, from });
    const typo = misspelt(best.name);
    if (typo) queries.push({ category: 'world', query: typo, expected, from });
  }
  queries.push(
    ...qualifiedQueries(
      names.map(([, list]) => list),
      recordOf,
    ),
  );
  // Spelling variants of other towns (variant-queries.ts), with their places and records.
  const variants = variantFixture(localities, new Set(places.map((p) => p.id)), others);
  return {
    places: [...places, ...variants.places],
    records: [...records, ...variants.records],
    queries: [...queries, ...variants.queries],
    names: names.map(([, list]) => list),
    recordOf,
  };
}

// As typed so far: the name up to two letters into its last word ("San Fr"), or the first five
// letters of a one-word name ("Birmi").
export function typedPrefix(name: string): string {
  const lastSpace = name.lastIndexOf(' ');
  return lastSpace > 0 ? name.slice(0, lastSpace + 3) : name.slice(0, 5);
}

// Two neighbouring letters swapped in the name's longest word, away from its first letter
// ("Sna Francisco" swaps the start of a short word, which trigram matching finds hardest, so this
// takes the middle of the longest word); null when no word is long enough.
export function misspelt(name: string): string | null {
  const words = name.split(' ');
  const longest = words.reduce((a, b) => ([...b].length > [...a].length ? b : a));
  const letters = [...longest];
  if (letters.length < 6) return null;
  const i = Math.floor(letters.length / 2);
  [letters[i - 1], letters[i]] = [letters[i], letters[i - 1]];
  if (letters[i - 1] === letters[i]) return null;
  return words.map((w) => (w === longest ? letters.join('') : w)).join(' ');
}
