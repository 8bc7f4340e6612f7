import { Prisma } from '@prisma/client';
import { PageWindow, SCORE_CAP } from '../paging/search-limits';
import { RankedListChoice } from '../planning/index-choice';
import {
  HeadTailSearch,
  notPinned,
  pageCteSql,
  pageRowsSql,
  pinnedRowsSql,
  pinsFillSql,
  tailLimitSql,
} from './page-strategies.sql';

// Relevance without filters for a query with many matches (see rankedListChoice): the head is the
// best SCORE_CAP records of the words' ranked lists (imagery_word_ranks, read from its index; a record
// in two lists by its better score; for several words, those that hold the others too), ranked with
// the pinned rows by score; every other match
// follows in table order (the GIN bitmap's), as in headTailPageSql. A page within the head reads list
// entries and its own rows only, however many records the word matches; the total is the
// vocabulary's estimate, never counted (reported as what is known to exist: see matchTotal). The
// lists' scores are the scores a search for each word gives (lis_rank_score), shown as the head
// rows' scores. A page the pinned rows fill (they rank first) reads no list: reading it was much of
// such a page's statement (docs/benchmarks.md#fig-list-pinned-page).
export function rankedListPageSql(window: PageWindow, search: HeadTailSearch, lists: RankedListChoice): Prisma.Sql {
  // The total is estimated, so not reported (see matchTotal): the page reads one row more, to say
  // whether another page follows.
  const paged = { ...window, limit: window.limit + 1 };
  const pinsFill = pinsFillSql(paged, search);
  return Prisma.sql`
    WITH pinned AS MATERIALIZED (${pinnedRowsSql(search)}),
    listed AS (
      SELECT r.imagery_id AS id, max(r.score)::float8 AS score
      FROM imagery_word_ranks r
      WHERE r.word = ANY (${lists.words}::text[]) ${notPinned(search, Prisma.sql`r.imagery_id`)}
        ${pinsFill ? Prisma.sql`AND NOT ${pinsFill}` : Prisma.empty}
      GROUP BY r.imagery_id
    ),
    head AS MATERIALIZED (${
      lists.checked
        ? Prisma.sql`SELECT l.id, l.score FROM listed l JOIN imagery i ON i.id = l.id WHERE ${search.found}`
        : Prisma.sql`SELECT l.id, l.score FROM listed l`
    }
      ORDER BY score DESC, id
      LIMIT ${SCORE_CAP}
    ),
    ranked AS MATERIALIZED (
      SELECT r.id, r.score, row_number() OVER (ORDER BY r.score DESC, r.id) AS pos
      FROM (SELECT id, score FROM head UNION ALL SELECT id, score FROM pinned) r
    ),
    counted AS MATERIALIZED (
      SELECT n.ranked, greatest(n.ranked, ${lists.floor}) AS known, greatest(n.ranked, ${Math.min(lists.estimate, search.cap + 1)}) AS total
      FROM (SELECT (SELECT count(*) FROM ranked)::int AS ranked) n
    ),
    ${pageCteSql(paged, Prisma.sql`SELECT i.id FROM imagery i WHERE ${search.found} AND i.id NOT IN (SELECT id FROM ranked)${tailLimitSql(paged, search)}`)}
    SELECT t.total, (SELECT coalesce(bool_or(code_match), false) FROM pinned) AS "codeMatched", true AS estimated, t.known, p.*
    FROM counted t
    ${pageRowsSql(search)}`;
}
