import { PrismaClient } from '@prisma/client';
import { Client } from 'pg';
import { importSql, importTables } from '../../src/imagery/imagery-import.sql';
import {
  ImageryPlaceLinkRepository,
  RELINK_BATCH_SIZE,
} from '../../src/imagery/address-recovery/imagery-place-link.repository';
import { pinsOf } from '../../src/search/place-matching/place-ranking';
import { buildTextQuery } from '../../src/search/query/text-query';
import { SearchRepository } from '../../src/search/search.repository';
import { PrismaService } from '../../src/database/prisma.service';
import { dropPlacePlans, placePlanTools, PlacePlanDb, seedPlacePlans } from '../helpers/place-plans';
import { areaCountCap } from '../../src/search/paging/search-limits';
import { localizedNamesSql } from '../../src/search/sql/localized-names.sql';

// Statements of search around an address or a region, and of the imagery linker, EXPLAINed on 100,000
// places and 100,000 imagery records linked to them (test/helpers/place-plans.ts).
describe('place search query plans: addresses, regions and linking', () => {
  let prisma: PrismaClient;
  let service: PrismaService;
  let repo: SearchRepository;
  let rare: string; // a locality name a few places share
  let london: PlacePlanDb['london']; // the most important London's region
  const { page, plan, noSeqScan, searchPlan, named, shapeOf } = placePlanTools(() => ({
    prisma,
    service,
    repo,
    rare,
    london,
  }));

  beforeAll(async () => {
    ({ prisma, service, repo, rare, london } = await seedPlacePlans());
  }, 300_000); // 200,000 rows through their indexes: seconds on a server, longer on a busy one

  afterAll(() => dropPlacePlans({ prisma, service }));

  it('the best view of an address: its records by the place link, records facing it by the geography index', async () => {
    const [address] = await prisma.$queryRawUnsafe<Array<{ label: string }>>(
      `SELECT p.label FROM places p WHERE p.kind = 'address' AND EXISTS (SELECT 1 FROM imagery i WHERE i.place_id = p.id) ORDER BY p.id LIMIT 1`,
    );
    const query = buildTextQuery(address.label)!;
    const places = await named(query, null);
    // The address first, as the ranking has it when the address is what the query names.
    const best = places.find((p) => p.kind === 'address' && p.label === address.label)!;
    expect(best).toBeDefined();
    const pins = pinsOf([best, ...places.filter((p) => p !== best)])!;
    expect(pins.views).toHaveLength(1);
    for (const body of [{}, { region: london.countryCode }, { sort: 'newest' as const }]) {
      const text = await plan(
        SearchRepository.fullTextSql(
          query,
          page,
          searchPlan({ query: address.label, ...body }),
          await shapeOf(query),
          pins,
        ),
      );
      if (Object.keys(body).length === 0) {
        expect(text).toMatch(/imagery_place_id_idx/);
        expect(text).toMatch(/imagery_location_geog_idx/);
      }
      noSeqScan(text);
    }
  });

  it('a region with coordinates or a bbox: the geometry index, the region codes filter', async () => {
    const [at] = await prisma.$queryRawUnsafe<Array<{ lat: number; lon: number; cc: string; rc: string }>>(
      `SELECT ST_Y(location) AS lat, ST_X(location) AS lon, country_code AS cc, region_code AS rc FROM imagery WHERE locality_id IS NOT NULL ORDER BY id LIMIT 1`,
    );
    const point = `${at.lat.toFixed(5)}, ${at.lon.toFixed(5)}`;
    const bbox: [number, number, number, number] = [at.lon - 0.5, at.lat - 0.5, at.lon + 0.5, at.lat + 0.5];
    for (const region of [at.cc, at.rc]) {
      const statements = [
        SearchRepository.areaCountSql(searchPlan({ query: point, region }), areaCountCap(page)),
        SearchRepository.nearestPageSql(page, searchPlan({ query: point, region }), 10),
        SearchRepository.areaSql(page, searchPlan({ bbox, region, sort: 'newest' })),
      ];
      for (const sql of statements) {
        const text = await plan(sql);
        expect(text).toMatch(
          /imagery_location_idx|imagery_location_geog_idx|imagery_country_code_idx|imagery_region_code_idx/,
        );
        noSeqScan(text);
      }
    }
  });

  it('a region with text and no named place: the tsvector or the region index', async () => {
    for (const region of [london.countryCode, london.regionCode]) {
      const query = buildTextQuery('Street')!;
      const text = await plan(
        SearchRepository.fullTextSql(query, page, searchPlan({ query: 'Street', region }), await shapeOf(query)),
      );
      expect(text).toMatch(/imagery_country_code_idx|imagery_region_code_idx|imagery_address_tsv_idx/);
      noSeqScan(text);
    }
  });

  it('linking: nearest locality, address and street by the partial KNN indexes; relinking walks its partial index', async () => {
    const ids = (
      await prisma.$queryRawUnsafe<Array<{ id: string }>>(`SELECT id::text FROM imagery ORDER BY id LIMIT 500`)
    ).map((r) => r.id);
    const link = await plan(ImageryPlaceLinkRepository.linkIdsSql(ids));
    const relinkRecovered = await plan(ImageryPlaceLinkRepository.relinkBatchSql('recovered', null, RELINK_BATCH_SIZE));
    const relinkUnlinked = await plan(ImageryPlaceLinkRepository.relinkBatchSql('unlinked', ids[0], RELINK_BATCH_SIZE));
    for (const text of [link, relinkRecovered, relinkUnlinked]) {
      expect(text).toMatch(/Index Scan using places_locality_location_idx on places[\s\S]*Order By: \(location <-> /);
      expect(text).toMatch(/Index Scan using places_address_location_idx on places[\s\S]*Order By: \(location <-> /);
      expect(text).toMatch(
        /Index Scan using places_street_location_idx on places[\s\S]*Order By: \(COALESCE\(line, location\) <-> /,
      );
      noSeqScan(text);
    }
    expect(link).toMatch(/Index Scan using imagery_pkey on imagery/);
    expect(relinkRecovered).toMatch(/imagery_recovered_idx/);
    expect(relinkUnlinked).toMatch(/imagery_unlinked_idx/);
  });

  it('linking an import batch: stored rows by primary key, places by the partial KNN indexes', async () => {
    // As ImageryImportSession.writeBatch runs it: a staged batch (new records without an address, and
    // records already stored) in the import's temporary table, in one transaction.
    const tables = importTables();
    const sql = importSql(tables);
    const client = new Client({ connectionString: process.env.DATABASE_URL });
    await client.connect();
    try {
      await client.query('BEGIN');
      await client.query(sql.createStaging);
      await client.query(`
        INSERT INTO ${tables.staging} (id, address, address_origin, captured_at, heading, interactive, image_url, lon, lat)
        SELECT CASE WHEN n % 2 = 0 THEN id ELSE gen_random_uuid() END, CASE WHEN n % 2 = 0 THEN address END, 'own',
               captured_at, heading, interactive, image_url, ST_X(location), ST_Y(location)
        FROM (SELECT i.*, row_number() OVER (ORDER BY i.id) AS n FROM imagery i ORDER BY i.id LIMIT 5000) x`);
      await client.query(`ANALYZE ${tables.staging}`);
      const explain = async (text: string) =>
        (await client.query(`EXPLAIN ${text}`)).rows.map((r) => r['QUERY PLAN']).join('\n');
      const settle = await explain(sql.settle);
      expect(settle).toMatch(/Index Scan using imagery_pkey on imagery/);
      const link = await explain(sql.link);
      for (const [kind, shape] of [
        ['locality', 'location'],
        ['address', 'location'],
        ['street', 'COALESCE\\(line, location\\)'], // a street's line where it has one
      ]) {
        expect(link).toMatch(
          new RegExp(`Index Scan using places_${kind}_location_idx on places[\\s\\S]*Order By: \\(${shape} <-> `),
        );
      }
      for (const text of [settle, link]) noSeqScan(text);
    } finally {
      await client.query('ROLLBACK').catch(() => undefined);
      await client.end();
    }
  });

  it('the names by language of the places an answer shows: each part through its partial index of named places', async () => {
    // One place in a hundred of each kind named in German (the seed names none), as an import of
    // OpenStreetMap names its towns and a few streets; then ANALYZE, as autovacuum would.
    await prisma.$executeRawUnsafe(`UPDATE places SET names = jsonb_build_object('de', name || ' (de)')
      WHERE kind IN ('street', 'locality', 'region') AND abs(hashtext(id::text)) % 100 = 0`);
    await prisma.$executeRawUnsafe('ANALYZE places');
    try {
      const ids = await prisma.$queryRawUnsafe<Array<{ id: string }>>(
        `SELECT id::text FROM places WHERE kind = 'address' ORDER BY id LIMIT 20`,
      );
      const text = await plan(
        localizedNamesSql(
          ids.map((r) => r.id),
          ['de-ch', 'de'],
        ),
      );
      expect(text).toMatch(/(Index Scan using places_pkey on places p|Bitmap Index Scan on places_pkey)/);
      expect(text).toMatch(/Index Scan using places_named_streets_idx on places s[\s\S]*Order By: \(COALESCE\(/);
      expect(text).toMatch(/Index Scan using places_named_localities_idx on places l[\s\S]*Order By: \(location <-> /);
      expect(text).toMatch(/(Index|Bitmap Index) Scan (using|on) places_named_regions_idx/);
      noSeqScan(text);
    } finally {
      await prisma.$executeRawUnsafe('UPDATE places SET names = NULL WHERE names IS NOT NULL');
    }
  });
});
