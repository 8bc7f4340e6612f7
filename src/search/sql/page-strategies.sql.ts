import { Prisma } from '@prisma/client';
import { SearchPlan } from '../planning/search-planner';
import { SortOrder } from '../dto/search-filters.dto';
import { PageWindow, SCORE_CAP } from '../paging/search-limits';
import { filterConditions } from './filter-conditions.sql';
import { distanceSql } from './spatial.sql';

// How a page of matches is read, by strategy: sorted (an index order), ranked (relevance with
// filters) and head-and-tail (relevance without filters). Alias i is always imagery.
export const ROW_COLUMNS = Prisma.sql`i.id, i.address, to_char(i.captured_at, 'YYYY-MM-DD') AS "capturedAt", i.heading,
  i.interactive, i.image_url AS "imageUrl", ST_X(i.location) AS lon, ST_Y(i.location) AS lat,
  i.place_id AS "placeId", i.locality_id AS "localityId"`;

interface SortColumns {
  score: Prisma.Sql;
  distance: Prisma.Sql;
  capturedAt: Prisma.Sql;
  id: Prisma.Sql;
}

// Columns of the page rows (p) that the outer query re-sorts by.
const OUTER: SortColumns = {
  score: Prisma.sql`p.score`,
  distance: Prisma.sql`p.distance`,
  capturedAt: Prisma.sql`p."capturedAt"`,
  id: Prisma.sql`p.id`,
};

// Every order ends with the id, so equal keys never swap between pages. newest breaks ties by id
// descending so one backward scan of imagery_captured_at_idx (captured_at, id) serves it.
function orderSql(sort: SortOrder, c: SortColumns): Prisma.Sql {
  switch (sort) {
    case 'relevance':
      return Prisma.sql`${c.score} DESC, ${c.distance} ASC NULLS LAST, ${c.id}`;
    case 'distance':
      return Prisma.sql`${c.distance} ASC NULLS LAST, ${c.id}`;
    case 'newest':
      return Prisma.sql`${c.capturedAt} DESC, ${c.id} DESC`;
    case 'oldest':
      return Prisma.sql`${c.capturedAt} ASC, ${c.id} ASC`;
  }
}

export interface TextSearch {
  /** Which rows match (alias i); null: the filters alone. */
  match: Prisma.Sql | null;
  /** Relevance of a row (alias i). */
  score: Prisma.Sql;
  codeMatch: Prisma.Sql;
  /** Rows ranked whatever their position among the matches (alias i): code matches, the named places' records. */
  alwaysRanked?: Prisma.Sql;
  /** Matches counted at most (cap + 1 are read, so "more than cap" is known). */
  cap: number;
  /**
   * Every column of i that `score` and `alwaysRanked` read, when they read no other: a ranked row equal to
   * the one before it in these takes its score (see rankedPageSql).
   */
  scoreReads?: Prisma.Sql[];
}

// Orders other than relevance: every match in that order, which an index often walks (captured_at
// for newest and oldest); the count stops after cap + 1 matches.
export function sortedPageSql(window: PageWindow, plan: SearchPlan, search: TextSearch): Prisma.Sql {
  const where = Prisma.join([...(search.match ? [search.match] : []), ...filterConditions(plan.filters)], ' AND ');
  const distance = distanceSql(plan.anchor);
  return Prisma.sql`
    SELECT t.total, t.code_matched AS "codeMatched", p.*
    FROM (
      SELECT count(*)::int AS total, coalesce(bool_or(c.code_match), false) AS code_matched
      FROM (SELECT ${search.codeMatch} AS code_match FROM imagery i WHERE ${where} LIMIT ${search.cap + 1}) c
    ) t
    LEFT JOIN LATERAL (
      SELECT ${ROW_COLUMNS}, (${search.score})::float8 AS score, ${distance}::float8 AS distance
      FROM imagery i
      WHERE ${where}
      ORDER BY ${orderSql(plan.sort, { score: search.score, distance, capturedAt: Prisma.sql`i.captured_at`, id: Prisma.sql`i.id` })}
      LIMIT ${window.limit} OFFSET ${window.offset}
    ) p ON true
    ORDER BY ${orderSql(plan.sort, OUTER)}`;
}

// Relevance with filters: the first cap + 1 matches found are counted; of those, the first
// SCORE_CAP (and every code match) are ranked by score, the rest follow in the order found (their
// score is still computed for the page, for `include: score`). Full rows are read for the page's rows only.
export function rankedPageSql(window: PageWindow, plan: SearchPlan, search: TextSearch): Prisma.Sql {
  const where = Prisma.join([...(search.match ? [search.match] : []), ...filterConditions(plan.filters)], ' AND ');
  const ranked = Prisma.sql`row_number() OVER () <= ${SCORE_CAP} OR ${search.alwaysRanked ?? search.codeMatch}`;
  const found = search.scoreReads
    ? foundScoredOnceSql(where, plan, search, ranked, search.scoreReads)
    : Prisma.sql`found AS MATERIALIZED (
      SELECT i.id, row_number() OVER () AS seq, ${search.codeMatch} AS code_match,
             ${distanceSql(plan.anchor)}::float8 AS distance,
             CASE WHEN ${ranked} THEN (${search.score})::float8 END AS score
      FROM imagery i WHERE ${where} LIMIT ${search.cap + 1}
    )`;
  return Prisma.sql`
    WITH ${found}
    SELECT t.total, t.code_matched AS "codeMatched", p.*
    FROM (SELECT count(*)::int AS total, coalesce(bool_or(code_match), false) AS code_matched FROM found) t
    LEFT JOIN LATERAL (
      SELECT ${ROW_COLUMNS}, coalesce(m.score, (${search.score})::float8) AS score, m.distance, m.seq, m.score AS ranked
      FROM (
        SELECT * FROM found m WHERE m.seq <= ${search.cap}
        ORDER BY m.score DESC NULLS LAST, CASE WHEN m.score IS NULL THEN m.seq END, m.distance ASC NULLS LAST, m.id
        LIMIT ${window.limit} OFFSET ${window.offset}
      ) m JOIN imagery i ON i.id = m.id
    ) p ON true
    ORDER BY p.ranked DESC NULLS LAST, CASE WHEN p.ranked IS NULL THEN p.seq END, p.distance ASC NULLS LAST, p.id`;
}

// rankedPageSql's matches (CTE found) with each score computed once per run of equal rows: where imagery
// is dense, consecutive matches are mostly images of one address, and the score (a trigram similarity
// first) is most of the statement. A ranked row equal to the one before it in every column the score
// reads (search.scoreReads) has that row's score; that row is ranked too (both are within SCORE_CAP, or
// both always ranked, which those columns decide). The run's first row is scored, the others take its
// score (a run is counted by the rows that start one). Same rows, scores and order as scoring each row.
function foundScoredOnceSql(
  where: Prisma.Sql,
  plan: SearchPlan,
  search: TextSearch,
  ranked: Prisma.Sql,
  reads: Prisma.Sql[],
): Prisma.Sql {
  const same = Prisma.join(
    reads.map((c) => Prisma.sql`${c} IS NOT DISTINCT FROM lag(${c}) OVER ()`),
    ' AND ',
  );
  return Prisma.sql`scanned AS MATERIALIZED (
      SELECT i.id, row_number() OVER () AS seq, ${search.codeMatch} AS code_match,
             ${distanceSql(plan.anchor)}::float8 AS distance, (${ranked}) IS TRUE AS ranked,
             row_number() OVER () > 1 AND ${same} AS repeated,
             CASE WHEN (${ranked}) IS TRUE AND NOT (row_number() OVER () > 1 AND ${same})
               THEN (${search.score})::float8 END AS score
      FROM imagery i WHERE ${where} LIMIT ${search.cap + 1}
    ),
    found AS MATERIALIZED (
      SELECT r.id, r.seq, r.code_match, r.distance, max(r.score) OVER (PARTITION BY r.run) AS score
      FROM (
        SELECT s.*, count(*) FILTER (WHERE NOT s.repeated) OVER (ORDER BY s.seq ROWS UNBOUNDED PRECEDING) AS run
        FROM scanned s WHERE s.ranked
      ) r
      UNION ALL
      SELECT s.id, s.seq, s.code_match, s.distance, NULL FROM scanned s WHERE NOT s.ranked
    )`;
}

// The pinned rows (id, code_match, score), scored; the CTE `pinned` of the head-and-tail strategies.
export function pinnedRowsSql(search: HeadTailSearch): Prisma.Sql {
  return search.pinned
    ? Prisma.sql`SELECT DISTINCT ON (x.id) x.id, x.code_match, (${search.pinnedScore})::float8 AS score
        FROM (${search.pinned}) x JOIN imagery i ON i.id = x.id ORDER BY x.id, x.code_match DESC`
    : Prisma.sql`SELECT NULL::uuid AS id, false AS code_match, NULL::float8 AS score WHERE false`;
}

// Whether the pinned rows fill the page (they rank above every other match), or null without pinned
// rows: then the matches past them need not be read for the page.
export const pinsFillSql = (window: PageWindow, search: HeadTailSearch) =>
  search.pinned ? Prisma.sql`(SELECT count(*) FROM pinned) >= ${window.offset + window.limit}` : null;

// Leaves out the pinned rows, which are ranked on their own (alias i).
export const notPinned = (search: HeadTailSearch, column = Prisma.sql`i.id`) =>
  search.pinned ? Prisma.sql`AND ${column} NOT IN (SELECT id FROM pinned)` : Prisma.empty;

export interface HeadTailSearch extends TextSearch {
  /**
   * Relevance of a pinned row (alias i): `score` plus what its named place adds. Every pinned row
   * ranks above every other match (a place adds 30 or more, a code match 10, text at most 4).
   */
  pinnedScore: Prisma.Sql;
  /** The matches that are not code matches (alias i): a tsvector test alone, read in table order. */
  found: Prisma.Sql;
  /**
   * Rows ranked before the head whatever their position, or null: a statement listing (id, code_match)
   * of the code matches (SCORE_CAP at most) and of the records of the places the query names
   * (PINNED_RECORDS_CAP at most).
   */
  pinned: Prisma.Sql | null;
  /** Statistics show far more matches than the cap: then they are not counted. */
  broad: boolean;
  /**
   * imagery is distributed (Citus): the page's steps take the forms Citus plans (docs/scaling.md#citus):
   * no subquery beside the head's window function, the tail read with a constant LIMIT.
   */
  distributed?: boolean;
  /**
   * Matches estimated from the vocabulary, or null. With one, a page the pinned rows fill (they rank
   * above every other match, as with ranked lists) does not read the head: the total is this
   * estimate (the pinned rows are mostly among the matches it counts), or the pinned rows if more.
   */
  estimate?: number | null;
}

// Relevance without filters, where a word may match half the catalogue: the first SCORE_CAP matches
// found (the head) and the pinned rows (code matches, the named places' records) are ranked by score;
// the rest (the tail) follow in the order found, which is table order for a GIN bitmap and a
// sequential scan alike. One scan reads the matches up to the count cap, scoring the first SCORE_CAP:
// the head and the count used to be two scans, and a query with a few more matches than the head
// read its matches twice (docs/benchmarks.md#fig-one-scan). A broad query
// (see shapeTextQuery), whose count would reach the cap anyway, reads only the head and is not
// counted; its tail is an OFFSET into the same scan again: a constant one (SCORE_CAP) on the scan
// itself, so the planner sees how few rows a page reads and keeps the GIN bitmap (an expression
// there made it guess a tenth of the matches and read all of imagery).
export function headTailPageSql(window: PageWindow, search: HeadTailSearch): Prisma.Sql {
  const found = Prisma.sql`${search.found} ${notPinned(search)}`;
  const read = search.broad ? SCORE_CAP + 1 : search.cap + 1;
  const tail = search.broad
    ? Prisma.sql`SELECT i.id FROM imagery i WHERE (SELECT head FROM sizes) > ${SCORE_CAP} AND ${found} OFFSET ${SCORE_CAP}${tailLimitSql(window, search)}`
    : Prisma.sql`SELECT h.id FROM head h WHERE h.seq > ${SCORE_CAP} ORDER BY h.seq`;
  // The pinned rows fill the page: the head is not read (a one-time filter above its scan) and the
  // total is estimated. A named place's records cost little; the other matches of its words can cost
  // most of the statement (docs/benchmarks.md#fig-pinned-fill).
  // Without an estimate (in a region) the head is not read either, and a scan of the matches' ids alone
  // counts them: numbering and keeping the head's rows (the score's columns with them) cost more than
  // that scan (docs/benchmarks.md#fig-count-alternative). The head and the count are then one-time
  // filtered alternatives.
  // An estimated total is not reported (see matchTotal): the page reads one row more, to say whether
  // another page follows.
  const paged = search.estimate != null ? { ...window, limit: window.limit + 1 } : window;
  const pinsFill = pinsFillSql(paged, search);
  const skipHead = search.estimate != null ? pinsFill : null;
  const countOnly = skipHead === null && !search.distributed ? pinsFill : null;
  const unscored = skipHead === null && pinsFill ? Prisma.sql`AND NOT ${pinsFill}` : Prisma.empty;
  // Citus pushes no subquery down beside a window function: with imagery distributed the head reads
  // whether the pinned rows fill the page from a one-row join instead.
  const fill = search.distributed && skipHead === null && pinsFill;
  const headUnscored = fill ? Prisma.sql`AND NOT f.fill` : unscored;
  const headFrom = fill ? Prisma.sql`imagery i CROSS JOIN (SELECT ${pinsFill} AS fill) f` : Prisma.sql`imagery i`;
  const skipped = skipHead ?? countOnly;
  const headCount = countOnly
    ? Prisma.sql`((SELECT count(*) FROM head) + (SELECT count(*) FROM (SELECT FROM imagery i WHERE ${found} AND ${countOnly} LIMIT ${read}) c))`
    : Prisma.sql`(SELECT count(*) FROM head)`;
  const total = Prisma.sql`s.pinned + CASE WHEN s.head > ${SCORE_CAP} AND ${search.broad} THEN ${search.cap + 1} ELSE s.head END`;
  return Prisma.sql`
    WITH pinned AS MATERIALIZED (${pinnedRowsSql(search)}),
    head AS MATERIALIZED (
      SELECT i.id, row_number() OVER () AS seq,
             CASE WHEN row_number() OVER () <= ${SCORE_CAP} ${headUnscored} THEN (${search.score})::float8 END AS score
      FROM ${headFrom} WHERE ${found} ${skipped ? Prisma.sql`AND NOT ${skipped}` : Prisma.empty} LIMIT ${read}
    ),
    sizes AS MATERIALIZED (
      SELECT ${headCount}::int AS head, (SELECT count(*) FROM pinned)::int AS pinned,
             (SELECT coalesce(bool_or(code_match), false) FROM pinned) AS code_matched
    ),
    counted AS MATERIALIZED (
      SELECT ${skipHead ? Prisma.sql`CASE WHEN ${skipHead} THEN greatest(s.pinned, ${Math.min(search.estimate!, search.cap + 1)}) ELSE ${total} END` : total} AS total,
        least(s.head, ${SCORE_CAP}) + s.pinned AS ranked
      FROM sizes s
    ),
    ranked AS MATERIALIZED (
      SELECT r.id, r.score, row_number() OVER (ORDER BY r.score DESC, r.id) AS pos
      FROM (SELECT id, score FROM head WHERE seq <= ${SCORE_CAP} ${unscored} UNION ALL SELECT id, score FROM pinned) r
    ),
    ${pageCteSql(paged, tail)}
    SELECT t.total, (SELECT code_matched FROM sizes) AS "codeMatched", ${skipHead ?? Prisma.sql`false`} AS estimated,
      t.ranked AS known, p.*
    FROM counted t
    ${pageRowsSql(search)}`;
}

// With imagery distributed, a tail read from imagery stops at the rows a page can take from it (offset +
// limit: the page skips and takes fewer, as the ranked rows come first): Citus reads no OFFSET or LIMIT
// given by a subquery over a scan of a distributed table ("subquery in OFFSET is not supported in
// multi-shard queries"), but reads a constant one on each shard, and the page's own OFFSET and LIMIT then
// apply to its result. On one server the scan stays as it is (its plan: see headTailPageSql).
export const tailLimitSql = (window: PageWindow, search: HeadTailSearch) =>
  search.distributed ? Prisma.sql` LIMIT ${window.offset + window.limit}` : Prisma.empty;

// The head-and-tail strategies' page (CTE `page`: id, score, pos): the rows of `ranked` (id, score,
// pos) in the window, then the tail's ids (a statement in table order) after the ranked ones, each
// counted from `counted.ranked`. An OFFSET/LIMIT above the tail, so a page within the head never
// runs it.
export function pageCteSql(window: PageWindow, tail: Prisma.Sql): Prisma.Sql {
  const { limit, offset } = window;
  return Prisma.sql`page AS MATERIALIZED (
      SELECT r.id, r.score, r.pos FROM ranked r WHERE r.pos > ${offset} AND r.pos <= ${offset + limit}
      UNION ALL
      SELECT t.id, NULL, (SELECT ranked FROM counted) + t.n
      FROM (
        SELECT x.id, row_number() OVER () AS n
        FROM (${tail}) x
        OFFSET greatest(0, ${offset} - (SELECT ranked FROM counted))
        LIMIT greatest(0, ${offset + limit} - greatest(${offset}, (SELECT ranked FROM counted)))
      ) t
    )`;
}

// The page's full rows, in page order (the tail's rows scored here, for `include: score`).
export function pageRowsSql(search: TextSearch): Prisma.Sql {
  return Prisma.sql`LEFT JOIN LATERAL (
      SELECT ${ROW_COLUMNS}, coalesce(pg.score, (${search.score})::float8) AS score, NULL::float8 AS distance, pg.pos
      FROM page pg JOIN imagery i ON i.id = pg.id
    ) p ON true
    ORDER BY p.pos`;
}
