import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import { ImageryRecord } from '../../src/imagery/imagery-feature';
import { ImageryImportSession, ImportSessionOptions } from '../../src/imagery/imagery-import-session';
import { ImageryPlaceLinkRepository } from '../../src/imagery/address-recovery/imagery-place-link.repository';
import { PrismaService } from '../../src/database/prisma.service';
import { startImporter } from '../helpers/imagery-importer';
import {
  AEULESTRASSE,
  BASE,
  insertPlaces,
  offset,
  resetPlaces,
  STAEDTLE_1,
  STAEDTLE_5,
  STREET_POINT,
  VADUZ,
} from '../helpers/places';
import { resetImagery } from '../helpers/test-app';
import { currentKind } from '../setup/test-database';

// The import's distributed form (imagery hashed over Citus workers: no triggers on imagery, the upsert
// compared with a copy of the stored rows, the triggers' upkeep done by each batch; docs/scaling.md#citus)
// run on one server with imagery's triggers dropped as the migrator drops them on Citus, against
// the usual form with the triggers: the same records, vocabulary, ranked-list entries, coverage
// locations, counts and deletions. The Docker tier runs the form on a real cluster.
const serverOnly = currentKind() === 'server' ? describe : describe.skip;
const TRIGGERS = join(__dirname, '../../src/database/functions/triggers');
const FIRST = 400;

const uuid = (i: number) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
const STREETS = ['Herrengasse', 'Landstrasse', 'Kirchstrasse', 'Bahnhofstrasse', 'Rätikonerstrasse'];
const TOWNS = ['Vaduz', 'Schaan', 'Triesen', 'Balzers'];
function record(i: number, change = 0): ImageryRecord {
  return {
    id: uuid(i),
    address: `${STREETS[(i + change) % STREETS.length]} ${i}, ${TOWNS[i % TOWNS.length]}`,
    addressOrigin: 'own',
    source: null,
    capturedAt: '2024-05-01',
    heading: (i * 7) % 360,
    interactive: i % 3 === 0,
    imageUrl: `https://images.example/${i}.jpg`,
    lon: 9.5 + i * 0.0001,
    lat: 47.1 + (i % 50) * 0.0001,
  };
}

// The second load: every fifth record readdressed, every seventh moved, every eleventh re-dated, a
// tenth gone (deleted as missing), 50 new ones, the rest unchanged.
function secondLoad(): ImageryRecord[] {
  const out: ImageryRecord[] = [];
  for (let i = 0; i < FIRST + 50; i++) {
    if (i < FIRST && i % 10 === 9) continue;
    const r = record(i, i % 5 === 0 ? 1 : 0);
    if (i % 7 === 0) r.lon += 0.001;
    if (i % 11 === 0) r.capturedAt = '2025-01-02';
    out.push(r);
  }
  return out;
}

serverOnly('the import where imagery is distributed, on one server', () => {
  let admin: Client;
  const url = () => process.env.DATABASE_URL!;

  beforeAll(async () => {
    admin = new Client({ connectionString: url() });
    await admin.connect();
  });
  afterAll(async () => {
    await restoreTriggers();
    await admin.end();
  });

  // The imagery table's triggers (the folder holds other tables' too, named after their table).
  const triggerFiles = () => readdirSync(TRIGGERS).filter((f) => f.startsWith('imagery.'));
  const triggerNames = () => triggerFiles().map((f) => f.replace(/^imagery\.|\.sql$/g, ''));
  async function dropTriggers() {
    for (const name of triggerNames()) await admin.query(`DROP TRIGGER IF EXISTS ${name} ON imagery`);
  }
  async function restoreTriggers() {
    for (const file of triggerFiles()) {
      const name = file.replace(/^imagery\.|\.sql$/g, '');
      await admin.query(`DROP TRIGGER IF EXISTS ${name} ON imagery`);
      await admin.query(readFileSync(join(TRIGGERS, file), 'utf8'));
    }
  }

  async function load(records: ImageryRecord[], options: Partial<ImportSessionOptions>) {
    const clients = [new Client({ connectionString: url() }), new Client({ connectionString: url() })];
    await Promise.all(clients.map((c) => c.connect()));
    const session = await ImageryImportSession.open(clients, {
      source: 'nightly',
      dryRun: false,
      trackSeen: true,
      firstLoad: false,
      ...options,
    });
    const totals = { inserted: 0, updated: 0, unchanged: 0, unrecoverable: 0, deleted: 0 };
    try {
      for (let i = 0; i < records.length; i += 120) {
        const r = await session.writeBatch(records.slice(i, i + 120));
        totals.inserted += r.inserted;
        totals.updated += r.updated;
        totals.unchanged += r.unchanged;
        totals.unrecoverable += r.unrecoverable.length;
      }
      totals.deleted = await session.deleteMissing();
    } finally {
      await session.close();
    }
    return totals;
  }

  // What the first load leaves, with every record in a ranked list (as a list refresh would put it).
  async function firstLoad() {
    await resetImagery();
    await admin.query('TRUNCATE imagery_words, imagery_word_ranks, coverage_touched');
    await load(
      Array.from({ length: FIRST }, (_, i) => record(i)),
      { distributed: false },
    );
    await admin.query(`INSERT INTO imagery_word_ranks (word, score, imagery_id) SELECT 'any', 1, id FROM imagery`);
    await admin.query('TRUNCATE coverage_touched');
  }

  async function outcome() {
    const q = async (text: string) => (await admin.query(text)).rows;
    return {
      imagery: await q(`SELECT id::text, address, address_origin, source, captured_at::text, heading, interactive,
        image_url, ST_AsText(location) AS location FROM imagery ORDER BY id`),
      words: await q('SELECT word, docs FROM imagery_words ORDER BY word'),
      ranked: await q('SELECT imagery_id::text FROM imagery_word_ranks ORDER BY imagery_id'),
      touched: await q('SELECT ST_AsText(location) AS location FROM coverage_touched ORDER BY 1'),
    };
  }

  it('writes, counts, deletes and keeps the vocabulary, ranked lists and coverage as the triggers do', async () => {
    const next = [
      ...secondLoad(),
      { ...record(9000), address: null, addressOrigin: 'own' as const }, // nothing to recover it from
    ];

    await firstLoad();
    const dryWithTriggers = await load(next, { distributed: false, dryRun: true });
    const withTriggers = await load(next, { distributed: false });
    const expected = await outcome();

    await firstLoad();
    await dropTriggers();
    try {
      const dry = await load(next, { distributed: true, dryRun: true });
      expect(dry).toEqual(dryWithTriggers);
      expect(await load(next, { distributed: true })).toEqual(withTriggers);
      expect(await outcome()).toEqual(expected);
    } finally {
      await restoreTriggers();
    }

    // Not a comparison of two no-ops: the second load changed every kind of thing.
    expect(withTriggers).toMatchObject({ inserted: 50, deleted: 40, unrecoverable: 1 });
    expect(withTriggers.updated).toBeGreaterThan(100);
    expect(expected.ranked.length).toBeLessThan(FIRST - 40 - 70);
    expect(expected.touched.length).toBeGreaterThan(100);
    expect(expected.words.some((w) => w.word === 'landstrasse')).toBe(true);
    // Both run lis_add_word_counts: its counts are also checked against a count from scratch.
    const recount = await admin.query(`SELECT word, ndoc AS docs FROM ts_stat('SELECT address_tsv FROM imagery')
      WHERE lis_vocabulary_word(word) ORDER BY word`);
    expect(expected.words.filter((w) => w.docs > 0)).toEqual(recount.rows);
  });

  // Relinking after a place import rewrites recovered addresses: where imagery is distributed its
  // statement returns the records whose words changed and the upkeep follows in its transaction.
  it('relinking keeps the vocabulary and ranked lists as the triggers do', async () => {
    const { moduleRef, prisma } = await startImporter();
    const linker = moduleRef.get(ImageryPlaceLinkRepository);
    const service = moduleRef.get(PrismaService);
    const points = [BASE, offset(BASE, 0, 100), STREET_POINT].flatMap((p) =>
      [-30, -10, 10, 30].map((e, i) => offset(p, e, i * 8)),
    );
    const unlinked = points.map(([lon, lat], i) => ({ ...record(500 + i), address: null, lon, lat }));
    // Records recovered from the locality alone; then the addresses and the street appear.
    const setup = async () => {
      await resetImagery();
      await resetPlaces();
      await admin.query('TRUNCATE imagery_words, imagery_word_ranks, coverage_touched');
      await insertPlaces([VADUZ]);
      await load(unlinked, { distributed: false });
      await admin.query(`INSERT INTO imagery_word_ranks (word, score, imagery_id) SELECT 'any', 1, id FROM imagery`);
      await insertPlaces([STAEDTLE_1, STAEDTLE_5, AEULESTRASSE]);
    };
    const relink = async () => (await linker.relinkBatch('recovered', null, 1000)).relinked;
    try {
      await setup();
      const withTriggers = await relink();
      const expected = await outcome();
      await setup();
      await dropTriggers();
      service.imageryDistributed = true;
      expect(await relink()).toBe(withTriggers);
      expect(await outcome()).toEqual(expected);
      expect(withTriggers).toBe(points.length);
      expect(expected.words.some((w) => w.word === 'aulestrasse' && w.docs === 4)).toBe(true);
      expect(expected.ranked).toEqual([]);
    } finally {
      service.imageryDistributed = false;
      await restoreTriggers();
      await resetPlaces();
      await moduleRef.close();
      await prisma.$disconnect();
    }
  });
});
