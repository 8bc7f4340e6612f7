import { PrismaService } from '../../src/database/prisma.service';
import { MapDataRepository } from '../../src/map-data/map-data.repository';
import {
  COVERAGE_CELLS_PER_SIDE,
  COVERAGE_EVERY_IMAGE_ZOOM,
  LAYER_ROW_CAPS,
  TILE_BUFFER,
  TILE_EXTENT,
} from '../../src/tiles/tile-limits';
import { TilesRepository } from '../../src/tiles/tiles.repository';
import { resetImagery, testConfig } from '../helpers/test-app';
import { decodeTile } from '../helpers/vector-tiles';

// Coverage over a dense block: at zooms 15 and 16 a tile carries one image per grid cell (1/64 of its
// side), the cell's newest, however many images lie under it; from zoom 17 every image. The block is a
// square grid of images filling one zoom 16 tile, two images per cell side (four per cell), in EPSG:3857
// so that the cells they fall in are known here.
const WORLD = 40075016.685578488;
const ORIGIN = -20037508.342789244;
const Z16 = { x: 34501, y: 23013 }; // over Vaduz
const SIDE = COVERAGE_CELLS_PER_SIDE * 2; // images per side of the zoom 16 tile
const TILE16 = WORLD / 2 ** 16;
const STEP = TILE16 / SIDE;
// Image (i, j): column i from the tile's west edge, row j from its north edge, a quarter step in from
// the grid's lines so that no image lies on a cell's or a tile's edge.
const X0 = ORIGIN + Z16.x * TILE16;
const Y0 = -ORIGIN - Z16.y * TILE16;
const IMAGES = Array.from({ length: SIDE * SIDE }, (_, k) => {
  const i = k % SIDE;
  const j = Math.floor(k / SIDE);
  return { k, x: X0 + (i + 0.25) * STEP, y: Y0 - (j + 0.25) * STEP };
});

describe('map tiles: coverage over a dense block', () => {
  let prisma: PrismaService;
  let tiles: TilesRepository;
  const coverage = async (z: number, x: number, y: number) =>
    decodeTile(await tiles.tile({ z, x, y })).coverage?.features ?? [];

  beforeAll(async () => {
    await resetImagery();
    // 16,384 images in one statement: longer than a request's statement timeout.
    prisma = new PrismaService(testConfig({ dbStatementTimeoutMs: 120_000 }));
    await prisma.onModuleInit();
    tiles = new TilesRepository(prisma);
    // Image k is captured k days after 2020-01-01: a cell's newest is its image with the highest k. One
    // in seven has no heading (a photo that gave no direction).
    await prisma.$executeRawUnsafe(
      `INSERT INTO imagery (id, address, captured_at, heading, interactive, image_url, location)
       SELECT ('00000000-0000-4000-8000-' || lpad(k::text, 12, '0'))::uuid, 'Dense ' || k, DATE '2020-01-01' + k,
              CASE WHEN k % 7 <> 3 THEN k % 360 END, k % 5 = 0, 'https://img.test/' || k || '.jpg', ST_Transform(ST_SetSRID(ST_MakePoint(x, y), 3857), 4326)
       FROM jsonb_to_recordset($1::jsonb) AS p(k int, x float8, y float8)`,
      JSON.stringify(IMAGES),
    );
    await new MapDataRepository(prisma).refreshCoverage();
  }, 120_000);

  afterAll(async () => {
    await resetImagery();
    await new MapDataRepository(prisma).refreshCoverage();
    await prisma.onModuleDestroy();
  });

  it('carries one image per cell at zoom 16, the newest of its cell, with its attributes', async () => {
    const points = await coverage(16, Z16.x, Z16.y);
    expect(points).toHaveLength(COVERAGE_CELLS_PER_SIDE ** 2);
    expect(points.length).toBeLessThanOrEqual(LAYER_ROW_CAPS.coverageCells);
    // Cell (ci, cj) holds images (2ci..2ci+1, 2cj..2cj+1); its newest is (2ci+1, 2cj+1).
    const newest = new Set<number>();
    for (let cj = 0; cj < SIDE / 2; cj++)
      for (let ci = 0; ci < SIDE / 2; ci++) newest.add((2 * cj + 1) * SIDE + 2 * ci + 1);
    expect(new Set(points.map((f) => Number(String(f.properties.id).slice(-12))))).toEqual(newest);
    const one = points.find((f) => f.properties.id === '00000000-0000-4000-8000-000000000385');
    // image 385 = (1, 3): 2020-01-01 + 385 days, heading 25, a 360 image (385 % 5 = 0)
    expect(one).toMatchObject({ type: 1, properties: { heading: 25, interactive: true, date: '2021-01-20' } });
    // image 129 = (1, 1), 129 % 7 = 3: no heading, so its point has none (the map draws no view arrow).
    const headingless = points.find((f) => f.properties.id === '00000000-0000-4000-8000-000000000129');
    expect(headingless).toMatchObject({ type: 1, properties: { interactive: false, date: '2020-05-09' } });
    expect(headingless!.properties).not.toHaveProperty('heading');
    expect(points.every((f) => !('count' in f.properties))).toBe(true);
  });

  it('carries one image per cell at zoom 15 as well: a quarter of its cells hold the block', async () => {
    const points = await coverage(15, Z16.x >> 1, Z16.y >> 1);
    expect(points).toHaveLength((COVERAGE_CELLS_PER_SIDE / 2) ** 2);
    // Its cells are four of zoom 16's (4 x 4 images): the newest, (4ci+3, 4cj+3), is the newest of the
    // newest of those four.
    const newest = new Set<number>();
    for (let cj = 0; cj < SIDE / 4; cj++)
      for (let ci = 0; ci < SIDE / 4; ci++) newest.add((4 * cj + 3) * SIDE + 4 * ci + 3);
    expect(new Set(points.map((f) => Number(String(f.properties.id).slice(-12))))).toEqual(newest);
  });

  it(`shows every image from zoom ${COVERAGE_EVERY_IMAGE_ZOOM}, the tile's own and its buffer's`, async () => {
    expect(COVERAGE_EVERY_IMAGE_ZOOM).toBe(17);
    const [x, y] = [Z16.x * 2, Z16.y * 2]; // the block's north-west quarter
    const size = TILE16 / 2;
    const margin = (size * TILE_BUFFER) / TILE_EXTENT;
    const [west, north] = [ORIGIN + x * size, -ORIGIN - y * size];
    const inBox = IMAGES.filter(
      (p) =>
        p.x >= west - margin && p.x <= west + size + margin && p.y <= north + margin && p.y >= north - size - margin,
    );
    expect(inBox.length).toBeGreaterThan((SIDE * SIDE) / 4);
    expect(inBox.length).toBeLessThanOrEqual(LAYER_ROW_CAPS.coverageImages);
    const points = await coverage(17, x, y);
    expect(points.map((f) => Number(String(f.properties.id).slice(-12))).sort((a, b) => a - b)).toEqual(
      inBox.map((p) => p.k).sort((a, b) => a - b),
    );
  });

  it('counts every image of the block in the cells below zoom 15', async () => {
    const cells = await coverage(14, Z16.x >> 2, Z16.y >> 2);
    expect(cells.reduce((sum, f) => sum + (f.properties.count as number), 0)).toBe(IMAGES.length);
  });
});
