import { Injectable } from '@nestjs/common';
import { Prisma } from '@prisma/client';
import { PrismaService } from '../database/prisma.service';
import { circleBounds, LatLon } from './coordinates';
import { NO_FILTERS, SearchFilters, SearchPlan } from './search-filters';
import { SortOrder } from './search-filters.dto';
import { TextQuery } from './search-query';
import { PLAIN_SHAPE, shapeTextQuery, WordStatistics } from './word-statistics';

export interface SearchRow {
  id: string;
  address: string;
  capturedAt: string;
  heading: number;
  interactive: boolean;
  imageUrl: string;
  lon: number;
  lat: number;
  score: number;
  /** Metres from the plan's anchor point (sphere); null without one. */
  distance: number | null;
}

export interface SearchPage {
  total: number;
  /** False when counting stopped at COUNT_CAP. */
  totalExact: boolean;
  /** Some match is a location code equal to the query. */
  codeMatched: boolean;
  rows: SearchRow[];
}

export interface PageWindow {
  limit: number;
  offset: number;
}

// Searches count their matches up to this many (and say when there are more). Equal to the deepest
// page a request may ask for (page * limit <= 10,000).
export const COUNT_CAP = 10_000;
// Text searches rank the first this many matches found by score; further matches follow in table order.
export const SCORE_CAP = 1_000;
const STATISTICS_MAX_AGE_MS = 60_000;
// Vocabulary words fetched per misspelt query word (nearest by trigram distance).
export const WORD_CANDIDATES = 20;

// All imagery search SQL. Raw SQL because Prisma's query builder cannot express full-text,
// trigram or PostGIS operators; every value is a bound parameter.
@Injectable()
export class SearchRepository {
  // Read at most once a minute per process: ANALYZE (after imports, and autovacuum's) changes them.
  private statistics?: { readAt: number; value: Promise<WordStatistics> };

  constructor(private readonly prisma: PrismaService) {}

  async searchFullText(query: TextQuery, window: PageWindow, plan: SearchPlan = NO_FILTERS): Promise<SearchPage> {
    const shape = shapeTextQuery(query, await this.wordStatistics(), COUNT_CAP);
    return this.run(SearchRepository.fullTextSql(query, window, plan, shape), COUNT_CAP);
  }

  wordStatistics(now = Date.now()): Promise<WordStatistics> {
    if (!this.statistics || now - this.statistics.readAt > STATISTICS_MAX_AGE_MS) {
      const value = this.rawQueryStatistics().catch((error) => {
        this.statistics = undefined; // a failed read is retried by the next search
        throw error;
      });
      this.statistics = { readAt: now, value };
    }
    return this.statistics.value;
  }

  private async rawQueryStatistics(): Promise<WordStatistics> {
    const [row] = await this.prisma.rawQuery<{ words: string[] | null; freqs: number[] | null; rows: number }>(
      SearchRepository.wordStatisticsSql(),
    );
    const frequencies = new Map<string, number>();
    (row?.words ?? []).forEach((word, i) => frequencies.set(word, row.freqs![i]));
    return { frequencies, rows: row?.rows ?? 0 };
  }

  // The tsvector column's most common words and their shares (pg_stats; readable by any role that
  // may read the column), and the row count estimate.
  static wordStatisticsSql(): Prisma.Sql {
    return Prisma.sql`
      SELECT s.most_common_elems::text::text[] AS words, s.most_common_elem_freqs::float8[] AS freqs,
             greatest((SELECT reltuples FROM pg_class WHERE oid = 'imagery'::regclass), 0)::float8 AS rows
      FROM (SELECT 1) one
      LEFT JOIN pg_stats s ON s.schemaname = current_schema() AND s.tablename = 'imagery' AND s.attname = 'address_tsv'`;
  }

  searchFuzzy(query: TextQuery, window: PageWindow, plan: SearchPlan = NO_FILTERS): Promise<SearchPage> {
    return this.run(SearchRepository.fuzzySql(query, window, plan), SCORE_CAP);
  }

  // Nearest first: count, then fetch the page from the k nearest (see nearestPageSql). Other orders:
  // one statement.
  async searchArea(window: PageWindow, plan: SearchPlan): Promise<SearchPage> {
    if (plan.sort !== 'distance' || plan.anchor === null) return this.run(SearchRepository.areaSql(window, plan), COUNT_CAP);
    const [{ total: counted }] = await this.prisma.rawQuery<{ total: number }>(SearchRepository.areaCountSql(plan));
    const total = Math.min(counted, COUNT_CAP);
    const page: SearchPage = { total, totalExact: counted <= COUNT_CAP, codeMatched: false, rows: [] };
    const k = Math.min(window.offset + window.limit, total);
    if (k <= window.offset) return page;
    page.rows = await this.prisma.rawQuery<SearchRow>(SearchRepository.nearestPageSql(window, plan, k));
    return page;
  }

  // Per word, the vocabulary words nearest to it by trigram distance, nearest first.
  async wordCandidates(words: string[]): Promise<Map<string, string[]>> {
    const out = new Map<string, string[]>();
    if (words.length === 0) return out;
    const rows = await this.prisma.rawQuery<{ typed: string; word: string }>(SearchRepository.wordCandidatesSql(words));
    for (const { typed, word } of rows) out.set(typed, [...(out.get(typed) ?? []), word]);
    return out;
  }

  // Full-text match on the generated tsvector (GIN index imagery_address_tsv_idx), or an address
  // that is the query as a location code (btree imagery_address_code_idx); code matches rank first.
  static fullTextSql(query: TextQuery, window: PageWindow, plan: SearchPlan = NO_FILTERS, shape = PLAIN_SHAPE): Prisma.Sql {
    const norm = Prisma.sql`lis_normalize(${query.text})`;
    // Split (see shapeTextQuery): the index looks up all words but the last and the whole query (its
    // last word a prefix) filters what it finds, as GIN cannot skip through a prefix and a common
    // one ("states") would list half the index. coalesce() keeps the planner from indexing it.
    const tsv =
      query.tsqueryLeading === null || !shape.splitPrefix
        ? Prisma.sql`i.address_tsv @@ to_tsquery('simple', ${query.tsquery})`
        : Prisma.sql`i.address_tsv @@ to_tsquery('simple', ${query.tsqueryLeading})
          AND coalesce(i.address_tsv @@ to_tsquery('simple', ${query.tsquery}), false)`;
    const isCode = query.code === null ? null : Prisma.sql`coalesce(i.address_code = ${query.code}, false)`;
    const search: TextSearch = {
      match: isCode ? Prisma.sql`(${tsv} OR i.address_code = ${query.code})` : tsv,
      score: Prisma.sql`similarity(i.address_norm, ${norm})
        + CASE WHEN ${isCode ?? Prisma.sql`false`} THEN 10 ELSE 0 END
        + CASE WHEN i.address_norm = ${norm} THEN 2 ELSE 0 END
        + CASE WHEN starts_with(i.address_norm, ${norm}) THEN 0.5 ELSE 0 END
        + CASE WHEN i.address_tsv @@ to_tsquery('simple', ${query.tsqueryExact}) THEN 0.5 ELSE 0 END`,
      codeMatch: isCode ?? Prisma.sql`false`,
      cap: COUNT_CAP,
    };
    if (plan.sort !== 'relevance') return sortedPageSql(window, plan, search);
    if (!isUnfiltered(plan)) return rankedPageSql(window, plan, search);
    return headTailPageSql(window, {
      ...search,
      found: tsv,
      codes: query.code === null ? null : Prisma.sql`i.address_code = ${query.code}`,
      broad: shape.broad,
    });
  }

  // Trigram word similarity for misspellings (GIN index imagery_address_norm_trgm_idx). Only the
  // first SCORE_CAP matches found are counted and ranked: past that, similar-looking is noise.
  static fuzzySql(query: TextQuery, window: PageWindow, plan: SearchPlan = NO_FILTERS): Prisma.Sql {
    const norm = Prisma.sql`lis_normalize(${query.text})`;
    const search: TextSearch = {
      match: Prisma.sql`${norm} <% i.address_norm`,
      score: Prisma.sql`word_similarity(${norm}, i.address_norm) + similarity(i.address_norm, ${norm})`,
      codeMatch: Prisma.sql`false`,
      cap: SCORE_CAP,
    };
    return plan.sort === 'relevance' ? rankedPageSql(window, plan, search) : sortedPageSql(window, plan, search);
  }

  // No text: the filters alone (a circle or a bbox is always among them, so the geometry GiST index
  // applies), in one statement: count (stopping after COUNT_CAP + 1 rows) and page. Used for newest
  // and oldest (imagery_captured_at_idx serves wide areas); nearest first goes through
  // areaCountSql and nearestPageSql instead.
  static areaSql(window: PageWindow, plan: SearchPlan): Prisma.Sql {
    return sortedPageSql(window, plan, { match: null, score: Prisma.sql`0`, codeMatch: Prisma.sql`false`, cap: COUNT_CAP });
  }

  static areaCountSql(plan: SearchPlan): Prisma.Sql {
    const where = Prisma.join(filterConditions(plan.filters), ' AND ');
    return Prisma.sql`SELECT count(*)::int AS total FROM (SELECT 1 FROM imagery i WHERE ${where} LIMIT ${COUNT_CAP + 1}) c`;
  }

  // The page of a nearest-first search, given k = the position of its last row (at most the number
  // of matches, so the scan never has to look beyond the radius). First the distance of the k-th
  // nearest match, by a KNN walk of the geography GiST index (ORDER BY <-> alone: PostgreSQL cannot
  // add the id tie-break to an index-ordered KNN scan); then every match up to that distance, which
  // a bitmap scan of the same index finds, ordered by distance and id so ties never swap pages.
  static nearestPageSql(window: PageWindow, plan: SearchPlan, k: number): Prisma.Sql {
    const anchor = plan.anchor!;
    const where = Prisma.join(filterConditions(plan.filters), ' AND ');
    const distance = distanceSql(anchor);
    return Prisma.sql`
      WITH kth AS MATERIALIZED (
        SELECT max(n.d) AS d
        FROM (SELECT ${distance} AS d FROM imagery i WHERE ${where} ORDER BY ${distance} LIMIT ${k}) n
      )
      SELECT ${ROW_COLUMNS}, 0::float8 AS score, ${distance}::float8 AS distance
      FROM imagery i, kth
      WHERE ${where}
        AND ST_DWithin(i.location::geography, ${geography(anchor)}, kth.d + 1, false)
        AND ${distance} <= kth.d
      ORDER BY ${distance}, i.id
      LIMIT ${window.limit} OFFSET ${window.offset}`;
  }

  // KNN on the trigram GiST index of the vocabulary (imagery_words_trgm_idx), per word the
  // vocabulary does not hold as it is (a few milliseconds each; a known word is spelt right).
  static wordCandidatesSql(words: string[]): Prisma.Sql {
    return Prisma.sql`
      SELECT q.typed, w.word
      FROM unnest(${words}::text[]) WITH ORDINALITY AS q(typed, n)
      CROSS JOIN LATERAL (
        SELECT v.word, v.word <-> q.typed AS d
        FROM imagery_words v
        ORDER BY v.word <-> q.typed
        LIMIT ${WORD_CANDIDATES}
      ) w
      WHERE NOT EXISTS (SELECT 1 FROM imagery_words k WHERE k.word = q.typed)
      ORDER BY q.n, w.d, w.word`;
  }

  // The statement counts up to cap + 1 matches; more than cap means "at least cap".
  private async run(sql: Prisma.Sql, cap: number): Promise<SearchPage> {
    const rows = await this.prisma.rawQuery<{ total: number; codeMatched: boolean; seq?: number; pos?: number; ranked?: number } & Partial<SearchRow>>(sql);
    const counted = rows[0]?.total ?? 0;
    const exceeded = counted > cap;
    return {
      total: exceeded ? cap : counted,
      totalExact: !exceeded,
      codeMatched: rows[0]?.codeMatched ?? false,
      rows: rows
        .filter((r) => r.id !== null && r.id !== undefined)
        .map(({ total: _t, codeMatched: _c, seq: _s, pos: _p, ranked: _r, ...row }) => row as SearchRow),
    };
  }
}

const ROW_COLUMNS = Prisma.sql`i.id, i.address, to_char(i.captured_at, 'YYYY-MM-DD') AS "capturedAt", i.heading,
  i.interactive, i.image_url AS "imageUrl", ST_X(i.location) AS lon, ST_Y(i.location) AS lat`;

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

interface TextSearch {
  /** Which rows match (alias i); null: the filters alone. */
  match: Prisma.Sql | null;
  /** Relevance of a row (alias i). */
  score: Prisma.Sql;
  codeMatch: Prisma.Sql;
  /** Matches counted at most (cap + 1 are read, so "more than cap" is known). */
  cap: number;
}

const isUnfiltered = (plan: SearchPlan) => plan.anchor === null && filterConditions(plan.filters).length === 0;

// Orders other than relevance: every match in that order, which an index often walks (captured_at
// for newest and oldest); the count stops after cap + 1 matches.
function sortedPageSql(window: PageWindow, plan: SearchPlan, search: TextSearch): Prisma.Sql {
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
function rankedPageSql(window: PageWindow, plan: SearchPlan, search: TextSearch): Prisma.Sql {
  const where = Prisma.join([...(search.match ? [search.match] : []), ...filterConditions(plan.filters)], ' AND ');
  return Prisma.sql`
    WITH found AS MATERIALIZED (
      SELECT i.id, row_number() OVER () AS seq, ${search.codeMatch} AS code_match,
             ${distanceSql(plan.anchor)}::float8 AS distance,
             CASE WHEN row_number() OVER () <= ${SCORE_CAP} OR ${search.codeMatch} THEN (${search.score})::float8 END AS score
      FROM imagery i WHERE ${where} LIMIT ${search.cap + 1}
    )
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

interface HeadTailSearch extends TextSearch {
  /** The matches that are not code matches (alias i): a tsvector test alone, read in table order. */
  found: Prisma.Sql;
  /** Code matches (alias i), or null. */
  codes: Prisma.Sql | null;
  /** Statistics show far more matches than the cap: then they are not counted. */
  broad: boolean;
}

// Relevance without filters, where a word may match half the catalogue: the first SCORE_CAP matches
// found (the head) and the code matches are ranked by score; the rest (the tail) follow in the order
// found, which is table order for a GIN bitmap and a sequential scan alike, so a page past the head
// is an OFFSET into the same scan. Counting up to the cap is skipped for a broad query (see
// shapeTextQuery), whose count would reach it anyway.
function headTailPageSql(window: PageWindow, search: HeadTailSearch): Prisma.Sql {
  const notCode = search.codes ? Prisma.sql`AND NOT ${search.codeMatch}` : Prisma.empty;
  const found = Prisma.sql`${search.found} ${notCode}`;
  const codes = search.codes
    ? Prisma.sql`SELECT i.id, (${search.score})::float8 AS score FROM imagery i WHERE ${search.codes} LIMIT ${SCORE_CAP}`
    : Prisma.sql`SELECT NULL::uuid AS id, NULL::float8 AS score WHERE false`;
  const { limit, offset } = window;
  return Prisma.sql`
    WITH head AS MATERIALIZED (
      SELECT i.id, row_number() OVER () AS seq,
             CASE WHEN row_number() OVER () <= ${SCORE_CAP} THEN (${search.score})::float8 END AS score
      FROM imagery i WHERE ${found} LIMIT ${SCORE_CAP + 1}
    ),
    codes AS MATERIALIZED (${codes}),
    sizes AS MATERIALIZED (
      SELECT (SELECT count(*) FROM head)::int AS head, (SELECT count(*) FROM codes)::int AS codes
    ),
    counted AS MATERIALIZED (
      SELECT s.codes + CASE
          WHEN s.head <= ${SCORE_CAP} THEN s.head
          WHEN ${search.broad} THEN ${search.cap + 1}
          ELSE (SELECT count(*)::int FROM (SELECT 1 FROM imagery i WHERE ${found} LIMIT ${search.cap + 1}) c)
        END AS total,
        least(s.head, ${SCORE_CAP}) + s.codes AS ranked
      FROM sizes s
    ),
    ranked AS MATERIALIZED (
      SELECT r.id, r.score, row_number() OVER (ORDER BY r.score DESC, r.id) AS pos
      FROM (SELECT id, score FROM head WHERE seq <= ${SCORE_CAP} UNION ALL SELECT id, score FROM codes) r
    ),
    page AS MATERIALIZED (
      SELECT r.id, r.score, r.pos FROM ranked r WHERE r.pos > ${offset} AND r.pos <= ${offset + limit}
      UNION ALL
      SELECT t.id, NULL, (SELECT ranked FROM counted) + greatest(0, ${offset} - (SELECT ranked FROM counted)) + t.n
      FROM (
        SELECT i.id, row_number() OVER () AS n FROM imagery i
        WHERE (SELECT head FROM sizes) > ${SCORE_CAP} AND ${found}
        OFFSET ${SCORE_CAP} + greatest(0, ${offset} - (SELECT ranked FROM counted))
        LIMIT greatest(0, ${offset + limit} - greatest(${offset}, (SELECT ranked FROM counted)))
      ) t
    )
    SELECT t.total, (SELECT codes > 0 FROM sizes) AS "codeMatched", p.*
    FROM counted t
    LEFT JOIN LATERAL (
      SELECT ${ROW_COLUMNS}, coalesce(pg.score, (${search.score})::float8) AS score, NULL::float8 AS distance, pg.pos
      FROM page pg JOIN imagery i ON i.id = pg.id
    ) p ON true
    ORDER BY p.pos`;
}

// A bound point as geography. i.location::geography is written exactly as in the expression index
// imagery_location_geog_idx so the planner can use it.
function geography(p: LatLon): Prisma.Sql {
  return Prisma.sql`ST_SetSRID(ST_MakePoint(${p.lon}::float8, ${p.lat}::float8), 4326)::geography`;
}

// Sphere distance in metres; <-> on geography is also the KNN operator of the GiST index.
function distanceSql(anchor: LatLon | null): Prisma.Sql {
  return anchor ? Prisma.sql`(i.location::geography <-> ${geography(anchor)})` : Prisma.sql`NULL`;
}

function filterConditions(f: SearchFilters): Prisma.Sql[] {
  const where: Prisma.Sql[] = [];
  // A radius: the box around the circle for the geometry GiST index (its statistics give the planner
  // true row estimates, which ST_DWithin on geography does not), then the exact sphere distance.
  for (const c of f.circles) {
    const { west, south, east, north } = circleBounds(c, c.radiusM);
    const box = (w: number, e: number) =>
      Prisma.sql`i.location && ST_MakeEnvelope(${w}::float8, ${south}::float8, ${e}::float8, ${north}::float8, 4326)`;
    where.push(west <= east ? box(west, east) : Prisma.sql`(${box(west, 180)} OR ${box(-180, east)})`);
    where.push(Prisma.sql`${distanceSql(c)} <= ${c.radiusM}::float8`);
  }
  if (f.bbox) {
    const { west, south, east, north } = f.bbox;
    // ST_Intersects: the GiST && test (single-precision boxes) plus an exact one, edges included.
    const box = (w: number, e: number) =>
      Prisma.sql`ST_Intersects(i.location, ST_MakeEnvelope(${w}::float8, ${south}::float8, ${e}::float8, ${north}::float8, 4326))`;
    // Across the antimeridian: the part east of west, and the part west of east.
    where.push(west < east ? box(west, east) : Prisma.sql`(${box(west, 180)} OR ${box(-180, east)})`);
  }
  if (f.capturedAfter !== undefined) where.push(Prisma.sql`i.captured_at >= ${f.capturedAfter}::date`);
  if (f.capturedBefore !== undefined) where.push(Prisma.sql`i.captured_at <= ${f.capturedBefore}::date`);
  if (f.interactive !== undefined) where.push(Prisma.sql`i.interactive = ${f.interactive}`);
  if (f.heading) {
    const { from, to, toInclusive } = f.heading;
    const upper = toInclusive ? Prisma.sql`i.heading <= ${to}::float8` : Prisma.sql`i.heading < ${to}::float8`;
    where.push(from <= to ? Prisma.sql`(i.heading >= ${from}::float8 AND ${upper})` : Prisma.sql`(i.heading >= ${from}::float8 OR ${upper})`);
  }
  if (f.lookingAt) {
    // Heading minus the bearing to the target, folded to 0..180. An image at the target itself has
    // no bearing (NULL) and qualifies; so does every 360-degree (interactive) image.
    const turn = Prisma.sql`(i.heading - degrees(ST_Azimuth(i.location::geography, ${geography(f.lookingAt)})))`;
    where.push(
      Prisma.sql`(i.interactive OR coalesce(abs(${turn} - 360 * round(${turn} / 360)) <= ${f.lookingAt.halfFovDeg}::float8, true))`,
    );
  }
  return where;
}
