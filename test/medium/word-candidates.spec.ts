import { PrismaClient } from '@prisma/client';
import { WORD_CANDIDATES } from '../../src/search/paging/search-limits';
import { SearchRepository } from '../../src/search/search.repository';
import { prismaClient, resetImagery } from '../helpers/test-app';

// The typo step's candidates for a misspelt word: the vocabulary's WORD_CANDIDATES words nearest to it by
// trigram distance, words at the same distance as the last one cut alphabetically. Without that cut the
// index's order among tied words decided, so two copies of one vocabulary (a replica, a restored dump, a
// Citus reference table) could offer different words and so give different answers.
describe('typo candidates from the vocabulary', () => {
  let prisma: PrismaClient;
  const words = Array.from({ length: 2 * WORD_CANDIDATES }, (_, i) => `zw${String(i).padStart(3, '0')}x`);

  beforeAll(async () => {
    await resetImagery();
    prisma = prismaClient();
  });

  afterAll(async () => {
    await prisma.$executeRawUnsafe('DELETE FROM imagery_words WHERE word LIKE $1', 'zw%x');
    await prisma.$disconnect();
  });

  async function candidates(typed: string): Promise<string[]> {
    const rows = await prisma.$queryRaw<{ typed: string; word: string }[]>(SearchRepository.wordCandidatesSql([typed]));
    return rows.map((r) => r.word);
  }

  async function storeInOrder(ordered: string[]): Promise<void> {
    await prisma.$executeRawUnsafe('DELETE FROM imagery_words WHERE word LIKE $1', 'zw%x');
    for (const word of ordered)
      await prisma.$executeRawUnsafe('INSERT INTO imagery_words (word, docs) VALUES ($1, 1)', word);
  }

  it('cuts the words tied at the last place alphabetically, whatever order the vocabulary holds them in', async () => {
    // 'zwqq' shares the trigrams of "zw" with every word: all of them tie.
    const expected = [...words].sort().slice(0, WORD_CANDIDATES);
    for (const order of [
      [...words].reverse(),
      words,
      [...words.slice(WORD_CANDIDATES), ...words.slice(0, WORD_CANDIDATES)],
    ]) {
      await storeInOrder(order);
      expect(await candidates('zwqq')).toEqual(expected);
    }
  });

  it('keeps the nearest first, then the tied', async () => {
    await storeInOrder([...words].reverse());
    await prisma.$executeRawUnsafe('INSERT INTO imagery_words (word, docs) VALUES ($1, 1)', 'zwqqx');
    try {
      const found = await candidates('zwqq');
      expect(found[0]).toBe('zwqqx');
      expect(found.slice(1)).toEqual([...words].sort().slice(0, WORD_CANDIDATES - 1));
    } finally {
      await prisma.$executeRawUnsafe('DELETE FROM imagery_words WHERE word = $1', 'zwqqx');
    }
  });
});
