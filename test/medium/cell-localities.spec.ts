import { randomUUID } from 'node:crypto';
import { Prisma, PrismaClient } from '@prisma/client';
import { LOCALITY_CELL_DEGREES } from '../../src/imagery/address-recovery/cell-localities.sql';
import { KNN_CANDIDATES, placeLinksSql } from '../../src/imagery/address-recovery/imagery-place-link.repository';
import { seededRandom } from '../../src/common/deterministic-random';
import { resetPlaces } from '../helpers/places';
import { prismaClient } from '../helpers/test-app';

// The locality of rows that share a grid cell is looked up once per cell (cell-localities.sql.ts): it
// must be exactly the locality each row's own lookup finds, borders between localities included.
describe('nearest locality by grid cell', () => {
  let prisma: PrismaClient;
  const rand = seededRandom(20261124);

  beforeAll(async () => {
    prisma = prismaClient();
    await resetPlaces();
    // 600 localities over 3 x 2 degrees (a few kilometres apart, as towns are), a cluster of 40 closer
    // than a cell, and one far away.
    const points: Array<[number, number]> = [];
    for (let i = 0; i < 600; i++) points.push([9 + 3 * rand(), 46 + 2 * rand()]);
    for (let i = 0; i < 40; i++) points.push([10.5 + 0.008 * rand(), 47 + 0.008 * rand()]);
    points.push([-120, -40]);
    await prisma.$executeRaw`
      INSERT INTO places (id, kind, name, label, location, source, source_id)
      SELECT gen_random_uuid(), 'locality', 'Town ' || n, 'Town ' || n, ST_SetSRID(ST_MakePoint(x, y), 4326), 'cells', n::text
      FROM unnest(${points.map((p) => p[0])}::float8[], ${points.map((p) => p[1])}::float8[]) WITH ORDINALITY AS t(x, y, n)`;
    await prisma.$executeRawUnsafe('ANALYZE places');
  });

  afterAll(async () => {
    await resetPlaces();
    await prisma.$disconnect();
  });

  it('gives every row of a shared cell the locality its own lookup gives', async () => {
    // 800 cells with 1-8 rows each anywhere in them (edges and corners too), some rows alone in theirs.
    const lons: number[] = [];
    const lats: number[] = [];
    const g = LOCALITY_CELL_DEGREES;
    for (let c = 0; c < 800; c++) {
      const cx = Math.floor((c < 100 ? 10.5 : 9 + 3 * rand()) / g);
      const cy = Math.floor((c < 100 ? 47 : 46 + 2 * rand()) / g);
      const n = 1 + Math.floor(rand() * 8);
      for (let i = 0; i < n; i++) {
        const edge = () => (rand() < 0.2 ? (rand() < 0.5 ? 1e-9 : 1 - 1e-9) : rand());
        lons.push((cx + edge()) * g);
        lats.push((cy + edge()) * g);
      }
    }
    lons.push(-119.99, -119.991); // far from all but one: fewer candidates than KNN_CANDIDATES nearby
    lats.push(-40.01, -40.011);
    const ids = lons.map(() => randomUUID());
    const rows = Prisma.sql`SELECT t.id, ST_SetSRID(ST_MakePoint(t.x, t.y), 4326) AS location, false AS recover
      FROM unnest(${ids}::uuid[], ${lons}::float8[], ${lats}::float8[]) AS t(id, x, y)`;
    const linked = new Map(
      (
        await prisma.$queryRaw<
          Array<{ id: string; locality_id: string }>
        >`SELECT l.id, l.locality_id FROM (${placeLinksSql(rows)}) l`
      ).map((r) => [r.id, r.locality_id]),
    );
    // Each row's own lookup, as nearest('locality') writes it.
    const own = await prisma.$queryRaw<Array<{ id: string; locality_id: string; shared: boolean }>>`
      SELECT r.id, (
        SELECT c.id FROM (
          SELECT p.id, p.location FROM places p WHERE p.kind = 'locality' ORDER BY p.location <-> r.location LIMIT ${KNN_CANDIDATES}
        ) c ORDER BY ST_DistanceSphere(c.location, r.location), c.id LIMIT 1
      ) AS locality_id,
      count(*) OVER (PARTITION BY floor(ST_X(r.location) / ${g}), floor(ST_Y(r.location) / ${g})) > 1 AS shared
      FROM (${rows}) r`;
    expect(linked.size).toBe(lons.length);
    expect(own.filter((r) => r.shared).length).toBeGreaterThan(lons.length / 2);
    expect(own.filter((r) => !r.shared).length).toBeGreaterThan(0);
    const differ = own.filter((r) => linked.get(r.id) !== r.locality_id);
    expect(differ).toEqual([]);
  });
});
