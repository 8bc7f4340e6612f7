import { PrismaClient } from '@prisma/client';
import { PrismaService } from '../../src/database/prisma.service';
import { RankedWordListsRepository } from '../../src/search-index/ranked-word-lists.repository';
import { buildTextQuery } from '../../src/search/query/text-query';
import {
  PREFIX_LIST_MIN_MATCHES,
  RANKED_LIST_MIN_DOCS,
  RANKED_LIST_SIZE,
} from '../../src/search-index/search-index-limits';
import { SearchRepository } from '../../src/search/search.repository';
import { shapeTextQuery } from '../../src/search/planning/index-choice';
import { explainAnalyzed } from '../helpers/query-plans';
import { prismaClient, resetImagery, testConfig } from '../helpers/test-app';

// The ranked word lists (the ranked_word_lists migration) on a real database: what a refresh builds
// and keeps, what the triggers take out, and the searches that read them. Made-up words, so no place
// of the gazetteer is named by them.
describe('ranked word lists', () => {
  let prisma: PrismaClient;
  let service: PrismaService;
  let lists: RankedWordListsRepository;
  // Each read of the vocabulary by a fresh repository: the real one keeps it for a minute.
  const search = () => new SearchRepository(service);
  const ZARVEL = 3_000; // records holding "zarvel": listed
  const ROWS = 8_000; // all hold "plovna", 6,000 "tormund", 1,500 "quell": listed; 300 hold "birchow": not
  const MAR = 3_200; // 800 each hold "marlo", "marvin", "maris", "marek": listed, and "mar" has a list of its own

  // Addresses of varied length (1 to 4 extra words), so ranking by similarity has something to order.
  async function seed() {
    await prisma.$executeRawUnsafe(`
      INSERT INTO imagery (id, address, captured_at, heading, interactive, image_url, location)
      SELECT gen_random_uuid(),
             g || ' ' || CASE WHEN g <= ${ZARVEL} THEN 'Zarvel' WHEN g <= ${ZARVEL} + 300 THEN 'Birchow'
                  WHEN g <= ${ZARVEL} + 300 + ${MAR} THEN (ARRAY['Marlo', 'Marvin', 'Maris', 'Marek'])[1 + g % 4] ELSE 'Quell' END
               || repeat(' Tormund', g % 4) || ', Plovna ' || (g % 97),
             DATE '2015-01-01', 0, true, 'https://img.test/' || g || '.jpg', ST_SetSRID(ST_MakePoint(9.5, 47.1), 4326)
      FROM generate_series(1, ${ROWS}) g`);
    await prisma.$executeRawUnsafe('ANALYZE imagery');
  }

  const listOf = (word: string) =>
    prisma.$queryRawUnsafe<Array<{ id: string; score: number }>>(
      `SELECT imagery_id::text AS id, score FROM imagery_word_ranks WHERE word = $1 ORDER BY score DESC, imagery_id`,
      word,
    );
  // Every record holding the word, best first by the score a search for it gives: what a list approximates.
  const exactTop = (word: string, n: number) =>
    prisma.$queryRawUnsafe<Array<{ id: string; score: number }>>(
      `SELECT id::text AS id, lis_rank_score(address_norm, address_tsv, $1) AS score FROM imagery
       WHERE address_tsv @@ lis_term_tsquery($1) ORDER BY 2 DESC, id LIMIT $2`,
      word,
      n,
    );

  beforeAll(async () => {
    await resetImagery();
    prisma = prismaClient();
    service = new PrismaService(testConfig());
    lists = new RankedWordListsRepository(service);
    await seed();
  }, 120_000);

  afterAll(async () => {
    await resetImagery();
    await prisma.$disconnect();
    await service.onModuleDestroy();
  });

  it('a first refresh lists every word in at least the threshold of addresses, each with its best records', async () => {
    expect(await lists.refresh()).toEqual({ rebuilt: 9, merged: 0 });
    const listed = await prisma.$queryRawUnsafe<Array<{ word: string }>>(
      'SELECT word FROM imagery_word_lists ORDER BY word',
    );
    expect(listed.map((l) => l.word)).toEqual([
      'mar*',
      'marek',
      'maris',
      'marlo',
      'marvin',
      'plovna',
      'quell',
      'tormund',
      'zarvel',
    ]);
    expect(RANKED_LIST_MIN_DOCS).toBeGreaterThan(300); // so birchow is not listed
    for (const word of ['zarvel', 'mar*', 'plovna']) {
      const list = await listOf(word);
      expect(list).toHaveLength(RANKED_LIST_SIZE);
      const exact = (await exactTop(word, RANKED_LIST_SIZE)).map((r) => r.score);
      if (word !== 'plovna') expect(list.map((r) => r.score)).toEqual(exact); // up to 5,000 matches: all scored
      // Commoner: from a shortlist of the shortest addresses, the best but for a few long ones that
      // repeat a word ("Tormund Tormund").
      const missed = exact.filter((score, i) => score !== list[i].score);
      expect(missed.length).toBeLessThanOrEqual(RANKED_LIST_SIZE / 100);
      expect(list[0].score).toBe(exact[0]);
    }
    // Nothing changed since: nothing to do.
    expect(await lists.refresh()).toEqual({ rebuilt: 0, merged: 0 });
  });

  it('a common word takes its head from its list: best first, every match once across the pages, an estimated total', async () => {
    const query = buildTextQuery('Zarvel')!;
    const repo = search();
    expect(shapeTextQuery(query, await repo.vocabulary(), 10_000).lists).toEqual({
      words: ['zarvel'],
      estimate: ZARVEL,
      checked: false,
      floor: ZARVEL,
    });
    const first = await repo.searchFullText(query, { limit: 10, offset: 0 });
    expect(first).toMatchObject({ total: ZARVEL, totalExact: false });
    expect(first.rows.map((r) => r.id)).toEqual((await listOf('zarvel')).slice(0, 10).map((r) => r.id));

    const seen: string[] = [];
    for (let offset = 0; offset < ZARVEL; offset += 500) {
      const page = await repo.searchFullText(query, { limit: 500, offset });
      seen.push(...page.rows.map((r) => r.id));
    }
    expect(seen).toHaveLength(ZARVEL);
    expect(new Set(seen).size).toBe(ZARVEL);
    const head = (await repo.searchFullText(query, { limit: RANKED_LIST_SIZE, offset: 0 })).rows.map((r) => r.score);
    expect(head).toEqual([...head].sort((a, b) => b - a));

    // Page one reads the list's index and its own rows: no bitmap of the word's 3,000 matches.
    const nodes = await explainAnalyzed(
      prisma,
      SearchRepository.fullTextSql(query, { limit: 10, offset: 0 }, undefined, {
        splitPrefix: false,
        broad: false,
        lists: { words: ['zarvel'], estimate: ZARVEL, checked: false, floor: ZARVEL },
        estimate: ZARVEL,
      }),
    );
    expect(nodes.some((n) => n.on === 'imagery_word_ranks_order_idx' && n.executed)).toBe(true);
    expect(nodes.filter((n) => n.on === 'imagery_address_tsv_idx' && n.executed)).toEqual([]);
  });

  it('records a named place pins come before the list: a page they fill reads no list, and pages still walk every match once', async () => {
    const locality = '00000000-0000-4000-8000-00000000a001'; // a place named Zarvel (no places row needed)
    const PINNED = 30;
    await prisma.$executeRawUnsafe(
      `UPDATE imagery SET locality_id = $1::uuid
       WHERE id IN (SELECT id FROM imagery WHERE address_tsv @@ 'zarvel' ORDER BY id DESC LIMIT ${PINNED})`,
      locality,
    );
    try {
      const query = buildTextQuery('Zarvel')!;
      const repo = search();
      const pins = { ids: [locality], scores: [30], names: ["'zarvel'"], nameWords: ['zarvel'], views: [] };
      const shape = shapeTextQuery(query, await repo.vocabulary(), 10_000);
      const nodes = await explainAnalyzed(
        prisma,
        SearchRepository.fullTextSql(query, { limit: 10, offset: 0 }, undefined, shape, pins),
      );
      expect(nodes.some((n) => n.on === 'imagery_locality_id_idx' && n.executed)).toBe(true);
      expect(nodes.filter((n) => n.on === 'imagery_word_ranks_order_idx' && n.executed)).toEqual([]);

      const long = await repo.searchFullText(query, { limit: 100, offset: 0 }, undefined, pins);
      const walked: string[] = [];
      for (let offset = 0; offset < 100; offset += 10) {
        walked.push(
          ...(await repo.searchFullText(query, { limit: 10, offset }, undefined, pins)).rows.map((r) => r.id),
        );
      }
      expect(walked).toEqual(long.rows.map((r) => r.id));
      expect(long.rows.slice(0, PINNED).every((r) => r.score >= 30)).toBe(true);
      expect(long.rows.slice(PINNED).every((r) => r.score < 30)).toBe(true);
    } finally {
      await prisma.$executeRawUnsafe('UPDATE imagery SET locality_id = NULL WHERE locality_id = $1::uuid', locality);
    }
  });

  it('a prefix whose matches spread over many words takes its head from its own list, as a search for it ranks', async () => {
    const query = buildTextQuery('Mar')!;
    const repo = search();
    expect(shapeTextQuery(query, await repo.vocabulary(), 10_000).lists).toEqual({
      words: ['mar*'],
      estimate: MAR,
      checked: false,
      floor: MAR / 4, // the commonest completion's records: an address may hold two
    });
    const page = await repo.searchFullText(query, { limit: 20, offset: 0 });
    // A lower bound: the ranked head, which exists (the completions' sum may count an address twice).
    expect(page).toMatchObject({ total: RANKED_LIST_SIZE, totalExact: false });
    // The scores of the twenty best of all 3,200 matches, by the search's own score.
    const best = await prisma.$queryRawUnsafe<Array<{ score: number }>>(
      `SELECT (similarity(address_norm, 'mar') + CASE WHEN address_norm = 'mar' THEN 2 ELSE 0 END
               + CASE WHEN starts_with(address_norm, 'mar') THEN 0.5 ELSE 0 END
               + CASE WHEN address_tsv @@ to_tsquery('simple', 'mar') THEN 0.5 ELSE 0 END)::real AS score
       FROM imagery WHERE address_tsv @@ to_tsquery('simple', 'mar:*') ORDER BY 1 DESC LIMIT 20`,
    );
    const sixDigits = (n: number) => Number(n.toFixed(6));
    expect(page.rows.map((r) => sixDigits(r.score))).toEqual(best.map((b) => sixDigits(b.score)));
  });

  it('several common words take the head from one list, checked for the others', async () => {
    const query = buildTextQuery('Zarvel Tormund')!;
    const shape = shapeTextQuery(query, await search().vocabulary(), 10_000);
    expect(shape.lists).toMatchObject({ words: ['zarvel'], checked: true });
    const page = await search().searchFullText(query, { limit: 50, offset: 0 });
    expect(page.rows).toHaveLength(50);
    for (const row of page.rows) expect(row.address).toMatch(/Zarvel Tormund/);
  });

  it('a rare word is ranked as before, from all its matches', async () => {
    const query = buildTextQuery('Birchow')!;
    expect(shapeTextQuery(query, await search().vocabulary(), 10_000).lists).toBeNull();
    expect(await search().searchFullText(query, { limit: 10, offset: 0 })).toMatchObject({
      total: 300,
      totalExact: true,
    });
  });

  it('a record written since the last refresh is found at once and ranked after the next one', async () => {
    await prisma.$executeRawUnsafe(`
      INSERT INTO imagery (id, address, captured_at, heading, interactive, image_url, location)
      VALUES ('00000000-0000-4000-8000-00000000a001', 'Zarvel', DATE '2020-01-01', 0, true, 'https://img.test/z.jpg',
              ST_SetSRID(ST_MakePoint(9.5, 47.1), 4326))`);
    const best = '00000000-0000-4000-8000-00000000a001';
    const query = buildTextQuery('Zarvel')!;
    const all = await search().searchFullText(query, { limit: 1_000, offset: ZARVEL - 999 }); // the last page
    expect(all.rows.map((r) => r.id)).toContain(best);

    expect(await lists.refresh()).toEqual({ rebuilt: 0, merged: 1 });
    const list = await listOf('zarvel');
    expect(list).toHaveLength(RANKED_LIST_SIZE);
    expect(list[0]).toEqual({ id: best, score: 4 }); // similarity 1, the address is the word, starts with it, holds it
    expect((await search().searchFullText(query, { limit: 1, offset: 0 })).rows[0].id).toBe(best);
  });

  it('a deleted record, or one whose address changed, leaves the lists at once', async () => {
    const [top, second] = await listOf('zarvel');
    await prisma.$executeRawUnsafe(`DELETE FROM imagery WHERE id = $1::uuid`, top.id);
    await prisma.$executeRawUnsafe(`UPDATE imagery SET address = 'Elsewhere 1' WHERE id = $1::uuid`, second.id);
    const ids = (await listOf('zarvel')).map((r) => r.id);
    expect(ids).not.toContain(top.id);
    expect(ids).not.toContain(second.id);
    expect(ids).toHaveLength(RANKED_LIST_SIZE - 2);
    // A short list is rebuilt by the next refresh.
    expect((await lists.refresh()).rebuilt).toBeGreaterThanOrEqual(1);
    expect(await listOf('zarvel')).toHaveLength(RANKED_LIST_SIZE);
  });

  const everyList = () =>
    prisma.$queryRawUnsafe<Array<{ word: string; id: string; score: number }>>(
      `SELECT word, imagery_id::text AS id, score FROM imagery_word_ranks ORDER BY word, score DESC, imagery_id`,
    );

  it('lists built on several connections at once are those one connection builds', async () => {
    const rebuildAll = async (connections: number) => {
      // As before a first refresh.
      await prisma.$executeRawUnsafe('TRUNCATE imagery_word_ranks, imagery_word_lists, imagery_word_ranks_state');
      return lists.refresh(connections);
    };
    const one = await rebuildAll(1);
    const built = await everyList();
    expect(new Set(built.map((r) => r.word))).toEqual(
      new Set(['zarvel', 'plovna', 'tormund', 'quell', 'marlo', 'marvin', 'maris', 'marek', 'mar*']),
    );
    expect(await rebuildAll(3)).toEqual(one);
    expect(await everyList()).toEqual(built);
  });

  it('a refresh cut off after its builds is finished by the next: the records it did not merge are merged', async () => {
    const late = '00000000-0000-4000-8000-00000000a002';
    await prisma.$executeRawUnsafe(`
      INSERT INTO imagery (id, address, captured_at, heading, interactive, image_url, location)
      VALUES ('${late}', 'Quell', DATE '2020-01-01', 0, true, 'https://img.test/q.jpg', ST_SetSRID(ST_MakePoint(9.5, 47.1), 4326))`);
    // What refresh() runs before its merge, then nothing: the process died.
    await prisma.$queryRawUnsafe(`
      SELECT lis_build_word_ranks(p.terms, p.matches, ${RANKED_LIST_SIZE})
      FROM lis_plan_word_ranks(${RANKED_LIST_MIN_DOCS}, ${PREFIX_LIST_MIN_MATCHES}, ${RANKED_LIST_SIZE}) p`);
    expect((await listOf('quell')).map((r) => r.id)).not.toContain(late);

    expect(await lists.refresh()).toEqual({ rebuilt: 0, merged: 1 });
    expect((await listOf('quell'))[0].id).toBe(late);
  });

  it('a list build that fails fails the refresh, which says why; the lists built stay and the next refresh finishes', async () => {
    await prisma.$executeRawUnsafe(`
      CREATE FUNCTION test_refuse_quell() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.word = 'quell' THEN RAISE EXCEPTION 'refusing quell'; END IF; RETURN NEW; END $$`);
    await prisma.$executeRawUnsafe(`
      CREATE TRIGGER test_refuse_quell BEFORE INSERT ON imagery_word_ranks FOR EACH ROW EXECUTE FUNCTION test_refuse_quell()`);
    try {
      await prisma.$executeRawUnsafe('TRUNCATE imagery_word_ranks, imagery_word_lists, imagery_word_ranks_state');
      expect(await lists.refreshOrWhyNot(2)).toMatch(/refusing quell/);
      expect(await listOf('quell')).toEqual([]);
      expect(await listOf('plovna')).toHaveLength(RANKED_LIST_SIZE); // built first: the commonest
      const [{ n }] = await prisma.$queryRawUnsafe<Array<{ n: number }>>(
        'SELECT count(*)::int AS n FROM imagery_word_ranks_state',
      );
      expect(n).toBe(0); // not recorded as done
    } finally {
      await prisma.$executeRawUnsafe('DROP TRIGGER test_refuse_quell ON imagery_word_ranks');
      await prisma.$executeRawUnsafe('DROP FUNCTION test_refuse_quell()');
    }
    await lists.refresh();
    expect(await listOf('quell')).toHaveLength(RANKED_LIST_SIZE);
  });

  it('a refresh the server allows only one connection builds every list on it', async () => {
    const refused = new PrismaService(testConfig());
    const open = refused.openBulkConnection.bind(refused);
    let opened = 0;
    refused.openBulkConnection = (name: string) =>
      ++opened === 1 ? open(name) : Promise.reject(new Error('sorry, too many clients already'));
    try {
      await prisma.$executeRawUnsafe('TRUNCATE imagery_word_ranks, imagery_word_lists, imagery_word_ranks_state');
      expect(await new RankedWordListsRepository(refused).refresh(2)).toEqual({ rebuilt: 9, merged: 0 });
      expect(opened).toBe(2);
      expect(await listOf('quell')).toHaveLength(RANKED_LIST_SIZE);
    } finally {
      await refused.onModuleDestroy();
    }
  });

  it('a refresh that cannot run says why instead of failing the import that called it', async () => {
    const unreachable = new PrismaService(testConfig({ databaseUrl: 'postgresql://postgres@127.0.0.1:1/none' }));
    try {
      expect(await new RankedWordListsRepository(unreachable).refreshOrWhyNot()).toMatch(/ECONNREFUSED/);
    } finally {
      await unreachable.onModuleDestroy();
    }
    expect(await lists.refreshOrWhyNot()).toBeUndefined();
  });

  it('a word that falls below half the threshold loses its list; emptying the catalogue empties them all', async () => {
    await prisma.$executeRawUnsafe(
      `DELETE FROM imagery WHERE address_tsv @@ to_tsquery('simple', 'zarvel') AND id IN (
         SELECT id FROM imagery WHERE address_tsv @@ to_tsquery('simple', 'zarvel') ORDER BY id LIMIT $1)`,
      ZARVEL - RANKED_LIST_MIN_DOCS / 2 + 1,
    );
    await lists.refresh();
    expect(await listOf('zarvel')).toEqual([]);
    expect(shapeTextQuery(buildTextQuery('Zarvel')!, await search().vocabulary(), 10_000).lists).toBeNull();

    await resetImagery();
    const [{ n }] = await prisma.$queryRawUnsafe<Array<{ n: number }>>(
      'SELECT (SELECT count(*) FROM imagery_word_ranks) + (SELECT count(*) FROM imagery_word_lists)::int AS n',
    );
    expect(Number(n)).toBe(0);
  });
});
