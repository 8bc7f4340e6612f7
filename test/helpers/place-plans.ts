import { Prisma, PrismaClient } from '@prisma/client';
import { PrismaService } from '../../src/database/prisma.service';
import { allCountries, allRegions } from '../../src/places/regions';
import { PlaceMatchingRepository } from '../../src/search/place-matching/place-matching.repository';
import { PlaceCandidate, pinsOf, rankPlaces, RankedPlace } from '../../src/search/place-matching/place-ranking';
import { SearchRequestDto } from '../../src/search/dto/search-request.dto';
import { buildTextQuery, TextQuery } from '../../src/search/query/text-query';
import { SearchRepository } from '../../src/search/search.repository';
import { PlacePins } from '../../src/search/sql/place-pins.sql';
import { shapeTextQuery, TextQueryShape } from '../../src/search/planning/index-choice';
import { GazetteerSize, generateGazetteer, generateLinkedImagery, withIndexesRebuilt } from './generated-gazetteer';
import { resetPlaces } from './places';
import { explain, explainAnalyzed, searchPlan } from './query-plans';
import { prismaClient, resetImagery, testConfig } from './test-app';

// The catalogue the place search plan specs EXPLAIN on: 100,000 places and 100,000 imagery records linked
// to them (test/helpers/generated-gazetteer.ts), enough that the planner prefers an index whenever one fits.

export const PLACES = 100_000;
const others = allCountries().length + allRegions().length;
const SIZE: GazetteerSize = {
  localities: 30_000,
  postcodes: 5_000,
  streets: 25_000,
  pois: 2_000,
  addresses: PLACES - 62_000 - others,
  imagery: 100_000,
};

export interface PlacePlanDb {
  prisma: PrismaClient;
  service: PrismaService;
  repo: SearchRepository;
  /** A locality name a few places share. */
  rare: string;
  /** The most important London's region. */
  london: { regionCode: string; countryCode: string };
}

/** Seeds and analyses the catalogue; 200,000 rows through their indexes take a while on a busy machine. */
export async function seedPlacePlans(): Promise<PlacePlanDb> {
  await resetImagery();
  await resetPlaces();
  const prisma = prismaClient();
  await withIndexesRebuilt(prisma, ['places', 'imagery'], async () => {
    await generateGazetteer(prisma, SIZE);
    await generateLinkedImagery(prisma, SIZE);
  });
  await prisma.$executeRawUnsafe('ANALYZE places');
  await prisma.$executeRawUnsafe('ANALYZE imagery');
  const [{ rare }] = await prisma.$queryRawUnsafe<Array<{ rare: string }>>(
    `SELECT name AS rare FROM places WHERE kind = 'locality' AND name ~ '^[A-Za-z]+$' GROUP BY name HAVING count(*) BETWEEN 3 AND 8 ORDER BY name LIMIT 1`,
  );
  const [london] = await prisma.$queryRawUnsafe<Array<PlacePlanDb['london']>>(
    `SELECT region_code AS "regionCode", country_code AS "countryCode" FROM places WHERE kind = 'locality' AND name = 'London' ORDER BY importance DESC LIMIT 1`,
  );
  const service = new PrismaService(testConfig());
  const repo = new SearchRepository(service);
  return { prisma, service, repo, rare, london };
}

export async function dropPlacePlans(db: Partial<PlacePlanDb>): Promise<void> {
  await db.service?.onModuleDestroy();
  await resetImagery();
  await resetPlaces();
  await db.prisma?.$disconnect();
}

/** The statements the plan specs check, built as the search service builds them; `db` is read on each call. */
export function placePlanTools(db: () => PlacePlanDb) {
  const page = { limit: 10, offset: 0 };

  const plan = (sql: Prisma.Sql): Promise<string> => explain(db().prisma, sql);

  const noSeqScan = (text: string) => expect(text).not.toMatch(/Seq Scan on (places|imagery) /);

  // As the search service finds them: full text, ranked (see PlaceMatcherService).
  async function named(query: TextQuery, region: string | null): Promise<RankedPlace[]> {
    return rankPlaces(
      query,
      await db().service.rawQuery<PlaceCandidate>(PlaceMatchingRepository.placeCandidatesSql(query, region)),
    );
  }

  async function shapeOf(query: TextQuery): Promise<TextQueryShape> {
    return shapeTextQuery(query, await db().repo.vocabulary(), 10_000);
  }

  // The statement searchFullText sends for a query, with the pins of the places it names.
  async function textSearch(
    q: string,
    body: Partial<SearchRequestDto> = {},
    window = page,
  ): Promise<{ sql: Prisma.Sql; pins: PlacePins }> {
    const query = buildTextQuery(q)!;
    const pins = pinsOf(await named(query, body.region?.toUpperCase() ?? null));
    expect(pins).not.toBeNull();
    return {
      sql: SearchRepository.fullTextSql(query, window, searchPlan({ query: q, ...body }), await shapeOf(query), pins),
      pins: pins!,
    };
  }

  // Scans an EXPLAIN ANALYZE ran (node type, and the table or index), in plan order.
  async function executedScans(sql: Prisma.Sql): Promise<string[]> {
    return (await explainAnalyzed(db().prisma, sql))
      .filter((n) => /Scan/.test(n.type) && n.executed)
      .map((n) => `${n.type} ${n.on}`);
  }

  return { page, plan, noSeqScan, searchPlan, named, shapeOf, textSearch, executedScans };
}
