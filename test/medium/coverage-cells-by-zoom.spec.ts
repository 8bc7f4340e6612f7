import { PrismaClient } from '@prisma/client';
import { Client } from 'pg';
import { databaseTrouble } from '../../src/common/database-errors';
import { PrismaService } from '../../src/database/prisma.service';
import { MapDataRepository } from '../../src/map-data/map-data.repository';
import { tileSql } from '../../src/tiles/tiles.sql';
import { explain } from '../helpers/query-plans';
import { prismaClient, resetImagery, testConfig } from '../helpers/test-app';
import { currentKind } from '../setup/test-database';
import { tileOf } from '../helpers/vector-tiles';

// The coverage cells are one partition per zoom (migration 20261208100000), and the full rebuild sums
// the zooms below 15 by their whole-number grid column and row: each of their cells sums the cells it holds
// of the zoom above, at its centre, and a tile must read its zoom's partition only, through that
// partition's index.
const LON = 9.52;
const LAT = 47.14;
const WORLD = 40075016.685578488;
const ORIGIN = -20037508.342789244;
// The built-in database has no other session to end a backend from.
const serverOnly = currentKind() === 'server' ? it : it.skip;

describe('coverage cells by zoom', () => {
  let prisma: PrismaClient;
  const q = <T>(sql: string) => prisma.$queryRawUnsafe<T[]>(sql);

  beforeAll(async () => {
    await resetImagery();
    prisma = prismaClient();
    // Images over the whole world, a dense block, and points on the cell borders of the low zooms.
    await prisma.$executeRawUnsafe(`
      INSERT INTO imagery (id, address, captured_at, heading, interactive, image_url, location)
      SELECT gen_random_uuid(), 'Zoom ' || g, DATE '2020-01-01' + g % 700, g % 360, g % 3 = 0, 'https://img.test/z.jpg', p
      FROM generate_series(1, 6000) g
      CROSS JOIN LATERAL (SELECT CASE
        WHEN g % 3 = 0 THEN ST_SetSRID(ST_MakePoint(-179.9 + (g * 7919 % 35980) / 100.0, -84.9 + (g * 104729 % 16980) / 100.0), 4326)
        WHEN g % 3 = 1 THEN ST_SetSRID(ST_MakePoint(${LON} + (g % 60) * 0.00004, ${LAT} + (g / 60) * 0.00004), 4326)
        ELSE ST_Transform(ST_SetSRID(ST_MakePoint(${ORIGIN} + (g % 64) * ${WORLD} / 64 + (g % 5 - 2) * 0.001,
                                                  ${ORIGIN} + (g / 64 % 64) * ${WORLD} / 64 + (g % 7 - 3) * 0.001), 3857), 4326)
        END AS p) l`);
    await q('SELECT lis_refresh_coverage()');
  }, 120_000);

  afterAll(async () => {
    await resetImagery();
    await q('SELECT lis_refresh_coverage()');
    await prisma.$disconnect();
  });

  it('gives zooms 14..0 the sums of the cells each holds of the zoom above, drawn at its centre, and every image in each zoom', async () => {
    // Zoom 14 from the zoom 15 cells, by the column and row of the cell holding each one's point (floor(),
    // as zooms 16 and 15 are made); each lower zoom from the one above, its column and row halved.
    const size = (z: number) => `(${WORLD} / (2 ^ ${z} * 64))`;
    const levels = [
      `SELECT 14 AS zoom, floor((ST_X(geom) - ${ORIGIN}) / ${size(14)})::int AS cx,
              floor((${-ORIGIN} - ST_Y(geom)) / ${size(14)})::int AS cy, sum(count) AS count
       FROM coverage_cells WHERE zoom = 15 GROUP BY 2, 3`,
    ];
    for (let z = 13; z >= 0; z--)
      levels.push(`SELECT ${z} AS zoom, floor(cx / 2.0)::int AS cx, floor(cy / 2.0)::int AS cy, sum(count) AS count
                   FROM z${z + 1} GROUP BY 2, 3`);
    // The built cells by the column and row their point is in, and whether that point is the centre of its
    // cell: where snapping it to the grid's centres leaves it.
    const [diff] = await q<{ missing: number; extra: number; cells: number; offCentre: number }>(`
      WITH ${levels.map((l, i) => `z${14 - i} AS (${l})`).join(', ')},
      reference AS (${levels.map((_, i) => `SELECT zoom, cx, cy, count::int FROM z${14 - i}`).join(' UNION ALL ')}),
      built AS (SELECT zoom::int, floor((ST_X(geom) - ${ORIGIN}) / (${WORLD} / (2 ^ zoom * 64)))::int AS cx,
                       floor((${-ORIGIN} - ST_Y(geom)) / (${WORLD} / (2 ^ zoom * 64)))::int AS cy, count,
                       ST_AsEWKB(geom) = ST_AsEWKB(ST_SnapToGrid(geom, ${ORIGIN} + ${WORLD} / (2 ^ zoom * 64) / 2,
                         ${ORIGIN} + ${WORLD} / (2 ^ zoom * 64) / 2, ${WORLD} / (2 ^ zoom * 64), ${WORLD} / (2 ^ zoom * 64))) AS centred
                FROM coverage_cells WHERE zoom < 15)
      SELECT (SELECT count(*)::int FROM (TABLE reference EXCEPT SELECT zoom, cx, cy, count FROM built) d) AS missing,
             (SELECT count(*)::int FROM (SELECT zoom, cx, cy, count FROM built EXCEPT TABLE reference) d) AS extra,
             (SELECT count(*)::int FROM built) AS cells,
             (SELECT count(*)::int FROM built WHERE NOT centred) AS "offCentre"`);
    expect(diff).toEqual({ missing: 0, extra: 0, cells: expect.any(Number), offCentre: 0 });
    expect(diff.cells).toBeGreaterThan(4000);
    const perZoom = await q<{ n: number }>(
      'SELECT sum(count)::int AS n FROM coverage_cells GROUP BY zoom ORDER BY zoom',
    );
    expect(perZoom.map((r) => r.n)).toEqual(Array(17).fill(6000));
  });

  it('gives zooms 16 and 15 each grid cell of its own images, counted, with the newest of them', async () => {
    // Each zoom's cells straight from the images, by floor() of the projected point at that zoom (the
    // rebuild takes zoom 15 from zoom 16's column and row halved).
    const reference = (z: number) => `
      SELECT DISTINCT ON (cy, cx) ${z} AS zoom, ST_AsEWKB(p) AS g, count(*) OVER (PARTITION BY cy, cx)::int AS count,
             id AS image_id, heading, interactive, captured_at
      FROM (SELECT floor((ST_X(p) - ${ORIGIN}) / (${WORLD} / (2 ^ ${z} * 64)))::int AS cx,
                   floor((${-ORIGIN} - ST_Y(p)) / (${WORLD} / (2 ^ ${z} * 64)))::int AS cy, q.*
            FROM (SELECT ST_Transform(location, 3857) AS p, id, heading, interactive, captured_at FROM imagery) q) i
      ORDER BY cy, cx, captured_at DESC, id`;
    const [diff] = await q<{ missing: number; extra: number; cells: number }>(`
      WITH reference AS ((${reference(16)}) UNION ALL (${reference(15)})),
      built AS (SELECT zoom::int, ST_AsEWKB(geom) AS g, count, image_id, heading, interactive, captured_at
                FROM coverage_cells WHERE zoom >= 15)
      SELECT (SELECT count(*)::int FROM (TABLE reference EXCEPT ALL TABLE built) d) AS missing,
             (SELECT count(*)::int FROM (TABLE built EXCEPT ALL TABLE reference) d) AS extra,
             (SELECT count(*)::int FROM built) AS cells`);
    expect(diff).toEqual({ missing: 0, extra: 0, cells: expect.any(Number) });
    expect(diff.cells).toBeGreaterThan(4000);
  });

  it('keeps each zoom in its own partition', async () => {
    const rows = await q<{ part: string; zooms: number[] }>(
      `SELECT tableoid::regclass::text AS part, array_agg(DISTINCT zoom::int) AS zooms FROM coverage_cells GROUP BY 1 ORDER BY 1`,
    );
    expect(rows).toHaveLength(17);
    for (const r of rows) expect(r.part).toBe(`coverage_cells_z${r.zooms[0]}`);
    expect(rows.every((r) => r.zooms.length === 1)).toBe(true);
  });

  // The rebuild swaps 17 new partitions in, in one transaction: a session ended between building them and
  // dropping the live table (held there by a reader's lock) answers unavailable and leaves every cell.
  serverOnly('a rebuild whose session is ended mid-swap is unavailable and leaves the cells as they were', async () => {
    const cells = () =>
      q<{ digest: string }>(
        `SELECT md5(string_agg(zoom || ST_AsText(geom) || count || coalesce(image_id::text, ''), ',' ORDER BY zoom, ST_AsText(geom))) AS digest FROM coverage_cells`,
      );
    const before = await cells();
    const reader = new Client({ connectionString: process.env.DATABASE_URL });
    const service = new PrismaService(testConfig());
    await reader.connect();
    try {
      await reader.query('BEGIN');
      await reader.query('SELECT 1 FROM coverage_cells LIMIT 1');
      const rebuilt = new MapDataRepository(service).rebuildCoverage().then(
        () => new Error('the rebuild finished'),
        (error: unknown) => error,
      );
      let ended = 0;
      for (let i = 0; i < 400 && !ended; i++) {
        await new Promise((r) => setTimeout(r, 25));
        // Waiting for the live table's lock: the new partitions and their indexes are built.
        const waiting = await q<{ ended: boolean }>(
          `SELECT pg_terminate_backend(a.pid) AS ended FROM pg_stat_activity a JOIN pg_locks l ON l.pid = a.pid
           WHERE NOT l.granted AND l.relation = 'coverage_cells'::regclass AND a.query LIKE '%lis_refresh_coverage%'`,
        );
        ended = waiting.length;
      }
      expect(ended).toBe(1);
      expect(databaseTrouble(await rebuilt)).toBe('unavailable');
    } finally {
      await reader.query('ROLLBACK');
      await reader.end();
      await service.onModuleDestroy();
    }
    expect(await cells()).toEqual(before);
    expect(await q(`SELECT to_regclass('coverage_cells_next')::text AS left`)).toEqual([{ left: null }]);
    await q('SELECT lis_refresh_coverage()');
    expect(await cells()).toEqual(before);
  });

  it.each([3, 14, 16])('a zoom %i tile reads its zoom partition only, through its index', async (z) => {
    const text = await explain(prisma, tileSql(tileOf(LON, LAT, z)));
    expect(text).toContain(`coverage_cells_z${z}_idx`);
    const partitions = [...text.matchAll(/ on (coverage_cells\w*)/g)]
      .map((m) => m[1])
      .filter((n) => !n.endsWith('_idx'));
    expect(new Set(partitions)).toEqual(new Set([`coverage_cells_z${z}`]));
  });
});
