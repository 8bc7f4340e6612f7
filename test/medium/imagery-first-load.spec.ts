import { TestingModule } from '@nestjs/testing';
import { PrismaClient } from '@prisma/client';
import { Client } from 'pg';
import { ImageryFirstLoadSession } from '../../src/imagery/first-load/imagery-first-load-session';
import { ImageryImportService, ImportOptions } from '../../src/imagery/imagery-import.service';
import { FeatureItem } from '../../src/imagery/imagery-feature';
import { ImageryRepository } from '../../src/imagery/imagery.repository';
import { FIRST_LOAD_RUNNING } from '../../src/search-index/ranked-word-lists.repository';
import { currentKind } from '../setup/test-database';
import { feature, resetImagery } from '../helpers/test-app';
import { startImporter } from '../helpers/imagery-importer';

// A first load (an import into an empty catalogue) writes without the secondary indexes and builds
// them at its end; a load cut off is finished by the next import or the server's start. On a
// PostgreSQL server only: the built-in database keeps its indexes (the last describe).
describe('imagery import: a first load', () => {
  let moduleRef: TestingModule;
  let importer: ImageryImportService;
  let repository: ImageryRepository;
  let prisma: PrismaClient;
  let indexesBefore: string[];

  const indexes = async () =>
    (
      await prisma.$queryRaw<Array<{ def: string }>>`
        SELECT indexdef AS def FROM pg_indexes WHERE schemaname = 'public' AND tablename = 'imagery' ORDER BY indexname`
    ).map((r) => r.def);
  const marker = async () =>
    (
      await prisma.$queryRaw<Array<{ n: number }>>`
    SELECT count(*)::int AS n FROM imagery_first_load`
    )[0].n;
  const vocabulary = () => prisma.$queryRaw<Array<{ word: string; docs: number }>>`
    SELECT word, docs FROM imagery_words WHERE docs > 0 ORDER BY word`;
  const recounted = () => prisma.$queryRaw<Array<{ word: string; docs: number }>>`
    SELECT w.word, count(*)::int AS docs FROM imagery r, unnest(tsvector_to_array(r.address_tsv)) AS w(word)
    WHERE lis_vocabulary_word(w.word) GROUP BY w.word ORDER BY w.word`;

  // Records, and what the catalogue's indexes were while the import read them (after the first batch).
  async function importWatching(count: number, options: ImportOptions = {}) {
    const seen: string[][] = [];
    async function* items(): AsyncGenerator<FeatureItem> {
      for (let i = 1; i <= count; i++) {
        if (i === 4) seen.push(await indexes());
        yield { position: i, feature: feature(`Landstrasse ${i}, Triesen`) };
      }
    }
    const summary = await importer.importFeatures(items(), { source: 'first-load', batchSize: 2, ...options });
    return { summary, during: seen[0] };
  }

  // A load whose process died: begun on a connection that then ends without finishing it.
  async function abandonFirstLoad(withRecords: number) {
    const client = new Client({ connectionString: process.env.DATABASE_URL });
    await client.connect();
    const load = await ImageryFirstLoadSession.start([client]);
    expect(load).not.toBeNull();
    for (let i = 0; i < withRecords; i++)
      await client.query(
        `INSERT INTO imagery (id, address, captured_at, heading, interactive, image_url, location, source)
         VALUES (gen_random_uuid(), $1, '2024-05-01', 90, true, 'https://images.example/x.jpg',
                 ST_SetSRID(ST_MakePoint(9.52, 47.14), 4326), 'abandoned')`,
        [`Kirchstrasse ${i + 1}, Vaduz`],
      );
    await client.end();
  }

  beforeAll(async () => {
    ({ moduleRef, importer, prisma } = await startImporter());
    repository = moduleRef.get(ImageryRepository);
    indexesBefore = await indexes();
  });

  beforeEach(() => resetImagery());

  afterEach(async () => {
    // Whatever a test left, the next file finds the catalogue as it was.
    await repository.finishAbandonedFirstLoad();
    expect(await indexes()).toEqual(indexesBefore);
  });

  afterAll(async () => {
    await moduleRef.close();
    await prisma.$disconnect();
  });

  if (currentKind() === 'embedded') {
    // One session serves every connection there: a lock could not tell a live load from a dead one.
    it('keeps the indexes on the built-in database', async () => {
      const { summary, during } = await importWatching(5);
      expect(summary).toMatchObject({ inserted: 5, outcome: 'complete' });
      expect(summary.firstLoadIndexSeconds).toBeUndefined();
      expect(during).toEqual(indexesBefore);
    });
    return;
  }

  it('writes an empty catalogue without its secondary indexes and builds exactly those at the end', async () => {
    expect(indexesBefore.length).toBeGreaterThan(10);
    const { summary, during } = await importWatching(7);
    expect(summary).toMatchObject({ inserted: 7, outcome: 'complete' });
    expect(summary.firstLoadIndexSeconds).toEqual(expect.any(Number));
    expect(during).toEqual(indexesBefore.filter((d) => d.startsWith('CREATE UNIQUE INDEX')));
    expect(await indexes()).toEqual(indexesBefore);
    expect(await marker()).toBe(0);
    // The word triggers stayed on: the vocabulary is what a recount finds.
    expect(await vocabulary()).toEqual(await recounted());
    expect(await vocabulary()).toEqual(expect.arrayContaining([{ word: 'landstrasse', docs: 7 }]));
  });

  it('keeps the indexes when the catalogue holds records, or when asked to', async () => {
    await importWatching(3);
    const next = await importWatching(5);
    expect(next.during).toEqual(indexesBefore);
    expect(next.summary.firstLoadIndexSeconds).toBeUndefined();

    await resetImagery();
    const kept = await importWatching(5, { firstLoad: false });
    expect(kept.during).toEqual(indexesBefore);
    expect(kept.summary.firstLoadIndexSeconds).toBeUndefined();
  });

  it('builds the indexes of an interrupted load before it returns', async () => {
    const stop = new AbortController();
    async function* items(): AsyncGenerator<FeatureItem> {
      for (let i = 1; i <= 10; i++) {
        if (i === 6) stop.abort();
        yield { position: i, feature: feature(`Feldstrasse ${i}, Schaan`) };
      }
    }
    const summary = await importer.importFeatures(items(), { source: 'first-load', batchSize: 2, signal: stop.signal });
    expect(summary.outcome).toBe('interrupted');
    expect(summary.firstLoadIndexSeconds).toEqual(expect.any(Number));
    expect(await indexes()).toEqual(indexesBefore);
    expect(await marker()).toBe(0);
  });

  // Batches failing on both connections, the second while the first is still in flight: the load's end
  // waits for that batch's rollback before it builds indexes on its connection (a statement sent before
  // it would run in the failed transaction, and the indexes would stay set aside until the next import).
  it('builds the indexes when batches fail on both connections at once', async () => {
    await prisma.$executeRawUnsafe(`CREATE FUNCTION lis_test_refuse() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.address LIKE 'Slow%' THEN PERFORM pg_sleep(0.5); END IF;
        RAISE EXCEPTION 'refused by the test';
      END $$`);
    await prisma.$executeRawUnsafe(`CREATE TRIGGER lis_test_refuse BEFORE INSERT ON imagery FOR EACH ROW
      WHEN (NEW.address LIKE '%Refused%') EXECUTE FUNCTION lis_test_refuse()`);
    try {
      const addresses = ['Slow Refused 1', 'Slow Refused 2', 'Refused 3', 'Refused 4', 'Gasse 5', 'Gasse 6'];
      async function* items(): AsyncGenerator<FeatureItem> {
        for (const [i, address] of addresses.entries()) yield { position: i + 1, feature: feature(address) };
      }
      await expect(
        importer.importFeatures(items(), { source: 'first-load', batchSize: 2, connections: 2 }),
      ).rejects.toThrow('refused by the test');
      expect(await indexes()).toEqual(indexesBefore);
      expect(await marker()).toBe(0);
    } finally {
      await prisma.$executeRawUnsafe('DROP TRIGGER lis_test_refuse ON imagery');
      await prisma.$executeRawUnsafe('DROP FUNCTION lis_test_refuse()');
    }
  });

  it("finishes a load cut off at the server's start, and at the next import", async () => {
    await abandonFirstLoad(3);
    expect(await marker()).toBe(1);
    expect((await indexes()).length).toBeLessThan(indexesBefore.length);
    expect(await repository.finishAbandonedFirstLoad()).toBe(true);
    expect(await indexes()).toEqual(indexesBefore);
    expect(await marker()).toBe(0);
    expect(await repository.finishAbandonedFirstLoad()).toBe(false);

    await resetImagery();
    await abandonFirstLoad(0);
    // The catalogue is still empty: the next import finishes the old load, then makes its own.
    const { summary, during } = await importWatching(5);
    expect(summary).toMatchObject({ inserted: 5, outcome: 'complete' });
    expect(during.length).toBeLessThan(indexesBefore.length);
    expect(await indexes()).toEqual(indexesBefore);
    expect(await marker()).toBe(0);
  });

  it('leaves a live load alone: another import writes the usual way and leaves the lists to it', async () => {
    const client = new Client({ connectionString: process.env.DATABASE_URL });
    await client.connect();
    try {
      const load = await ImageryFirstLoadSession.start([client]);
      expect(load).not.toBeNull();
      expect(await repository.finishAbandonedFirstLoad()).toBe(false);
      const other = await importWatching(5);
      expect(other.summary).toMatchObject({ inserted: 5, outcome: 'complete' });
      expect(other.summary.firstLoadIndexSeconds).toBeUndefined();
      expect(other.summary.listsNotRefreshed).toContain(FIRST_LOAD_RUNNING);
      expect(other.during.length).toBeLessThan(indexesBefore.length);
      await load!.end();
      expect(await indexes()).toEqual(indexesBefore);
      expect(await marker()).toBe(0);
    } finally {
      await client.end();
    }
  });
});
