import { PrismaClient } from '@prisma/client';
import { categoryImagerySql, CategoryArea } from '../../src/search/sql/category-search.sql';
import { ADDRESS_TOWN_CAP, addressTownSql } from '../../src/search/sql/place-candidates.sql';
import { buildTextQuery } from '../../src/search/query/text-query';
import { explainAnalyzed, searchPlan, seedPlanCatalogue } from '../helpers/query-plans';
import { prismaClient, resetImagery } from '../helpers/test-app';

// The category search ("bar in Triesenberg", "hotel", "pharmacy near 47.14,9.52") reads its pois
// through the partial GiST index of pois in the circle (around a point; the named town's own and the
// others in two such reads) or the category btree (anywhere), and each poi's records through the
// imagery's geography index; no table is read whole; a town only addresses name is found through the
// places' full-text index. On 40,000 imagery records and 40,000 places,
// a tenth of them cafes in two towns.
const SOURCE = 'category-plans-test';
const CENTRE = { lon: 9.48, lat: 47.04 };

describe('category search query plans', () => {
  let prisma: PrismaClient;
  const run = (area: CategoryArea) =>
    explainAnalyzed(prisma, categoryImagerySql(['amenity=cafe'], area, { limit: 20, offset: 0 }, searchPlan({})));

  beforeAll(async () => {
    await resetImagery();
    prisma = prismaClient();
    await seedPlanCatalogue(prisma, 40_000);
    await prisma.$executeRawUnsafe(`
      INSERT INTO places (id, kind, name, label, location, source, source_id, importance, category, locality)
      SELECT gen_random_uuid(), CASE WHEN s % 10 = 0 THEN 'poi' ELSE 'address' END, 'p' || s,
             'p' || s || CASE WHEN s % 200 < 100 THEN ', Westdorf' ELSE ', Ostdorf' END,
             ST_SetSRID(ST_MakePoint(9.4 + (s % 200) / 1000.0, 47.0 + (s / 200) / 700.0), 4326),
             '${SOURCE}', 'n' || s, (s % 97) / 100.0, CASE WHEN s % 10 = 0 THEN 'amenity=cafe' END,
             CASE WHEN s % 200 < 100 THEN 'Westdorf' ELSE 'Ostdorf' END
      FROM generate_series(1, 40000) s`);
    await prisma.$executeRawUnsafe('ANALYZE places');
  }, 300_000);

  afterAll(async () => {
    await prisma.$executeRawUnsafe(`DELETE FROM places WHERE source = '${SOURCE}'`);
    await resetImagery();
    await prisma.$disconnect();
  });

  const scans = (nodes: Awaited<ReturnType<typeof run>>, table: string) =>
    nodes.filter((n) => n.executed && (n.on === table || n.on.startsWith(`${table}_`))).map((n) => `${n.type} ${n.on}`);

  it("around a town: its own pois and the others, each read through the pois' GiST index", async () => {
    const nodes = await run({ around: { ...CENTRE, radiusM: 3_000 }, country: null, town: 'Westdorf' });
    expect(nodes.filter((n) => n.executed && n.type === 'Seq Scan').map((n) => n.on)).toEqual([]);
    expect(scans(nodes, 'places').filter((s) => s.endsWith(' places_category_location_idx'))).toHaveLength(2);
    expect(scans(nodes, 'imagery').filter((s) => !/ imagery_(location_geog_idx|pkey)$/.test(s))).toEqual([]);
  });

  it('a town only addresses name: its places found through the full-text index, at most ADDRESS_TOWN_CAP', async () => {
    const sql = addressTownSql(buildTextQuery('Westdorf')!, null);
    const nodes = await explainAnalyzed(prisma, sql);
    expect(nodes.filter((n) => n.executed && n.type === 'Seq Scan').map((n) => n.on)).toEqual([]);
    expect(scans(nodes, 'places')).toContain('Bitmap Index Scan places_search_tsv_idx');
    const [town] = await prisma.$queryRaw<Array<{ name: string; places: number; lon: number }>>(sql);
    expect(town).toMatchObject({ name: 'Westdorf', places: ADDRESS_TOWN_CAP });
    expect(town.lon).toBeLessThan(9.5);
  });

  it('around a point and anywhere: one read of the pois, no table read whole', async () => {
    for (const area of [
      { around: { ...CENTRE, radiusM: 3_000 }, country: null },
      { around: null, country: null },
    ] satisfies CategoryArea[]) {
      const nodes = await run(area);
      expect(nodes.filter((n) => n.executed && n.type === 'Seq Scan').map((n) => n.on)).toEqual([]);
      const pois = area.around ? 'places_category_location_idx' : 'places_category_idx';
      expect(scans(nodes, 'places').filter((s) => s.endsWith(` ${pois}`))).toHaveLength(1);
    }
  });
});
