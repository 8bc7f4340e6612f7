import { PrismaClient } from '@prisma/client';
import { PhotosRepository } from '../../src/photos/photos.repository';
import { explainAnalyzed } from '../helpers/query-plans';
import { prismaClient, resetImagery } from '../helpers/test-app';

// The includes of a page of photo records read the photos table by primary key, and a photo's
// neighbours in its sequence one row of photos_sequence_idx each, whatever the catalogue's size: in
// 2,000 sequences of 25 photos, a page of 20 reads its 20 rows and 20 x 2 neighbours, nothing by scan.
describe('photo include query plans', () => {
  let prisma: PrismaClient;
  let page: string[];

  beforeAll(async () => {
    await resetImagery();
    prisma = prismaClient();
    await prisma.$executeRawUnsafe(`
      INSERT INTO photos (id, content_hash, bytes, captured_time, offset_origin, width, height, projection,
                          heading_origin, position_origin, sequence_id, sequence_index)
      SELECT gen_random_uuid(), repeat('a', 64), 1, '2024-01-01T00:00:00Z', 'exif', 1, 1, 'perspective',
             'none', 'exif', md5((g / 25)::text)::uuid, g % 25
      FROM generate_series(0, 49999) g`);
    await prisma.$executeRawUnsafe('ANALYZE photos');
    const rows = await prisma.$queryRawUnsafe<Array<{ id: string }>>(
      'SELECT id::text AS id FROM photos WHERE sequence_index BETWEEN 5 AND 9 LIMIT 20',
    );
    page = rows.map((r) => r.id);
  }, 120_000);

  afterAll(async () => {
    await resetImagery();
    await prisma.$disconnect();
  });

  const scans = (nodes: Awaited<ReturnType<typeof explainAnalyzed>>) =>
    nodes.filter((n) => n.type === 'Seq Scan' && n.executed).map((n) => n.on);

  it('reads the camera include by primary key', async () => {
    const nodes = await explainAnalyzed(prisma, PhotosRepository.includedSql(page));
    expect(scans(nodes)).toEqual([]);
    expect(nodes.map((n) => n.on)).toContain('photos_pkey');
  });

  it("reads each photo's neighbours from photos_sequence_idx, one row each way", async () => {
    const nodes = await explainAnalyzed(prisma, PhotosRepository.sequencePlacesSql(page));
    expect(scans(nodes)).toEqual([]);
    expect(nodes.map((n) => n.on)).toContain('photos_pkey');
    const neighbours = nodes.filter((n) => n.on === 'photos_sequence_idx');
    expect(neighbours).toHaveLength(2);
    for (const n of neighbours) expect(n).toMatchObject({ rows: 1, loops: page.length });
  });
});
