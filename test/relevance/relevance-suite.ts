import { Test, TestingModule } from '@nestjs/testing';
import type { PlaceRecord } from '../../src/places/place-record';
import type { FixtureRecord } from './relevance-catalogue';
import { AppValidationPipe } from '../../src/common/validation.pipe';
import { DatabaseModule } from '../../src/database/database.module';
import { SearchRequestDto } from '../../src/search/dto/search-request.dto';
import { SearchResponseDto } from '../../src/search/dto/search-response.dto';
import { SEARCH_PROVIDERS } from '../../src/search/search.module';
import { PrismaService } from '../../src/database/prisma.service';
import { ImageryModule } from '../../src/imagery/imagery.module';
import { PhotosModule } from '../../src/photos/photos.module';
import { ImageryPlaceLinker } from '../../src/imagery/address-recovery/imagery-place-linker.service';
import { GAZETTEER_SOURCE } from '../../src/places/gazetteer/gazetteer-place';
import { PlaceRepository } from '../../src/places/place.repository';
import { PlacesModule } from '../../src/places/places.module';
import { worldFixture } from './world-fixture';
import { regionFixture } from './region-queries';
import { SearchService } from '../../src/search/search.service';
import { feature, importFixture, resetImagery, testConfig } from '../helpers/test-app';
import { CATEGORIES, Category, RelevanceFixture, relevanceFixture, RelevanceQuery } from './relevance-fixture';

export interface CategoryResult<C extends string = Category> {
  category: C;
  queries: number;
  top1: number;
  top5: number;
  misses: Array<{ query: string; from: string; expected: string | null; got: string[]; error?: string }>;
}

/** A query of any suite; `alsoRight`: other records as right as `expected` (same name, same text). */
export type ScoredQuery<C extends string> = Omit<RelevanceQuery, 'category'> & {
  category: C;
  alsoRight?: string[];
  /** Every record answered must be one of these (a category's records only), for a hit at top-1. */
  onlyAmong?: string[];
  /** Sent as a structured address instead of `query` (which then only names it in the report). */
  address?: Record<string, string>;
};

// Runs every query (five results each) and scores it: a hit at top-1 when the expected record (or one
// as right) comes first (and, for a query that names its `match`, matched so; for one with
// `onlyAmong`, every record answered is one of those), at top-5 when it is among the first five; for garbage, a hit when nothing
// comes back. An error (any thrown exception) is a miss. Categories are reported in `order`.
export async function runRelevance<C extends string = Category>(
  search: (body: {
    query?: string;
    address?: Record<string, string>;
    limit: number;
    include?: string[];
  }) => Promise<SearchResponseDto>,
  queries: ScoredQuery<C>[],
  order: readonly C[] = CATEGORIES as readonly string[] as readonly C[],
): Promise<CategoryResult<C>[]> {
  const results = new Map<C, CategoryResult<C>>(
    order.map((c) => [c, { category: c, queries: 0, top1: 0, top5: 0, misses: [] }]),
  );
  for (const q of queries) {
    const r = results.get(q.category)!;
    const right = new Set([q.expected, ...(q.alsoRight ?? [])]);
    r.queries++;
    if (q.rightSpelling) right.add((await search({ query: q.rightSpelling, limit: 1 })).data[0]?.id ?? q.expected);
    let got: string[] = [];
    let matched = true;
    let how = '';
    try {
      const asked = q.address ? { address: q.address } : { query: q.query };
      const data = (await search({ ...asked, limit: 5, ...(q.match && { include: ['match'] }) })).data;
      got = data.map((d) => d.id);
      if (q.match) matched = data[0] !== undefined && matchIs(data[0].match, q.match);
      if (!matched) how = `; matched ${JSON.stringify(data[0]?.match ?? null)}`;
    } catch (e) {
      r.misses.push({ query: q.query, from: q.from, expected: q.expected, got, error: (e as Error).message });
      continue;
    }
    if (q.onlyAmong) {
      const among = new Set(q.onlyAmong);
      matched &&= got.every((id) => among.has(id));
      if (!matched) how = `; ${got.filter((id) => !among.has(id)).length} of ${got.length} not of the category`;
    }
    const top1 = q.expected === null ? got.length === 0 : right.has(got[0]) && matched;
    const top5 = q.expected === null ? got.length === 0 : got.some((id) => right.has(id));
    if (top1) r.top1++;
    if (top5) r.top5++;
    if (!top1) r.misses.push({ query: q.query, from: `${q.from}${how}`, expected: q.expected, got });
  }
  return [...results.values()].filter((r) => r.queries > 0);
}

// A `corrected` match names what it corrected.
function matchIs(match: { kind?: string; corrections?: unknown[] } | undefined, kind: string): boolean {
  if (match?.kind !== kind) return false;
  return kind !== 'corrected' || (match.corrections ?? []).length > 0;
}

export const accuracy = (hits: number, of: number) => (of === 0 ? 0 : hits / of);
const pct = (hits: number, of: number) => `${(accuracy(hits, of) * 100).toFixed(1)}%`.padStart(7);

export function formatTable(results: CategoryResult<string>[]): string {
  const width = Math.max(16, ...results.map((r) => r.category.length + 1));
  const lines = [`${'category'.padEnd(width)}${'queries'.padStart(8)}${'top-1'.padStart(8)}${'top-5'.padStart(8)}`];
  for (const r of results)
    lines.push(
      `${r.category.padEnd(width)}${String(r.queries).padStart(8)} ${pct(r.top1, r.queries)} ${pct(r.top5, r.queries)}`,
    );
  const total = results.reduce((a, r) => ({ q: a.q + r.queries, t1: a.t1 + r.top1, t5: a.t5 + r.top5 }), {
    q: 0,
    t1: 0,
    t5: 0,
  });
  lines.push(
    `${'all'.padEnd(width)}${String(total.q).padStart(8)} ${pct(total.t1, total.q)} ${pct(total.t5, total.q)}`,
  );
  return lines.join('\n');
}

export function formatMisses(results: CategoryResult<string>[], describe: (id: string | null) => string): string {
  return results
    .flatMap((r) =>
      r.misses.map(
        (m) =>
          `[${r.category}] ${JSON.stringify(m.query)} (from ${m.from})\n    expected ${describe(m.expected)}\n    got ${
            m.error ? `error: ${m.error}` : m.got.map(describe).join(' | ') || 'nothing'
          }`,
      ),
    )
    .join('\n');
}

// Loads the relevance catalogue into the database at DATABASE_URL (migrated; its imagery is
// replaced) and runs every query through validation and the search service, as a request would.
// The world category's places are loaded into the gazetteer and every record is linked to its
// locality, as an import does. The country and region categories (region-queries.ts) run after, on
// their own catalogue: the whole gazetteer's countries and regions would change which town of a
// name the world category's towns are (Hannover before Hanover, Maryland).
// `regionsPerCategory`: a sample of that many queries of each region category, else all.
export async function measureRelevance(regionsPerCategory?: number): Promise<{
  results: CategoryResult[];
  fixture: RelevanceFixture;
  springfield: SearchResponseDto;
}> {
  const base = relevanceFixture();
  const world = worldFixture(base.records);
  const regions = regionFixture([], regionsPerCategory);
  const fixture: RelevanceFixture = {
    records: [...base.records, ...world.records, ...regions.records],
    queries: [...base.queries, ...world.queries, ...regions.queries],
  };
  const moduleRef = await Test.createTestingModule({
    imports: [DatabaseModule.forRoot(testConfig()), ImageryModule, PlacesModule, PhotosModule],
    providers: SEARCH_PROVIDERS,
  }).compile();
  await moduleRef.init();
  try {
    const service = moduleRef.get(SearchService);
    const pipe = new AppValidationPipe();
    const search = async (body: object) =>
      service.search((await pipe.transform(body, { type: 'body', metatype: SearchRequestDto })) as SearchRequestDto);
    await loadCatalogue(moduleRef, world.places, [...base.records, ...world.records]);
    const results = await runRelevance(search, [...base.queries, ...world.queries]);
    const springfield = await search({ query: 'Springfield', limit: 10 });
    await loadCatalogue(moduleRef, regions.places, regions.records);
    results.push(...(await runRelevance(search, regions.queries)));
    return { results, fixture, springfield };
  } finally {
    await moduleRef.close();
  }
}

// The places into the gazetteer and the records as imagery (both replaced), the records linked.
async function loadCatalogue(moduleRef: TestingModule, places: PlaceRecord[], records: FixtureRecord[]): Promise<void> {
  await resetImagery();
  await moduleRef.get(PrismaService).$executeRawUnsafe('TRUNCATE places');
  const session = await moduleRef.get(PlaceRepository).openImportSession({ source: GAZETTEER_SOURCE, dryRun: false });
  try {
    await session.writeBatch(places);
  } finally {
    await session.close();
  }
  const summary = await importFixture(
    records.map((r) => feature(r.address, { id: r.id }, [r.lon, r.lat])),
    'relevance',
  );
  if (summary.rejected > 0) throw new Error(`relevance fixture: ${summary.rejected} records rejected`);
  await moduleRef.get(ImageryPlaceLinker).relinkAfterPlaceImport();
}
