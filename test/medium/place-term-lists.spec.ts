import { PrismaClient } from '@prisma/client';
import { PlaceMatchingRepository } from '../../src/search/place-matching/place-matching.repository';
import { PLACE_TERM_MIN_PLACES } from '../../src/search-index/search-index-limits';
import { PlaceTermListsRepository } from '../../src/search-index/place-term-lists.repository';
import { PlaceCandidate } from '../../src/search/place-matching/place-ranking';
import { buildTextQuery } from '../../src/search/query/text-query';
import { PrismaService } from '../../src/database/prisma.service';
import { SearchRepository } from '../../src/search/search.repository';
import { dropPlacePlans, placePlanTools, seedPlacePlans } from '../helpers/place-plans';

// Place term lists (the most important places of every common word start) on 100,000 generated places.
describe('place term lists', () => {
  let prisma: PrismaClient;
  let service: PrismaService;
  let repo: SearchRepository;
  const { executedScans } = placePlanTools(() => ({ prisma, service, repo, rare: '', london: {} as never }));
  const candidates = async (q: string, region: string | null = null) =>
    (
      await service.rawQuery<PlaceCandidate>(PlaceMatchingRepository.placeCandidatesSql(buildTextQuery(q)!, region))
    ).map((p) => `${p.importance} ${p.id}`);
  // What the index alone finds, every match read (no cap): the order candidates must follow.
  const byIndex = async (prefix: string) =>
    (
      await prisma.$queryRawUnsafe<Array<{ k: string }>>(
        `SELECT p.importance || ' ' || p.id AS k FROM places p
         WHERE p.search_tsv @@ to_tsquery('simple', $1) AND p.kind IN ('locality', 'postcode', 'street', 'poi')
         ORDER BY p.importance DESC, p.id LIMIT 200`,
        `'${prefix}':*`,
      )
    ).map((r) => r.k);

  beforeAll(async () => {
    ({ prisma, service, repo } = await seedPlacePlans());
  }, 300_000);

  afterAll(() => dropPlacePlans({ prisma, service }));

  it('lists every word start held by enough places, most important first, and candidates read them', async () => {
    const built = await new PlaceTermListsRepository(service).refresh();
    expect(built).toBeGreaterThan(10);
    // A one-letter start and a whole common word: both listed, both exactly the index's best 200.
    const [common] = await prisma.$queryRawUnsafe<Array<{ term: string; places: number }>>(
      `SELECT term, places FROM place_term_lists WHERE length(term) >= 4 ORDER BY places DESC, term LIMIT 1`,
    );
    expect(common.places).toBeGreaterThanOrEqual(PLACE_TERM_MIN_PLACES);
    for (const term of ['s', common.term]) {
      const expected = await byIndex(term);
      expect(expected).toHaveLength(200);
      expect(await candidates(term)).toEqual(expected);
      // Read from the list; the index is read only for the word's other spellings ("south" for "s"), whole.
      const query = buildTextQuery(term)!;
      const ran = await executedScans(PlaceMatchingRepository.placeCandidatesSql(query, null));
      expect(ran).toContain('Bitmap Index Scan place_term_ranks_order_idx');
      expect(ran.filter((s) => /places_search_tsv/.test(s))).toHaveLength(query.groups[0].length > 1 ? 1 : 0);
    }
  });

  it('several common words: the most important places holding them all, from the list of the rarest', async () => {
    await new PlaceTermListsRepository(service).refresh(true);
    // The two-word country name most places are in ("United States" in real data).
    const [{ name }] = await prisma.$queryRawUnsafe<Array<{ name: string }>>(
      `SELECT c.name FROM places c WHERE c.kind = 'country' AND c.name ~ '^[A-Za-z]+ [A-Za-z]+$'
       ORDER BY (SELECT count(*) FROM places p WHERE p.country_code = c.country_code) DESC, c.name LIMIT 1`,
    );
    const query = buildTextQuery(name)!;
    const all = (
      await prisma.$queryRawUnsafe<Array<{ k: string }>>(
        `SELECT p.importance || ' ' || p.id AS k FROM places p
         WHERE p.search_tsv @@ to_tsquery('simple', $1) AND p.kind IN ('locality', 'postcode', 'street', 'poi')
         ORDER BY p.importance DESC, p.id`,
        query.tsquery,
      )
    ).map((r) => r.k);
    const got = await candidates(name);
    expect(got.length).toBeGreaterThanOrEqual(100);
    expect(got).toEqual(all.slice(0, got.length));
    const ran = await executedScans(PlaceMatchingRepository.placeCandidatesSql(query, null));
    expect(ran).toContain('Bitmap Index Scan place_term_ranks_order_idx');
    expect(ran.filter((s) => /places_search_tsv/.test(s))).toEqual([]);
  });

  it('builds again only when places changed since the last build, or when forced', async () => {
    const lists = new PlaceTermListsRepository(service);
    const built = await lists.refresh(true);
    expect(built).toBeGreaterThan(10);
    const builtAt = async () =>
      (await prisma.$queryRawUnsafe<Array<{ t: string }>>(`SELECT max(built_at)::text AS t FROM place_term_lists`))[0]
        .t;
    const first = await builtAt();
    expect(await lists.refresh()).toBeNull();
    expect(await builtAt()).toBe(first);
    // An update (updated_at moves) and a delete (the count changes) each make the next call build.
    await prisma.$executeRawUnsafe(
      `UPDATE places SET importance = importance + 0.001, updated_at = now()
       WHERE id = (SELECT place_id FROM place_term_ranks WHERE term = 's' ORDER BY importance DESC, place_id LIMIT 1)`,
    );
    expect(await lists.refresh()).toBe(built);
    expect(await lists.refresh()).toBeNull();
    await prisma.$executeRawUnsafe(
      `DELETE FROM places WHERE id = (SELECT id FROM places WHERE kind = 'address' ORDER BY id LIMIT 1)`,
    );
    expect(await lists.refresh()).toBeGreaterThan(10);
    expect(await builtAt()).not.toBe(first);
  });

  it('a deleted place leaves the candidates at once; without lists the index answers alike', async () => {
    await new PlaceTermListsRepository(service).refresh(true);
    const before = await candidates('s');
    const [, firstId] = before[0].split(' ');
    await prisma.$executeRawUnsafe(`DELETE FROM places WHERE id = $1::uuid`, firstId);
    expect(await candidates('s')).toEqual(before.slice(1));
    await prisma.$executeRawUnsafe('DELETE FROM place_term_lists');
    await prisma.$executeRawUnsafe('DELETE FROM place_term_ranks');
    // The index path reads the first PLACE_FOUND_CAP found only; the most important come first there too.
    const indexed = await candidates('s');
    expect(indexed).toHaveLength(200);
    expect(new Set(indexed).has(before[0])).toBe(false);
  });
});
