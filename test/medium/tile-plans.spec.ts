import { PrismaClient } from '@prisma/client';
import { tileSql } from '../../src/tiles/tiles.sql';
import { explain, seedPlanCatalogue } from '../helpers/query-plans';
import { prismaClient, resetImagery } from '../helpers/test-app';
import { tileOf } from '../helpers/vector-tiles';

// A tile's statement reads every layer through a GiST index on the tile's box: the simplified copy's
// partial index below zoom 12, the zoom's own coverage cells up to 16 (at 15 and 16 one image per cell), the images from 17, and the
// labels without the addresses around them, and the sequences' lines from zoom 12 to 16. Checked on a catalogue large enough that the planner
// prefers an index whenever one fits.
const LON = 9.52;
const LAT = 47.14;
const SOURCE = 'tile-plans-test';

describe('tile query plans', () => {
  let prisma: PrismaClient;
  const plan = (z: number) => explain(prisma, tileSql(tileOf(LON, LAT, z)));

  beforeAll(async () => {
    await resetImagery();
    prisma = prismaClient();
    await seedPlanCatalogue(prisma, 50_000);
    // 40,000 map features on a grid over the catalogue's area: buildings, streets and some large areas.
    await prisma.$executeRawUnsafe(`
      INSERT INTO map_features (source, layer, class, name, min_zoom, geom, geom_low)
      SELECT '${SOURCE}', l.layer, l.class, NULL, l.min_zoom, g.geom, CASE WHEN l.min_zoom < 12 THEN g.geom END
      FROM generate_series(1, 40000) s
      CROSS JOIN LATERAL (SELECT CASE WHEN s % 10 = 0 THEN 'streets' ELSE 'buildings' END AS layer,
                                 CASE WHEN s % 10 = 0 THEN 'residential' ELSE 'building' END AS class,
                                 CASE WHEN s % 1000 = 0 THEN 8 WHEN s % 10 = 0 THEN 12 ELSE 14 END AS min_zoom) l
      CROSS JOIN LATERAL (SELECT ST_Transform(ST_Buffer(ST_SetSRID(ST_MakePoint(9.4 + (s % 200) / 1000.0, 47.0 + (s / 200) / 700.0), 4326), 0.00005, 2), 3857) AS geom) g`);
    await prisma.$executeRawUnsafe(`
      INSERT INTO places (id, kind, name, label, location, source, source_id, importance, category)
      SELECT gen_random_uuid(), CASE WHEN s % 100 = 0 THEN 'locality' WHEN s % 10 = 0 THEN 'poi' ELSE 'address' END,
             'p' || s, 'p' || s, ST_SetSRID(ST_MakePoint(9.4 + (s % 200) / 1000.0, 47.0 + (s / 200) / 700.0), 4326),
             '${SOURCE}', 'n' || s, 0.1, CASE WHEN s % 100 <> 0 AND s % 10 = 0 THEN 'amenity=cafe' END
      FROM generate_series(1, 40000) s`);
    // The images in sequences of 20 along the catalogue's rows (photos rows as the photo import writes).
    await prisma.$executeRawUnsafe(`
      INSERT INTO photos (id, content_hash, bytes, captured_time, offset_origin, width, height, projection,
                          heading_origin, position_origin, sequence_id, sequence_index)
      SELECT i.id, encode(sha256(i.id::text::bytea), 'hex'), 1000, i.captured_at || 'T10:00:00Z', 'exif', 1600, 1200,
             'perspective', 'exif', 'exif', md5('sequence ' || i.n / 20)::uuid, i.n % 20
      FROM (SELECT id, captured_at, row_number() OVER (ORDER BY ST_Y(location), ST_X(location)) AS n FROM imagery) i`);
    await prisma.$queryRawUnsafe('SELECT lis_refresh_coverage()');
    await prisma.$executeRawUnsafe('ANALYZE coverage_sequences');
    await prisma.$executeRawUnsafe('ANALYZE map_features');
    await prisma.$executeRawUnsafe('ANALYZE places');
    await prisma.$executeRawUnsafe('ANALYZE imagery');
  }, 300_000);

  afterAll(async () => {
    await prisma.$executeRawUnsafe(`DELETE FROM map_features WHERE source = '${SOURCE}'`);
    await prisma.$executeRawUnsafe(`DELETE FROM places WHERE source = '${SOURCE}'`);
    await resetImagery();
    await prisma.$queryRawUnsafe('SELECT lis_refresh_coverage()');
    await prisma.$disconnect();
  });

  // The built-in database plans the statement as well (it fails only when run: no ST_AsMVT there).
  const seqScans = (text: string) =>
    text.match(/Seq Scan on (map_features|imagery|places|coverage_cells|coverage_sequences)\b/g) ?? [];

  it('zoom 8: the simplified copy, the zoom 8 cells and the labels, each through its index', async () => {
    const text = await plan(8);
    expect(text).toContain('map_features_low_geom_idx');
    // The zoom's own partition only: its few cells here are read whole (at a real catalogue's zoom 8
    // through its index, as at 14 and 16; coverage-cells-by-zoom.spec.ts).
    expect(text).toMatch(/ on coverage_cells_z8 /);
    expect(text).not.toMatch(/ on coverage_cells_z(?!8[ _])/);
    expect(text).toContain('places_label_location_idx');
    expect(text).not.toMatch(/imagery_location_idx|map_features_geom_idx|coverage_sequences/);
    expect(seqScans(text)).toEqual([]);
  });

  it('zoom 14: the full geometry, the zoom 14 cells, the pois through the category index, the sequences', async () => {
    const text = await plan(14);
    expect(text).toContain('map_features_geom_idx');
    expect(text).toContain('coverage_cells_z14_idx');
    expect(text).toContain('places_category_location_idx');
    expect(text).toContain('coverage_sequences_geom_idx');
    expect(seqScans(text)).toEqual([]);
  });

  it('zoom 16: one image per cell through the zoom 16 cells, not the images; the sequences through theirs', async () => {
    const text = await plan(16);
    expect(text).toContain('coverage_cells_z16_idx');
    expect(text).toContain('coverage_sequences_geom_idx');
    expect(text).not.toMatch(/imagery_location_idx|coverage_cells_z(?!16_)\d+_idx/);
    expect(seqScans(text)).toEqual([]);
  });

  it('zoom 17: one point per image through the imagery location index', async () => {
    const text = await plan(17);
    expect(text).toContain('imagery_location_idx');
    expect(text).not.toMatch(/coverage_cells_z\d+_idx|coverage_sequences/);
    expect(seqScans(text)).toEqual([]);
  });
});
