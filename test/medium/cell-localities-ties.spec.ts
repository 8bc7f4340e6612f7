import { randomUUID } from 'node:crypto';
import { Prisma, PrismaClient } from '@prisma/client';
import {
  cellLocalitiesCtes,
  LOCALITY_WIDE_CELL_CANDIDATES,
} from '../../src/imagery/address-recovery/cell-localities.sql';
import { KNN_CANDIDATES, placeLinksSql } from '../../src/imagery/address-recovery/imagery-place-link.repository';
import { seededRandom } from '../../src/common/deterministic-random';
import { resetPlaces } from '../helpers/places';
import { prismaClient } from '../helpers/test-app';

// The rule, row by row and without an index: of the KNN_CANDIDATES localities nearest by planar
// distance (ties by id), the nearest on the sphere (ties by id).
const RULE = `(SELECT c.id FROM (
    SELECT p.id, p.location FROM places p WHERE p.kind = 'locality'
    ORDER BY ST_Distance(p.location, r.location), p.id LIMIT ${KNN_CANDIDATES}
  ) c ORDER BY ST_DistanceSphere(c.location, r.location), c.id LIMIT 1)`;

// Cells whose rows are linked together (cell-localities.sql.ts) against the rule: many rows of one small
// cell whose nearest localities tie in planar distance (a lattice of localities in binary fractions of a
// degree, rows on its points, edges and squares' centres), rows alone in their small cells that share
// a large one (localities sparse), and rows of a large cell with too many candidates (their own lookups).
describe('nearest locality by grid cell: ties, large cells', () => {
  let prisma: PrismaClient;
  const rand = seededRandom(20261209);
  const step = 2 ** -9; // degrees; sums and differences of these are exact
  const lons: number[] = [];
  const lats: number[] = [];
  const kinds: string[] = [];

  beforeAll(async () => {
    prisma = prismaClient();
    await resetPlaces();
    const points: Array<[number, number]> = [];
    for (let i = -3; i <= 8; i++) for (let j = -3; j <= 8; j++) points.push([100.5 + i * step, 10.5 + j * step]);
    for (let i = 0; i < 30; i++) points.push([104 + 4 * rand(), 14 + 4 * rand()]); // sparse
    for (let i = 0; i < LOCALITY_WIDE_CELL_CANDIDATES + 40; i++) points.push([120 + rand(), 12 + rand()]); // dense
    await prisma.$executeRaw`
      INSERT INTO places (id, kind, name, label, location, source, source_id)
      SELECT gen_random_uuid(), 'locality', 'Town ' || n, 'Town ' || n, ST_SetSRID(ST_MakePoint(x, y), 4326), 'ties', n::text
      FROM unnest(${points.map((p) => p[0])}::float8[], ${points.map((p) => p[1])}::float8[]) WITH ORDINALITY AS t(x, y, n)`;
    await prisma.$executeRawUnsafe('ANALYZE places');
    const add = (kind: string, x: number, y: number) => {
      lons.push(x);
      lats.push(y);
      kinds.push(kind);
    };
    // One small cell (100.50 to 100.51, 10.50 to 10.51): lattice points, edge midpoints, square centres.
    for (let i = 0; i < 5; i++)
      for (let j = 0; j < 5; j++)
        for (const [dx, dy] of [
          [0, 0],
          [0.5, 0],
          [0, 0.5],
          [0.5, 0.5],
        ])
          add('tie', 100.5 + (i + dx) * step, 10.5 + (j + dy) * step);
    // Ten to each of 16 large cells (1 degree), each alone in its small cell.
    for (let c = 0; c < 160; c++) add('sparse', 104 + (c % 4) + rand(), 14 + (Math.floor(c / 4) % 4) + rand());
    for (let i = 0; i < 20; i++) add('dense', 120 + rand(), 12 + rand());
  });

  afterAll(async () => {
    await resetPlaces();
    await prisma.$disconnect();
  });

  const rowsSql = (
    ids: string[],
  ) => Prisma.sql`SELECT t.id, ST_SetSRID(ST_MakePoint(t.x, t.y), 4326) AS location, false AS recover
    FROM unnest(${ids}::uuid[], ${lons}::float8[], ${lats}::float8[]) AS t(id, x, y)`;

  it('links every row to the locality the rule gives, ties included', async () => {
    const ids = lons.map(() => randomUUID());
    const linked = new Map(
      (
        await prisma.$queryRaw<
          Array<{ id: string; locality_id: string }>
        >`SELECT l.id, l.locality_id FROM (${placeLinksSql(rowsSql(ids))}) l`
      ).map((r) => [r.id, r.locality_id]),
    );
    const rule = await prisma.$queryRaw<Array<{ id: string; locality_id: string }>>`
      SELECT r.id, ${Prisma.raw(RULE)} AS locality_id FROM (${rowsSql(ids)}) r`;
    expect(linked.size).toBe(lons.length);
    expect(rule.filter((r) => linked.get(r.id) !== r.locality_id)).toEqual([]);
  });

  it('takes the tied and the sparse rows from their cells, the dense ones from their own lookups', async () => {
    const ids = lons.map(() => randomUUID());
    const fromCells = await prisma.$queryRaw<Array<{ id: string; loc_id: string }>>`
      WITH r AS MATERIALIZED (${rowsSql(ids)}), ${Prisma.raw(cellLocalitiesCtes('r', KNN_CANDIDATES))}
      SELECT id::text, loc_id::text FROM cell_localities`;
    const kindOf = new Map<string, string>(ids.map((id, i) => [id, kinds[i]]));
    const count = (kind: string) => fromCells.filter((r) => kindOf.get(r.id) === kind).length;
    expect(count('tie')).toBe(100);
    expect(count('sparse')).toBe(160);
    expect(count('dense')).toBe(0);
  });
});
