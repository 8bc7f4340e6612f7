import { randomUUID } from 'node:crypto';
import { PrismaService } from '../../src/database/prisma.service';
import { MapDataRepository } from '../../src/map-data/map-data.repository';
import { encodeTile } from '../../src/tiles/tile-encoding';
import { SEQUENCE_MAX_ZOOM, SEQUENCE_MIN_ZOOM } from '../../src/tiles/tile-limits';
import { TilesRepository } from '../../src/tiles/tiles.repository';
import { photoDetails } from '../helpers/photo-details';
import { feature, importFixture, resetImagery, testConfig } from '../helpers/test-app';
import { decodeTile, DecodedFeature, tileOf } from '../helpers/vector-tiles';
import { currentKind } from '../setup/test-database';

// The `sequences` layer: one line per sequence of photos, its images in capture order, with its newest
// date, at zooms SEQUENCE_MIN_ZOOM to SEQUENCE_MAX_ZOOM only; kept in coverage_sequences by the
// coverage refresh after every import, the sequences touched only where the refresh is incremental.
const LON = 9.52;
const LAT = 47.14;
const STEP = 0.0003; // degrees between a sequence's images: about 23 m east, 33 m north

interface Shot {
  index: number;
  lon: number;
  lat: number;
  date: string;
}
// A sequence's images as the photo import writes them: one record per photo, its place in the sequence.
const records = (sequenceId: string, shots: Shot[], interactive = false) =>
  shots.map((s) =>
    feature(
      `Sequence ${sequenceId.slice(0, 4)} ${s.index}`,
      {
        captured_at: s.date,
        interactive,
        photo: photoDetails({ sequenceId, sequenceIndex: s.index, capturedTime: `${s.date}T10:00:00+02:00` }),
      },
      [s.lon, s.lat],
    ),
  );

const EAST = randomUUID(); // five images eastwards, the newest in the middle
const NORTH = randomUUID(); // four 360 images northwards
const SINGLE = randomUUID(); // one image: no line
// Each zigzags (a straight run's middle vertices are dropped by ST_AsMVTGeom as redundant).
const east: Shot[] = [0, 1, 2, 3, 4].map((i) => ({
  index: i,
  lon: LON + i * STEP,
  lat: LAT + (i % 2) * STEP,
  date: ['2021-03-01', '2021-03-02', '2023-07-09', '2021-03-04', '2021-03-05'][i],
}));
const north: Shot[] = [0, 1, 2, 3].map((i) => ({
  index: i,
  lon: LON - 0.002 + (i % 2) * STEP,
  lat: LAT + i * STEP,
  date: '2019-05-0' + (i + 1),
}));

describe('map tiles: sequences as lines', () => {
  let prisma: PrismaService;
  let tiles: TilesRepository;
  const at = (z: number) => tileOf(LON, LAT, z);
  const sequences = async (z: number) => decodeTile(await tiles.tile(at(z))).sequences?.features ?? [];
  const line = (features: DecodedFeature[], id: string) => features.find((f) => f.properties.id === id);
  const q = <T>(sql: string) => prisma.$queryRawUnsafe<T[]>(sql);
  const lines = async () =>
    (
      await q<{ md5: string }>(`SELECT md5(string_agg(s::text, ';' ORDER BY s::text)) AS md5 FROM coverage_sequences s`)
    )[0].md5;
  const version = async () => (await q<{ v: number }>('SELECT version::int AS v FROM map_data_version'))[0].v;
  // The incremental refresh (as after an import; every tile's ETag changes), then the full rebuild: both
  // leave the same lines.
  const refreshed = async () => {
    const before = await version();
    const [r] = await q<{ rebuilt: boolean }>('SELECT rebuilt FROM lis_update_coverage(1e9)');
    if (currentKind() === 'server') expect(r.rebuilt).toBe(false);
    expect(await version()).toBe(before + 1);
    const incremental = await lines();
    await q('SELECT lis_refresh_coverage()');
    expect(await lines()).toBe(incremental);
  };

  beforeAll(async () => {
    await resetImagery();
    prisma = new PrismaService(testConfig());
    await prisma.onModuleInit();
    tiles = new TilesRepository(prisma);
    // Imported out of capture order: the line follows sequence_index, not the order of the records.
    const imported = await importFixture([
      ...records(EAST, [...east].reverse()),
      ...records(NORTH, north, true),
      ...records(SINGLE, [{ index: 0, lon: LON + 0.001, lat: LAT - 0.001, date: '2024-01-01' }]),
    ]);
    expect(imported.rejected).toBe(0);
    await new MapDataRepository(prisma).refreshCoverage();
  }, 120_000);

  afterAll(async () => {
    await resetImagery();
    await new MapDataRepository(prisma).refreshCoverage();
    await prisma.onModuleDestroy();
  });

  it('draws one line per sequence of two images or more, in capture order, with its newest date', async () => {
    const features = await sequences(14);
    expect(features.map((f) => f.properties.id).sort()).toEqual([EAST, NORTH].sort());
    expect(line(features, EAST)).toMatchObject({
      type: 2,
      properties: { date: '2023-07-09', interactive: false, count: 5 },
    });
    expect(line(features, NORTH)).toMatchObject({
      type: 2,
      properties: { date: '2019-05-04', interactive: true, count: 4 },
    });
    // Eastwards: x grows from the first image to the last; northwards: y (down the tile) shrinks.
    const xs = line(features, EAST)!.points.map((p) => p.x);
    expect(xs).toHaveLength(5);
    expect([...xs].sort((a, b) => a - b)).toEqual(xs);
    const ys = line(features, NORTH)!.points.map((p) => p.y);
    expect(ys).toHaveLength(4);
    expect([...ys].sort((a, b) => b - a)).toEqual(ys);
  });

  it(`is drawn at zooms ${SEQUENCE_MIN_ZOOM} to ${SEQUENCE_MAX_ZOOM} only`, async () => {
    expect([SEQUENCE_MIN_ZOOM, SEQUENCE_MAX_ZOOM]).toEqual([12, 16]);
    for (const z of [SEQUENCE_MIN_ZOOM, 15, SEQUENCE_MAX_ZOOM])
      expect({ z, ids: (await sequences(z)).map((f) => f.properties.id).includes(EAST) }).toEqual({ z, ids: true });
    for (const z of [SEQUENCE_MIN_ZOOM - 1, SEQUENCE_MAX_ZOOM + 1])
      expect({ z, layer: decodeTile(await tiles.tile(at(z))).sequences }).toEqual({ z, layer: undefined });
  });

  it('comes out the same from the features a database without ST_AsMVT returns (tile-encoding.ts)', async () => {
    const ours = decodeTile(encodeTile(await tiles.tileFeatures(at(14)))).sequences?.features ?? [];
    expect(line(ours, EAST)).toMatchObject({ type: 2, properties: { date: '2023-07-09', count: 5 } });
    expect(line(ours, NORTH)).toMatchObject({ type: 2, properties: { interactive: true, count: 4 } });
    if (currentKind() === 'server') {
      const theirs = await sequences(14);
      for (const id of [EAST, NORTH]) {
        const [a, b] = [line(ours, id)!.points, line(theirs, id)!.points];
        expect(a).toHaveLength(b.length);
        a.forEach((p, k) => expect(Math.abs(p.x - b[k].x) + Math.abs(p.y - b[k].y)).toBeLessThanOrEqual(2));
      }
    }
  });

  // The import refreshes the coverage itself (a catalogue this small is rebuilt whole).
  it('follows another import: an image added to a sequence, a newer date, a new sequence', async () => {
    const more = randomUUID();
    const added: Shot = { index: 5, lon: LON + 5 * STEP, lat: LAT + STEP, date: '2025-02-02' };
    await importFixture([
      ...records(EAST, [added]),
      ...records(
        more,
        [0, 1].map((i) => ({ index: i, lon: LON + i * STEP, lat: LAT - (i + 1) * STEP, date: '2022-02-02' })),
      ),
    ]);
    const features = await sequences(14);
    expect(line(features, EAST)).toMatchObject({ properties: { date: '2025-02-02', count: 6 } });
    expect(line(features, EAST)!.points).toHaveLength(6);
    expect(line(features, more)).toMatchObject({ properties: { count: 2 } });
  });

  it('follows deletions: a record gone with its photo, or without it, and a sequence emptied', async () => {
    const ids = async (where: string) =>
      (await q<{ id: string }>(`SELECT p.id::text AS id FROM photos p WHERE ${where}`)).map((r) => r.id);
    const [newest] = await ids(`p.sequence_id = '${EAST}' AND p.sequence_index = 2`);
    // Deleted from imagery only (a write by hand): found through the line it lay on.
    await q(`DELETE FROM imagery WHERE id = '${newest}'`);
    const northIds = await ids(`p.sequence_id = '${NORTH}'`);
    await q(`DELETE FROM imagery WHERE id IN (${northIds.map((id) => `'${id}'`).join(', ')})`);
    await q(`DELETE FROM photos WHERE id IN (${northIds.map((id) => `'${id}'`).join(', ')})`);
    await refreshed();
    const features = await sequences(14);
    expect(line(features, NORTH)).toBeUndefined();
    expect(line(features, EAST)).toMatchObject({ properties: { date: '2025-02-02', count: 5 } });
  });

  it('follows a move, a re-dated image, a record written back and a sequence cut anew (photos only)', async () => {
    const [first] = await q<{ id: string }>(
      `SELECT p.id::text AS id FROM photos p WHERE p.sequence_id = '${EAST}' AND p.sequence_index = 0`,
    );
    await q(`UPDATE imagery SET captured_at = DATE '2026-06-06' WHERE id = '${first.id}'`);
    await refreshed();
    expect(line(await sequences(14), EAST)).toMatchObject({ properties: { date: '2026-06-06' } });
    // The first image moved west: the line's first vertex with it.
    const before = line(await sequences(14), EAST)!.points[0].x;
    await q(
      `UPDATE imagery SET location = ST_SetSRID(ST_MakePoint(${LON - STEP}, ${LAT}), 4326) WHERE id = '${first.id}'`,
    );
    await refreshed();
    const moved = line(await sequences(14), EAST)!.points[0].x;
    expect(moved).toBeLessThan(before);
    // The record deleted by hand and written back, its photo left as it was: the line drops its first
    // vertex, then finds it again through the image at the location touched (outside the old line).
    const [gone] = await q<{ row: string }>(
      `DELETE FROM imagery i WHERE id = '${first.id}' RETURNING to_jsonb(i)::text AS row`,
    );
    await refreshed();
    expect(line(await sequences(14), EAST)!.points).toHaveLength(4);
    await prisma.$executeRawUnsafe(
      `INSERT INTO imagery (id, address, captured_at, heading, interactive, image_url, location)
         SELECT id, address, captured_at, heading, interactive, image_url, location
         FROM jsonb_populate_record(NULL::imagery, $1::jsonb)`,
      gone.row,
    );
    await refreshed();
    expect(line(await sequences(14), EAST)!.points.map((p) => p.x)).toEqual(expect.arrayContaining([moved]));
    expect(line(await sequences(14), EAST)!.points).toHaveLength(5);
    // A re-import cutting the sequence anew changes only photos: the line is under its new id.
    const renamed = randomUUID();
    await q(`UPDATE photos SET sequence_id = '${renamed}' WHERE sequence_id = '${EAST}'`);
    await refreshed();
    const features = await sequences(14);
    expect(line(features, EAST)).toBeUndefined();
    expect(line(features, renamed)).toMatchObject({ properties: { count: 5 } });
  });
});
