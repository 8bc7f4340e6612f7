import { Client } from 'pg';
import { Importer, importerTools, startImporter } from '../helpers/imagery-importer';
import { feature, resetImagery } from '../helpers/test-app';
import { currentKind } from '../setup/test-database';

const LON = 9.52;
const LAT = 47.14;
const serverOnly = currentKind() === 'server' ? it : it.skip;

// The refresh after an import (lis_update_coverage) recomputes only the cells of the locations touched
// since the last one: after each kind of change its cells must be the full rebuild's, row for row.
describe('incremental coverage refresh', () => {
  let owner: Client;
  let importer: Importer;
  const tools = importerTools(() => importer);
  const q = async <T = Record<string, unknown>>(sql: string, params: unknown[] = []) =>
    (await owner.query(sql, params)).rows as T[];
  const touched = async () => Number((await q<{ n: string }>('SELECT count(*) AS n FROM coverage_touched'))[0].n);
  const version = async () => Number((await q<{ v: string }>('SELECT version AS v FROM map_data_version'))[0].v);
  // Every row of every zoom, in one digest (the geometries as their EWKB).
  const cells = async () =>
    (
      await q<{ n: number; md5: string }>(
        "SELECT count(*)::int AS n, md5(string_agg(c::text, ';' ORDER BY c::text)) AS md5 FROM coverage_cells c",
      )
    )[0];
  // A point at (dx, dy) metres (EPSG:3857) from the corner of zoom z's grid cells nearest (lon, lat):
  // the corner of a zoom z cell is a cell corner at every zoom above, and at z = 4 a zoom 10 tile's.
  const nearCorner = async (lon: number, lat: number, z: number, dx: number, dy: number) =>
    (
      await q<{ lon: number; lat: number }>(
        `SELECT ST_X(p) AS lon, ST_Y(p) AS lat FROM (SELECT ST_Transform(ST_SetSRID(ST_MakePoint(
         -20037508.342789244 + round((ST_X(c) + 20037508.342789244) / s) * s + $4,
         20037508.342789244 - round((20037508.342789244 - ST_Y(c)) / s) * s + $5), 3857), 4326) AS p
       FROM (SELECT ST_Transform(ST_SetSRID(ST_MakePoint($1, $2), 4326), 3857) AS c,
                    40075016.685578488 / (2 ^ $3::int * 64) AS s) a) b`,
        [lon, lat, z, dx, dy],
      )
    )[0];
  const insert = async (points: Array<{ lon: number; lat: number }>, date = '2021-01-01') => {
    for (const [i, p] of points.entries())
      await owner.query(
        `INSERT INTO imagery (id, address, captured_at, heading, interactive, image_url, location)
         VALUES (gen_random_uuid(), 'Edge ' || $3, $4::date + $3::int, $3::int * 7 % 360, false, 'https://img.test/e.jpg',
                 ST_SetSRID(ST_MakePoint($1, $2), 4326))`,
        [p.lon, p.lat, i, date],
      );
  };
  // Recomputes what was touched, then checks it against a full rebuild (which the next step starts from).
  const oid = async () => (await q<{ oid: number }>("SELECT 'coverage_cells'::regclass::oid AS oid"))[0].oid;
  const refreshedAsRebuilt = async () => {
    const [before, table] = [await version(), await oid()];
    const [r] = await q<{ rebuilt: boolean; cells: number }>(
      'SELECT rebuilt, cells::int AS cells FROM lis_update_coverage(1e9)',
    );
    expect(r.rebuilt).toBe(false);
    expect(await oid()).toBe(table); // written in place, not swapped
    expect(await touched()).toBe(0);
    expect(await version()).toBe(before + 1);
    const incremental = await cells();
    await q('SELECT lis_refresh_coverage()');
    expect(incremental).toEqual(await cells());
    return r.cells;
  };

  beforeAll(async () => {
    importer = await startImporter();
    owner = new Client({ connectionString: process.env.DATABASE_URL });
    await owner.connect();
    await owner.query(
      `INSERT INTO imagery (id, address, captured_at, heading, interactive, image_url, location)
       SELECT gen_random_uuid(), 'Grid ' || g, DATE '2020-01-01' + g % 700, g % 360, g % 3 = 0, 'https://img.test/g.jpg',
              ST_SetSRID(ST_MakePoint($1 + (g % 60) * 0.00004, $2 + (g / 60) * 0.00004), 4326)
       FROM generate_series(0, 2999) g`,
      [LON, LAT],
    );
    const [r] = await q<{ rebuilt: boolean }>('SELECT rebuilt FROM lis_update_coverage()'); // after the TRUNCATE
    expect(r.rebuilt).toBe(true);
  }, 120_000);

  afterAll(async () => {
    await resetImagery();
    await q('SELECT lis_update_coverage()');
    await owner.end();
    await importer.moduleRef.close();
    await importer.prisma.$disconnect();
    tools.removeFiles();
  });

  // The built-in database rebuilds every cell instead (see lis_update_coverage).
  serverOnly(
    'after inserts, moves across cell and tile edges, re-dated images and deletions, holds the full rebuild’s cells',
    async () => {
      // Inserts on both sides of cell corners (zoom 16 in the grid, zoom 4: a zoom 10 tile's corner), and far away.
      const corners = [];
      for (const [z, lon, lat] of [
        [16, LON + 0.001, LAT + 0.001],
        [4, LON, LAT],
      ] as const)
        for (const d of [-1e-6, 0, 1e-6, -0.5, 0.5])
          corners.push(await nearCorner(lon, lat, z, d, -d), await nearCorner(lon, lat, z, d, d));
      await insert([...corners, { lon: -70.1, lat: -33.4 }]);
      expect(await touched()).toBe(corners.length + 1);
      expect(await refreshedAsRebuilt()).toBeGreaterThan(0);
      // Moves: each corner image to the other side of its corner, and grid images by a cell or two.
      await q(`UPDATE imagery SET location = ST_Transform(ST_Translate(ST_Transform(location, 3857), 1.0, -1.0), 4326)
             WHERE address LIKE 'Edge %'`);
      await q(`UPDATE imagery SET location = ST_Translate(location, 0.0002, -0.0001) WHERE address LIKE 'Grid %5'`);
      expect(await refreshedAsRebuilt()).toBeGreaterThan(0);
      // Re-dated: the oldest image of some cells becomes their newest, and a newest one their oldest.
      await q(`UPDATE imagery SET captured_at = DATE '2025-01-01' WHERE address LIKE 'Grid %7'`);
      await q(`UPDATE imagery SET captured_at = DATE '2001-01-01' WHERE address LIKE 'Grid %3'`);
      expect(await refreshedAsRebuilt()).toBeGreaterThan(0);
      // Deletions: cells emptied, at every zoom for the image far away.
      await q(
        `DELETE FROM imagery WHERE address LIKE 'Grid 1%' OR location && ST_MakeEnvelope(-71, -34, -69, -33, 4326)`,
      );
      expect(await refreshedAsRebuilt()).toBeGreaterThan(0);
      expect((await q<{ n: number }>('SELECT count(*)::int AS n FROM coverage_cells WHERE ST_X(geom) < 0'))[0].n).toBe(
        0,
      );
    },
  );

  it('refreshes nothing after writes that change nothing the cells hold', async () => {
    const [before, v] = [await cells(), await version()];
    await q(`UPDATE imagery SET address = address || ' ' WHERE address LIKE 'Grid 2%'`);
    expect(await touched()).toBe(0);
    expect(await q('SELECT rebuilt, cells::int AS cells FROM lis_update_coverage()')).toEqual([
      { rebuilt: false, cells: 0 },
    ]);
    expect([await cells(), await version()]).toEqual([before, v]);
  });

  it('an import refreshes what it wrote and what --delete-missing deleted, and nothing when it changed nothing', async () => {
    const all = Array.from({ length: 12 }, (_, i) => feature(`Imported ${i}`, {}, [LON + i * 0.00013, LAT - 0.0005]));
    const file = tools.write('all.ndjson', all.map((f) => JSON.stringify(f)).join('\n'));
    const trimmed = tools.write(
      'trimmed.ndjson',
      all
        .slice(0, 7)
        .map((f) => JSON.stringify(f))
        .join('\n'),
    );
    expect(await tools.importFile(file, { source: 'cov' })).toMatchObject({ inserted: 12 });
    expect(await touched()).toBe(0);
    const imported = await cells();
    await q('SELECT lis_refresh_coverage()');
    expect(await cells()).toEqual(imported);

    const v = await version();
    expect(await tools.importFile(file, { source: 'cov' })).toMatchObject({ inserted: 0, updated: 0, unchanged: 12 });
    expect([await touched(), await version(), await cells()]).toEqual([0, v, imported]);

    expect(await tools.importFile(trimmed, { source: 'cov', deleteMissing: true })).toMatchObject({ deleted: 5 });
    expect(await touched()).toBe(0);
    expect(await version()).toBe(v + 1);
    const afterDeletion = await cells();
    expect(afterDeletion).not.toEqual(imported);
    await q('SELECT lis_refresh_coverage()');
    expect(await cells()).toEqual(afterDeletion);
  });

  serverOnly('rebuilds every cell instead when it touched more cells than its share of the catalogue', async () => {
    const [{ n }] = await q<{ n: number }>('SELECT sum(count)::int AS n FROM coverage_cells WHERE zoom = 0');
    const share = 1.5 / n; // 1 cell touched: recomputed; 2: rebuilt
    await insert([
      { lon: LON + 0.01, lat: LAT },
      { lon: LON + 0.02, lat: LAT },
    ]);
    expect(await q('SELECT rebuilt FROM lis_update_coverage($1)', [share])).toEqual([{ rebuilt: true }]);
    await insert([{ lon: LON + 0.03, lat: LAT }]);
    expect(await q('SELECT rebuilt FROM lis_update_coverage($1)', [share])).toEqual([{ rebuilt: false }]);
    expect(await touched()).toBe(0);
  });

  it('notes a first load as one row asking for a full rebuild, not its every record', async () => {
    await q("INSERT INTO imagery_first_load (indexes) VALUES ('{}')"); // as lis_begin_first_load leaves it
    try {
      await insert([
        { lon: LON + 0.04, lat: LAT },
        { lon: LON + 0.05, lat: LAT },
      ]);
      // One row per statement (two here), none with a location.
      expect(await q('SELECT location FROM coverage_touched')).toEqual([{ location: null }, { location: null }]);
    } finally {
      await q('DELETE FROM imagery_first_load');
    }
    expect(await q('SELECT rebuilt FROM lis_update_coverage()')).toEqual([{ rebuilt: true }]);
  });

  serverOnly('leaves what a write not yet committed touched for the next refresh', async () => {
    const writer = new Client({ connectionString: process.env.DATABASE_URL });
    await writer.connect();
    try {
      await writer.query('BEGIN');
      await writer.query(
        `INSERT INTO imagery (id, address, captured_at, heading, interactive, image_url, location)
         VALUES (gen_random_uuid(), 'Late', DATE '2026-01-01', 0, false, 'https://img.test/l.jpg',
                 ST_SetSRID(ST_MakePoint($1, $2), 4326))`,
        [LON + 0.0001, LAT + 0.0001],
      );
      await insert([{ lon: LON + 0.06, lat: LAT }]);
      await refreshedAsRebuilt(); // the committed image only
      await writer.query('COMMIT');
      expect(await touched()).toBe(1);
      expect(await refreshedAsRebuilt()).toBeGreaterThan(0);
    } finally {
      await writer.end();
    }
  });
});
