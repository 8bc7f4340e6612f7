import { Client } from 'pg';
import { PrismaService } from '../../src/database/prisma.service';
import { MapDataRepository } from '../../src/map-data/map-data.repository';
import { TilesRepository } from '../../src/tiles/tiles.repository';
import { createTestReadonlyRole, dropTestReadonlyRole } from '../helpers/readonly-role';
import { resetImagery, testConfig } from '../helpers/test-app';
import { decodeTile } from '../helpers/vector-tiles';
import { currentKind } from '../setup/test-database';

// The full coverage refresh (lis_refresh_coverage, after a first load or a large import) builds the cells
// in a table of their own and swaps it in: what that must keep is checked here (the cells themselves by
// tile-coverage.spec.ts and map-tiles.spec.ts, the indexes tiles read by tile-plans.spec.ts, the
// incremental refresh after other imports by coverage-refresh-incremental.spec.ts).
const LON = 9.52;
const LAT = 47.14;
const serverOnly = currentKind() === 'server' ? it : it.skip;

describe('coverage refresh', () => {
  let prisma: PrismaService;
  let owner: Client;
  let tiles: TilesRepository;
  let mapData: MapDataRepository;
  let added = 0;

  // n images 3 m apart in rows of 100, about 230 m wide, after those added before.
  const addImages = async (n: number) => {
    await owner.query(
      `INSERT INTO imagery (id, address, captured_at, heading, interactive, image_url, location)
       SELECT gen_random_uuid(), 'Cov ' || g, DATE '2020-01-01' + g % 900, g % 360, g % 4 = 0, 'https://img.test/' || g || '.jpg',
              ST_SetSRID(ST_MakePoint($3 + (g % 100) * 0.00003, $4 + (g / 100) * 0.00003), 4326)
       FROM generate_series($1::int, $1::int + $2::int - 1) g`,
      [added, n, LON, LAT],
    );
    added += n;
  };
  // Every image in the world tile's counts: what a map sees of the coverage.
  const imagesCounted = async () =>
    (decodeTile(await tiles.tile({ z: 0, x: 0, y: 0 })).coverage?.features ?? []).reduce(
      (sum, f) => sum + (f.properties.count as number),
      0,
    );
  const version = async () => Number((await owner.query('SELECT version FROM map_data_version')).rows[0].version);
  const size = async () =>
    Number(
      (await owner.query("SELECT sum(pg_total_relation_size(relid)) AS n FROM pg_partition_tree('coverage_cells')"))
        .rows[0].n,
    );

  beforeAll(async () => {
    await resetImagery();
    prisma = new PrismaService(testConfig({ dbStatementTimeoutMs: 120_000 }));
    await prisma.onModuleInit();
    tiles = new TilesRepository(prisma);
    mapData = new MapDataRepository(prisma);
    owner = new Client({ connectionString: process.env.DATABASE_URL });
    await owner.connect();
    await addImages(10_000);
    await mapData.refreshCoverage();
  }, 120_000);

  afterAll(async () => {
    await resetImagery();
    await mapData.refreshCoverage();
    await owner.end();
    await prisma.onModuleDestroy();
  });

  it('leaves no dead rows: a second refresh of the same images leaves the cells and their indexes the same size', async () => {
    const first = await size();
    const cells = await mapData.rebuildCoverage();
    expect(cells).toBe(Number((await owner.query('SELECT count(*) AS n FROM coverage_cells')).rows[0].n));
    // Deleting the old cells and inserting the new ones into the same table doubled it until a vacuum.
    expect(await size()).toBeLessThanOrEqual(first * 1.05);
    expect(await imagesCounted()).toBe(added);
  });

  it('keeps the partitions of the cells and their indexes by their names, and no table of its own behind', async () => {
    const indexes = async () =>
      (
        await owner.query(
          `SELECT indexdef FROM pg_indexes
           WHERE tablename IN (SELECT relid::regclass::text FROM pg_partition_tree('coverage_cells')) ORDER BY indexname`,
        )
      ).rows;
    const before = await indexes();
    expect(before).toHaveLength(17);
    await mapData.rebuildCoverage();
    expect(await indexes()).toEqual(before);
    expect((await owner.query("SELECT to_regclass('coverage_cells_next') AS t")).rows[0].t).toBeNull();
  });

  serverOnly('a read-only role reads the cells after a refresh as before it', async () => {
    const { role, url } = await createTestReadonlyRole();
    const reader = new Client({ connectionString: url });
    await reader.connect();
    try {
      await mapData.rebuildCoverage();
      const { rows } = await reader.query('SELECT sum(count)::int AS n FROM coverage_cells WHERE zoom = 0');
      expect(rows[0].n).toBe(added);
    } finally {
      await reader.end();
      await dropTestReadonlyRole(role);
    }
  });

  serverOnly('a refresh that fails leaves the old cells and the old data version', async () => {
    const [images, v] = [added, await version()];
    await addImages(500);
    // A reader in an open transaction holds the cells: the swap waits for it, and gives up after 300 ms.
    const reader = new Client({ connectionString: process.env.DATABASE_URL });
    const refresher = new Client({ connectionString: process.env.DATABASE_URL });
    await Promise.all([reader.connect(), refresher.connect()]);
    try {
      await reader.query('BEGIN');
      await reader.query('SELECT count(*) FROM coverage_cells');
      await refresher.query("SET lock_timeout = '300ms'");
      await expect(refresher.query('SELECT lis_refresh_coverage()')).rejects.toMatchObject({ code: '55P03' });
      await reader.query('COMMIT');
      expect(await imagesCounted()).toBe(images);
      expect(await version()).toBe(v);
      expect((await owner.query("SELECT to_regclass('coverage_cells_next') AS t")).rows[0].t).toBeNull();
      await refresher.query('SELECT lis_refresh_coverage()');
      expect(await imagesCounted()).toBe(added);
      expect(await version()).toBe(v + 1);
    } finally {
      await Promise.all([reader.end(), refresher.end()]);
    }
  });

  it('tiles drawn while the cells are refreshed show the old coverage or the new, then the new', async () => {
    const old = await imagesCounted(); // the tile's statement prepared on the pool's connections
    await addImages(5_000);
    const state = { done: false };
    const refresh = mapData.rebuildCoverage().finally(() => (state.done = true));
    const seen: number[] = [];
    while (!state.done) seen.push(...(await Promise.all([imagesCounted(), imagesCounted()])));
    await refresh;
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.filter((n) => n !== old && n !== added)).toEqual([]);
    expect(await Promise.all([imagesCounted(), imagesCounted(), imagesCounted()])).toEqual([added, added, added]);
  });
});
