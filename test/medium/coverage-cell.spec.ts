import { Client } from 'pg';

// The coverage grid's cell of a point has one home, lis_coverage_cell (migration
// 20261211100000_coverage_cell_of_a_point), and the centre a low-zoom cell is drawn at another,
// lis_coverage_cell_centre. They must give what the arithmetic the coverage functions wrote out before
// gave, bit for bit, and stay as fast: inlined into the statements that call them.
const WORLD = '40075016.685578488::float8';
const ORIGIN = '(-20037508.342789244)::float8';
// The cell size at zoom g.z, as the coverage functions wrote it (world / (2 ^ z * 64)).
const SIZE = `(${WORLD} / (2 ^ g.z * 64))`;

// Points (x, y in EPSG:3857) at every zoom g.z 0..16: spread over the world and a margin beyond it, on
// cell lines of that zoom, a few units in the last place, a nanometre or a micrometre either side (where
// another way to write the arithmetic rounds differently), at the world's corners and edges
// (the antimeridian), projected from longitudes and latitudes (±180 and the grid's north and south
// included), and the centres of the cells of the zoom above (what zooms 0 to 13 are summed from).
const POINTS = `
  WITH g AS (SELECT z FROM generate_series(0, 16) z),
  spread AS (SELECT n, (n * 2654435761 % 4294967296) / 4294967296.0 AS a, (n * 2246822519 % 4294967296) / 4294967296.0 AS b
             FROM generate_series(1, 6000) n),
  line AS (SELECT g.z, ${ORIGIN} + k * ${SIZE} AS x, -${ORIGIN} - k * ${SIZE} AS y
           FROM g, LATERAL (SELECT DISTINCT n * 7919 % ((1 << (g.z + 6)) + 1) AS k FROM generate_series(0, 300) n) ks)
  SELECT g.z, (-2.1e7 + s.a * 4.2e7)::float8 AS x, (-2.1e7 + s.b * 4.2e7)::float8 AS y FROM g, spread s
  UNION ALL
  SELECT z, x + d, y - d FROM line, unnest(ARRAY[-1e-6, -1e-9, 1e-9, 1e-6]::float8[]) d
  UNION ALL
  SELECT z, x + m * greatest(abs(x), 1) * 2 ^ -52, y + m * greatest(abs(y), 1) * 2 ^ -52 FROM line, generate_series(-3, 3) m
  UNION ALL
  SELECT g.z, x, y FROM g, unnest(ARRAY[-20037508.342789244, 0, 20037508.342789244]::float8[]) x,
                           unnest(ARRAY[-20037508.342789244, 0, 20037508.342789244]::float8[]) y
  UNION ALL
  SELECT g.z, ST_X(p), ST_Y(p) FROM g, LATERAL (
    SELECT ST_Transform(ST_SetSRID(ST_MakePoint(lon, lat), 4326), 3857) AS p
    FROM unnest(ARRAY[-180, -179.999999, -90, -0.000001, 0, 9.52, 179.999999, 180]::float8[]) lon,
         unnest(ARRAY[-85.0511287798066, -85, -47.14, 0, 47.14, 85, 85.0511287798066]::float8[]) lat) l
  UNION ALL
  SELECT g.z, ST_X(p), ST_Y(p) FROM g, LATERAL (
    SELECT lis_coverage_cell_centre(g.z + 1, n * 7919 % (1 << (g.z + 7)), n * 104729 % (1 << (g.z + 7))) AS p
    FROM generate_series(1, 300) n) c WHERE g.z < 16`;

describe('the coverage cell of a point (lis_coverage_cell)', () => {
  let client: Client;
  const q = async <T>(sql: string) => (await client.query(sql)).rows as T[];

  beforeAll(async () => {
    client = new Client({ connectionString: process.env.DATABASE_URL });
    await client.connect();
  });
  afterAll(async () => client.end());

  it('is the column and row the coverage functions computed, for every point at every zoom', async () => {
    const [r] = await q<{ points: number; differ: number; columns: number[] }>(`
      WITH p AS (${POINTS}), c AS (
        SELECT g.z, x, y, lis_coverage_cell(g.z, x, y) AS cell,
               floor((x - ${ORIGIN}) / ${SIZE})::int AS cx, floor((-${ORIGIN} - y) / ${SIZE})::int AS cy
        FROM p g)
      SELECT count(*)::int AS points, count(*) FILTER (WHERE cell IS DISTINCT FROM (cx, cy)::lis_coverage_cell_xy)::int AS differ,
             ARRAY[min(cx), max(cx)] AS columns
      FROM c`);
    expect(r.differ).toBe(0);
    expect(r.points).toBeGreaterThan(120_000);
    // Beyond the world's edges too (negative columns, and columns past the last).
    expect(r.columns[0]).toBeLessThan(0);
    expect(r.columns[1]).toBeGreaterThan(2 ** 22);
  });

  it('puts a cell in the cell of the zoom below holding it: column and row halved, on the lines too', async () => {
    const [r] = await q<{ points: number; differ: number }>(`
      WITH p AS (${POINTS})
      SELECT count(*)::int AS points, count(*) FILTER (WHERE lis_coverage_cell(g.z, x, y) IS DISTINCT FROM
               (((lis_coverage_cell(g.z + 1, x, y)).cx >> 1), ((lis_coverage_cell(g.z + 1, x, y)).cy >> 1))::lis_coverage_cell_xy)::int AS differ
      FROM p g WHERE g.z < 16`);
    expect(r).toEqual({ points: expect.any(Number), differ: 0 });
    expect(r.points).toBeGreaterThan(110_000);
  });

  // The low zooms snapped each point to the grid's centres (ST_SnapToGrid, in lis_update_coverage_low; the
  // same rounding in lis_coverage_low_zooms). A point on a line went to either neighbour (rint rounds half to
  // even), not always the one holding its cell of the zoom above; everywhere else, the same centre.
  it('has its centre where snapping the point to the grid put it, for every point off the cell lines', async () => {
    const [r] = await q<{ points: number; differ: number }>(`
      WITH p AS (${POINTS}), c AS (
        SELECT g.z, x, y, lis_coverage_cell(g.z, x, y) AS cell,
               ST_SnapToGrid(ST_Point(x, y, 3857), ${ORIGIN} + ${SIZE} / 2, ${ORIGIN} + ${SIZE} / 2, ${SIZE}, ${SIZE}) AS snapped,
               abs((x - ${ORIGIN}) / ${SIZE} - round((x - ${ORIGIN}) / ${SIZE})) * ${SIZE} AS from_column_line,
               abs((y - ${ORIGIN}) / ${SIZE} - round((y - ${ORIGIN}) / ${SIZE})) * ${SIZE} AS from_row_line
        FROM p g)
      SELECT count(*)::int AS points,
             count(*) FILTER (WHERE (ST_X(snapped), ST_Y(snapped)) IS DISTINCT FROM
               (ST_X(lis_coverage_cell_centre(z, (cell).cx, (cell).cy)), ST_Y(lis_coverage_cell_centre(z, (cell).cx, (cell).cy))))::int AS differ
      FROM c WHERE least(from_column_line, from_row_line) > 1e-5`);
    expect(r.differ).toBe(0);
    expect(r.points).toBeGreaterThan(100_000);
  });

  it('is inlined into the statement that calls it, as the arithmetic written out was', async () => {
    const plan = async (sql: string) =>
      (await q<{ 'QUERY PLAN': string }>(`EXPLAIN VERBOSE ${sql}`)).map((r) => r['QUERY PLAN']).join('\n');
    const cells = await plan(
      `SELECT (lis_coverage_cell(16, ST_X(p), ST_Y(p))).*, id FROM (SELECT ST_Transform(location, 3857) AS p, id FROM imagery) q`,
    );
    expect(cells).toContain('floor(');
    expect(cells).not.toContain('lis_coverage_cell');
    const centres = await plan(
      `SELECT lis_coverage_cell_centre(zoom, x, y) FROM (VALUES (3, 1, 2), (14, 5, 6)) v(zoom, x, y)`,
    );
    expect(centres).toContain('st_point(');
    expect(centres).not.toContain('lis_coverage_cell_centre');
  });
});
