import { Prisma } from '@prisma/client';
import { WORD_CANDIDATES } from '../paging/search-limits';

// The vocabulary with each word's count of addresses (words no address holds any more left out) and
// whether it has a ranked list, the prefixes with ranked lists of their own, and the catalogue's size: the planner's estimate, or the commonest word's count if larger (a
// table never analysed estimates nothing).
export function vocabularySql(): Prisma.Sql {
  return Prisma.sql`
    SELECT coalesce(array_agg(v.word), '{}') AS words, coalesce(array_agg(v.docs), '{}') AS docs,
           coalesce(array_agg(l.word IS NOT NULL), '{}') AS listed,
           (SELECT coalesce(array_agg(rtrim(p.word, '*')), '{}') FROM imagery_word_lists p WHERE right(p.word, 1) = '*') AS prefixes,
           greatest((SELECT reltuples FROM pg_class WHERE oid = 'imagery'::regclass), max(v.docs), 0)::float8 AS rows
    FROM imagery_words v LEFT JOIN imagery_word_lists l ON l.word = v.word
    WHERE v.docs > 0`;
}

// KNN on the trigram GiST index of the vocabulary (imagery_words_trgm_idx): per word, the
// vocabulary words nearest to it, nearest first. Only words the vocabulary in memory does not hold
// are sent (see SearchService). Not pruned by similarity (word % typed, pg_trgm's 0.3): that lost
// swapped letters in short words ("Rfuus" for "Rufus"; docs/benchmarks.md#fig-typo-candidates).
// Words tied with the last one are all read (WITH TIES) and cut alphabetically, so that every copy of
// the vocabulary (a replica, a restored dump, a Citus reference table) offers the same candidates; an
// ORDER BY distance, word in the probe itself would sort the whole vocabulary.
export function wordCandidatesSql(words: string[]): Prisma.Sql {
  return Prisma.sql`
    SELECT q.typed, w.word
    FROM unnest(${words}::text[]) WITH ORDINALITY AS q(typed, n)
    CROSS JOIN LATERAL (
      SELECT t.word, t.d
      FROM (
        SELECT v.word, v.word <-> q.typed AS d
        FROM imagery_words v
        WHERE v.docs > 0
        ORDER BY v.word <-> q.typed
        FETCH FIRST ${WORD_CANDIDATES} ROWS WITH TIES
      ) t
      ORDER BY t.d, t.word
      LIMIT ${WORD_CANDIDATES}
    ) w
    ORDER BY q.n, w.d, w.word`;
}
