import { measureLanguages } from './osm-language-queries';
import { openPlaceInput } from '../../src/places/place-reader';
import { PlaceRepository } from '../../src/places/place.repository';
import { startPlaceImporter } from '../helpers/place-importer';
import { linkedRows, resetPlaces } from '../helpers/places';
import { startSearchService } from '../helpers/search-service';
import { feature, importFixture, resetImagery } from '../helpers/test-app';
import { CategoryResult, runRelevance } from './relevance-suite';
import { OSM_CATEGORIES, osmQueries, OsmQuery, pointKey, recordId } from './osm-queries';
import { hasWords as has, OSM_FIXTURE, OsmObject, OsmTruth, readOsmTruth } from './osm-truth';
import { addressHierarchies, InterpolatedNumber, interpolatedNumbers, streetLines } from './osm-hierarchy-truth';
import { osmStructuredQueries } from './osm-structured-queries';
import { categoryByTagQueries } from './osm-category-queries';

// The OpenStreetMap relevance suite: the real Liechtenstein extract imported with the project's own
// place import (as `npm run import:places -- <file> --country LI` does), imagery without addresses at
// every ground-truth object (osm-truth.ts), addresses recovered by the linker on import, and then
// (a) reverse: are the recovered addresses the objects' own, and (b) forward and garbage: does search
// put the object first (osm-queries.ts).

export const REVERSE_CATEGORIES = [
  'reverse: number+street',
  'reverse: +postcode',
  'reverse: +town',
  'reverse: addr:place',
  'reverse: hamlet/village/suburb in the label',
  'reverse: interpolation number',
] as const;
export type ReverseCategory = (typeof REVERSE_CATEGORIES)[number];

export interface OsmRelevance {
  truth: OsmTruth;
  queries: OsmQuery[];
  reverse: CategoryResult<ReverseCategory>[];
  forward: CategoryResult<string>[];
  records: number;
  /** A record's objects and its recovered address, for reading misses. */
  describe: (id: string | null) => string;
}

async function importPlaces(): Promise<void> {
  const { moduleRef, importer, db } = await startPlaceImporter();
  try {
    // As npm run import:places does it: places settled in the file's boundaries.
    const osmAreas = await moduleRef.get(PlaceRepository).openAreaSession();
    const input = await openPlaceInput(OSM_FIXTURE, 'osm', { countryCode: 'LI', osmAreas });
    try {
      const summary = await importer.importPlaces(input.items, { source: 'osm', countryCode: 'LI', dryRun: false });
      if (summary.outcome !== 'complete') throw new Error(`OSM place import: ${summary.outcome}`);
    } finally {
      input.close();
      await osmAreas.close();
    }
  } finally {
    await db.end();
    await moduleRef.close();
  }
}

// (a) reverse: the address recovered for the imagery at an address object, read as a person reads it
// (the record's address text), against the object's tags. Each level counts the addresses that tag
// what it checks: +postcode those with addr:postcode, +town those with addr:city too.
function scoreReverse(
  addresses: OsmObject[],
  recovered: Map<string, string>,
  hierarchies: Map<OsmObject, string[]>,
  interpolated: Array<{ n: InterpolatedNumber; at: OsmObject }>,
): CategoryResult<ReverseCategory>[] {
  const results = REVERSE_CATEGORIES.map((category) => ({ category, queries: 0, top1: 0, top5: 0, misses: [] }));
  const score = (i: number, o: OsmObject, ok: boolean) => {
    const r: CategoryResult<ReverseCategory> = results[i];
    r.queries++;
    if (ok) [r.top1, r.top5] = [r.top1 + 1, r.top5 + 1];
    else r.misses.push({ query: `imagery at ${o.id}`, from: o.id, expected: recordId(o), got: [] });
  };
  for (const o of addresses) {
    const a = o.address!;
    const got = recovered.get(recordId(o)) ?? '';
    const numbered = (named: string) => a.numbers.some((n) => has(got, `${named} ${n}`) || has(got, `${n} ${named}`));
    if (!a.street) {
      score(3, o, numbered(a.place!));
      continue;
    }
    const street = numbered(a.street);
    score(0, o, street);
    if (!a.postcode) continue;
    const postcode = street && has(got, a.postcode);
    score(1, o, postcode);
    if (a.city) score(2, o, postcode && has(got, a.city));
  }
  // Every hamlet, village and suburb the address lies in or near (osm-hierarchy-truth.ts) is named.
  for (const [o, names] of hierarchies) {
    const got = recovered.get(recordId(o)) ?? '';
    score(
      4,
      o,
      names.every((name) => has(got, name)),
    );
  }
  // Beside an interpolation line: the number the line gives that point, on its street.
  for (const { n, at } of interpolated) {
    const got = recovered.get(recordId(at)) ?? '';
    score(5, at, has(got, `${n.street} ${n.number}`) || has(got, `${n.number} ${n.street}`));
  }
  return results;
}

// Builds the catalogue in the database at DATABASE_URL (migrated; places and imagery are replaced)
// and measures. `perCategory` caps each forward category (a seeded sample); reverse is every address.
export async function measureOsmRelevance(perCategory: number): Promise<OsmRelevance> {
  const truth = readOsmTruth();
  const hierarchies = addressHierarchies(truth);
  // An imagery record beside each interpolated number (no object of the file stands there).
  const interpolated = interpolatedNumbers(truth, streetLines()).map((n) => ({ n, at: besideObject(n) }));
  const queries = [
    ...osmQueries(truth, perCategory),
    ...interpolationQueries(interpolated),
    ...osmStructuredQueries(truth, perCategory),
    ...categoryByTagQueries(truth, Math.min(perCategory, 200)),
  ];
  await resetImagery();
  await resetPlaces();
  await importPlaces();
  const atPoint = new Map<string, OsmObject[]>();
  for (const o of truth.objects) atPoint.set(pointKey(o), [...(atPoint.get(pointKey(o)) ?? []), o]);
  for (const { at } of interpolated) atPoint.set(pointKey(at), [at]);
  const points = [...atPoint.values()].map((objects) => objects[0]);
  // No address of its own: the linker recovers one from the places on import.
  const summary = await importFixture(
    points.map((o) => feature('', { id: recordId(o) }, [o.lon, o.lat])),
    'osm-relevance',
  );
  if (summary.rejected > 0) throw new Error(`OSM relevance imagery: ${summary.rejected} records rejected`);
  const recovered = new Map([...(await linkedRows()).values()].map((r) => [r.id, r.address]));
  const reverse = scoreReverse(truth.addresses, recovered, hierarchies, interpolated);

  const { moduleRef, search } = await startSearchService();
  let forward: CategoryResult<string>[];
  try {
    forward = await runRelevance(search, queries, OSM_CATEGORIES);
    forward.push(...(await measureLanguages(search, truth, perCategory)));
  } finally {
    await moduleRef.close();
  }
  const byRecord = new Map([...atPoint.values()].map((objects) => [recordId(objects[0]), objects]));
  const describe = (id: string | null) => {
    if (id === null) return 'nothing';
    const objects = (byRecord.get(id) ?? []).map((o) => `${o.id} ${o.tags.name ?? ''}${addressOf(o)}`.trim());
    return `[${objects.join('; ') || id}] recovered "${recovered.get(id) ?? '?'}"`;
  };
  return { truth, queries, reverse, forward, records: points.length, describe };
}

// The record beside an interpolated number, as an object of its own.
function besideObject(n: InterpolatedNumber): OsmObject {
  const [lon, lat] = n.beside;
  const address = {
    number: n.number,
    numbers: [n.number],
    street: n.street,
    place: null,
    postcode: null,
    city: n.town,
  };
  return {
    id: `beside ${n.street} ${n.number}`,
    tags: {},
    lon,
    lat,
    address,
    street: false,
    poi: null,
    natural: false,
    place: false,
  };
}

// "<street> <number>, <town>" for each interpolated number finds the record beside it.
function interpolationQueries(interpolated: Array<{ n: InterpolatedNumber; at: OsmObject }>): OsmQuery[] {
  return interpolated
    .filter(({ n }) => n.town !== null)
    .map(({ n, at }) => ({
      category: 'interpolation number, town' as const,
      query: `${n.street} ${n.number}, ${n.town}`,
      expected: recordId(at),
      from: at.id,
    }));
}

const addressOf = (o: OsmObject) =>
  o.address
    ? ` (${o.address.street ?? o.address.place} ${o.address.number}${o.address.postcode ? `, ${o.address.postcode}` : ''}${o.address.city ? ` ${o.address.city}` : ''})`
    : '';

// The ground truth counted, for the report.
export function truthCounts(truth: OsmTruth): Record<string, number> {
  const a = truth.addresses;
  return {
    municipalities: truth.municipalities.size,
    objects: truth.objects.length,
    addresses: a.length,
    'addresses with addr:postcode': a.filter((o) => o.address!.postcode).length,
    'addresses with addr:city': a.filter((o) => o.address!.city).length,
    'addresses with addr:place, no addr:street': a.filter((o) => !o.address!.street).length,
    'named streets': truth.streets.length,
    'named POIs': truth.pois.length,
    'named natural features': truth.naturals.length,
    places: truth.places.length,
  };
}
