import { PrismaClient } from '@prisma/client';
import { DELETE_SOURCE_BATCH } from '../../src/imagery/imagery-source-deletion.service';
import { DEMO_SOURCE } from '../../src/seed/demo-dataset';
import { cli, logLines } from '../helpers/cli-tools';
import { prismaClient, resetImagery } from '../helpers/test-app';

// Each test spawns the real tool a few times (seconds each to start on a shared machine).
jest.setTimeout(300_000);

// npm run import -- --delete-source <name> [--dry-run]: every record of the source goes, with its
// photo details; nothing else does.
describe('import --delete-source', () => {
  let prisma: PrismaClient;
  const demoRecords = DELETE_SOURCE_BATCH + 3; // more than one batch
  const count = (source: string | null) => prisma.imagery.count({ where: { source } });

  async function insertRecords(source: string | null, n: number, from: number): Promise<void> {
    await prisma.$executeRawUnsafe(
      `INSERT INTO imagery (id, address, captured_at, heading, interactive, image_url, location, source)
       SELECT gen_random_uuid(), 'Herrengasse ' || g || ', 9490 Vaduz', DATE '2020-01-01', 0, false,
              'https://img.test/' || g || '.jpg', ST_SetSRID(ST_MakePoint(9.52, 47.14), 4326), $1
       FROM generate_series($2::int, $3::int) g`,
      source,
      from,
      from + n - 1,
    );
  }

  // A photos row for one record of the source (the photo import writes one per photo record, same id).
  async function addPhoto(source: string | null): Promise<string> {
    const [{ id }] = await prisma.$queryRawUnsafe<Array<{ id: string }>>(
      `INSERT INTO photos (id, content_hash, bytes, captured_time, offset_origin, width, height, projection,
                           heading_origin, position_origin, sequence_id, sequence_index)
       SELECT id, repeat('a', 64), 1000, '2020-01-01T12:00:00.000+01:00', 'exif', 4000, 3000, 'perspective',
              'exif', 'exif', gen_random_uuid(), 0
       FROM imagery WHERE source IS NOT DISTINCT FROM $1::text AND id NOT IN (SELECT id FROM photos) LIMIT 1
       RETURNING id::text AS id`,
      source,
    );
    return id;
  }

  beforeAll(async () => {
    await resetImagery();
    prisma = prismaClient();
    await prisma.$executeRawUnsafe('TRUNCATE photos');
    await insertRecords(DEMO_SOURCE, demoRecords, 1);
    await insertRecords('partner', 4, 100_000);
    await insertRecords(null, 2, 200_000);
  });

  afterAll(async () => {
    await prisma.$executeRawUnsafe('TRUNCATE imagery, photos');
    await prisma.$disconnect();
  });

  it('refuses without a name, with a file, or with options of an import', async () => {
    for (const args of [
      ['--delete-source'],
      ['--delete-source', 'partner', 'catalogue.ndjson'],
      ['--delete-source', 'partner', '--delete-missing'],
    ]) {
      const run = await cli('import', args).done;
      expect({ args, code: run.code }).toEqual({ args, code: 2 });
      expect(logLines(run.stderr)).toContainEqual(
        expect.objectContaining({ level: 'error', msg: expect.stringMatching(/--delete-source|argument/) }),
      );
    }
    expect(await count('partner')).toBe(4);
  });

  it("counts in a dry run, then removes every record of the source (the demo's) and their photos rows", async () => {
    const demoPhoto = await addPhoto(DEMO_SOURCE);
    await addPhoto(DEMO_SOURCE);
    const partnerPhoto = await addPhoto('partner');

    const dry = await cli('import', ['--delete-source', DEMO_SOURCE, '--dry-run']).done;
    expect(dry.code).toBe(0);
    expect(dry.stdout.trim()).toBe(
      `dry run: would delete ${demoRecords} records of source ${DEMO_SOURCE} (2 of them photos); nothing changed`,
    );
    expect(await count(DEMO_SOURCE)).toBe(demoRecords);
    expect(await prisma.$queryRawUnsafe('SELECT count(*)::int AS n FROM photos')).toEqual([{ n: 3 }]);

    const run = await cli('import', ['--delete-source', DEMO_SOURCE]).done;
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      new RegExp(`^deleted ${demoRecords} records of source ${DEMO_SOURCE} \\(2 of them photos\\) in \\d+\\.\\d s\\n$`),
    );
    expect(run.stderr).toContain(`${DELETE_SOURCE_BATCH.toLocaleString('en-US')} records deleted`); // batch by batch
    expect(await count(DEMO_SOURCE)).toBe(0);
    expect(await count('partner')).toBe(4);
    expect(await count(null)).toBe(2);
    const photos = await prisma.$queryRawUnsafe<Array<{ id: string }>>('SELECT id::text AS id FROM photos');
    expect(photos.map((p) => p.id)).toEqual([partnerPhoto]);
    expect(photos.map((p) => p.id)).not.toContain(demoPhoto);

    // Again: nothing left to remove, and nothing else touched.
    const again = await cli('import', ['--delete-source', DEMO_SOURCE]).done;
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/^deleted 0 records of source demo-seed \(0 of them photos\)/);
    expect(await count('partner')).toBe(4);
  });
});
