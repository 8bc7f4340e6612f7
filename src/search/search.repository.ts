import { Injectable } from '@nestjs/common';
import { Prisma } from '@prisma/client';
import { PrismaService } from '../database/prisma.service';
import { circleBounds, LatLon } from './coordinates';
import { NO_FILTERS, SearchFilters, SearchPlan } from './search-filters';
import { SortOrder } from './search-filters.dto';
import { TextQuery } from './search-query';

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
// Text searches rank by trigram similarity up to this many matches, by cheaper measures beyond.
export const SCORE_CAP = 1_000;
// Vocabulary words fetched per misspelt query word (nearest by trigram distance).
export const WORD_CANDIDATES = 20;

// All imagery search SQL. Raw SQL because Prisma's query builder cannot express full-text,
// trigram or PostGIS operators; every value is a bound parameter.
@Injectable()
export class SearchRepository {
  constructor(private readonly prisma: PrismaService) {}

  searchFullText(query: TextQuery, window: PageWindow, plan: SearchPlan = NO_FILTERS): Promise<SearchPage> {
    return this.run(SearchRepository.fullTextSql(query, window, plan), COUNT_CAP);
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
  static fullTextSql(query: TextQuery, window: PageWindow, plan: SearchPlan = NO_FILTERS): Prisma.Sql {
    const norm = Prisma.sql`lis_normalize(${query.text})`;
    const tsv = Prisma.sql`i.address_tsv @@ to_tsquery('simple', ${query.tsquery})`;
    const codeMatch = query.code === null ? Prisma.sql`false` : Prisma.sql`coalesce(f.address_code = ${query.code}, false)`;
    const bonuses = Prisma.sql`CASE WHEN ${codeMatch} THEN 10 ELSE 0 END
        + CASE WHEN f.address_norm = ${norm} THEN 2 ELSE 0 END
        + CASE WHEN starts_with(f.address_norm, ${norm}) THEN 0.5 ELSE 0 END
        + CASE WHEN f.exact_words THEN 0.5 ELSE 0 END`;
    return scoredPageSql(window, plan, {
      match: query.code === null ? tsv : Prisma.sql`(${tsv} OR i.address_code = ${query.code})`,
      extraColumns: Prisma.sql`, i.address_code, i.address_tsv @@ to_tsquery('simple', ${query.tsqueryExact}) AS exact_words`,
      score: Prisma.sql`similarity(f.address_norm, ${norm}) + ${bonuses}`,
      // Past SCORE_CAP matches, trigram similarity (a few microseconds a row) gives way to the share of
      // the address the query covers, which orders contained queries about the same way.
      broadScore: Prisma.sql`least(1, char_length(${norm})::float8 / greatest(char_length(f.address_norm), 1)) + ${bonuses}`,
      codeMatch,
      // Code matches rank first, so they join the candidates even when the cap left them out.
      mustRank: query.code === null ? null : Prisma.sql`i.address_code = ${query.code}`,
    });
  }

  // Trigram word similarity for misspellings (GIN index imagery_address_norm_trgm_idx). Similarity is
  // the ranking here, so only the first SCORE_CAP matches found are ranked (and counted).
  static fuzzySql(query: TextQuery, window: PageWindow, plan: SearchPlan = NO_FILTERS): Prisma.Sql {
    const norm = Prisma.sql`lis_normalize(${query.text})`;
    const score = Prisma.sql`word_similarity(${norm}, f.address_norm) + similarity(f.address_norm, ${norm})`;
    return scoredPageSql(window, plan, {
      match: Prisma.sql`${norm} <% i.address_norm`,
      cap: SCORE_CAP,
      score,
      broadScore: score,
      codeMatch: Prisma.sql`false`,
    });
  }

  // No text: the filters alone (a circle or a bbox is always among them, so the geometry GiST index
  // applies), in one statement: count (stopping after COUNT_CAP + 1 rows) and page. Used for newest
  // and oldest (imagery_captured_at_idx serves wide areas); nearest first goes through
  // areaCountSql and nearestPageSql instead.
  static areaSql(window: PageWindow, plan: SearchPlan): Prisma.Sql {
    const where = Prisma.join(filterConditions(plan.filters), ' AND ');
    const distance = distanceSql(plan.anchor);
    return Prisma.sql`
      SELECT t.total, false AS "codeMatched", p.*
      FROM (SELECT count(*)::int AS total FROM (SELECT 1 FROM imagery i WHERE ${where} LIMIT ${COUNT_CAP + 1}) c) t
      LEFT JOIN LATERAL (
        SELECT ${ROW_COLUMNS}, 0::float8 AS score, ${distance}::float8 AS distance
        FROM imagery i
        WHERE ${where}
        ORDER BY ${orderSql(plan.sort, {
          score: Prisma.sql`0`,
          distance,
          capturedAt: Prisma.sql`i.captured_at`,
          id: Prisma.sql`i.id`,
        })}
        LIMIT ${window.limit} OFFSET ${window.offset}
      ) p ON true
      ORDER BY ${orderSql(plan.sort, OUTER)}`;
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

  // KNN on the trigram GiST index of the vocabulary (imagery_words_trgm_idx), per word.
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
      ORDER BY q.n, w.d, w.word`;
  }

  // The statement counts up to cap + 1 matches; more than cap means "at least cap".
  private async run(sql: Prisma.Sql, cap: number): Promise<SearchPage> {
    const rows = await this.prisma.rawQuery<{ total: number; codeMatched: boolean } & Partial<SearchRow>>(sql);
    const counted = rows[0]?.total ?? 0;
    const exceeded = counted > cap;
    return {
      total: exceeded ? cap : counted,
      totalExact: !exceeded,
      codeMatched: rows[0]?.codeMatched ?? false,
      rows: rows
        .filter((r) => r.id !== null && r.id !== undefined)
        .map(({ total: _t, codeMatched: _c, ...row }) => row as SearchRow),
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

interface ScoredSearch {
  /** Which rows match (alias i). */
  match: Prisma.Sql;
  /** Columns the scores read besides address_norm (leading comma). */
  extraColumns?: Prisma.Sql;
  /** Matches found (and counted) at most; the total says "at least" beyond. */
  cap?: number;
  /** Relevance of a candidate (alias f) when at most SCORE_CAP matched; broadScore otherwise. */
  score: Prisma.Sql;
  broadScore: Prisma.Sql;
  codeMatch: Prisma.Sql;
  /** Rows (alias i) ranked even when the cap left them out of the candidates. */
  mustRank?: Prisma.Sql | null;
}

// The first `cap` + 1 matches found are the candidates: counted (so the total stops at the cap, like
// every other search), scored, and paged; full rows are read for the page's rows only. Bounding the
// candidates keeps a word that matches half the table as cheap as a rare one.
function scoredPageSql(window: PageWindow, plan: SearchPlan, search: ScoredSearch): Prisma.Sql {
  const where = Prisma.join([search.match, ...filterConditions(plan.filters)], ' AND ');
  const columns = Prisma.sql`i.id, i.address_norm, i.captured_at, ${distanceSql(plan.anchor)}::float8 AS distance ${search.extraColumns ?? Prisma.empty}`;
  const cap = search.cap ?? COUNT_CAP;
  // Past the cap, rows that must rank (index lookups, few) join the candidates unless already found.
  const candidates = search.mustRank
    ? Prisma.sql`SELECT * FROM found UNION ALL (
        SELECT ${columns} FROM imagery i
        WHERE (SELECT total FROM counted) > ${cap} AND ${search.mustRank} AND ${where}
          AND NOT EXISTS (SELECT 1 FROM found x WHERE x.id = i.id)
        LIMIT ${SCORE_CAP})`
    : Prisma.sql`SELECT * FROM found`;
  return Prisma.sql`
    WITH found AS MATERIALIZED (
      SELECT ${columns} FROM imagery i WHERE ${where} LIMIT ${cap + 1}
    ),
    counted AS MATERIALIZED (SELECT count(*)::int AS total FROM found),
    scored AS MATERIALIZED (
      SELECT f.id, f.captured_at, f.distance, ${search.codeMatch} AS code_match,
        (CASE WHEN (SELECT total FROM counted) <= ${SCORE_CAP} THEN ${search.score} ELSE ${search.broadScore} END)::float8 AS score
      FROM (${candidates}) f
    )
    SELECT t.total, (SELECT coalesce(bool_or(code_match), false) FROM scored) AS "codeMatched", p.*
    FROM counted t
    LEFT JOIN LATERAL (
      SELECT ${ROW_COLUMNS}, m.score, m.distance
      FROM (
        SELECT * FROM scored m
        ORDER BY ${orderSql(plan.sort, {
          score: Prisma.sql`m.score`,
          distance: Prisma.sql`m.distance`,
          capturedAt: Prisma.sql`m.captured_at`,
          id: Prisma.sql`m.id`,
        })}
        LIMIT ${window.limit} OFFSET ${window.offset}
      ) m JOIN imagery i ON i.id = m.id
    ) p ON true
    ORDER BY ${orderSql(plan.sort, OUTER)}`;
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
