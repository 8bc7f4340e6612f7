import { Injectable } from '@nestjs/common';
import { Prisma } from '@prisma/client';
import { GenerateSql, NoSql, SAMPLE_UUID, SqlSubject } from '../database/generate-sql';
import { PrismaService } from '../database/prisma.service';
import { NO_FILTERS, SearchFilters, SearchPlan } from './planning/search-planner';
import { areaCountCap, COUNT_CAP, PageWindow, SCORE_CAP } from './paging/search-limits';
import { TextQuery } from './query/text-query';
import { counted, matchTotal } from './paging/match-total';
import {
  areaCountSql,
  areaSql,
  nearestPageSql,
  nearestRecordSql,
  nearestWalkSql,
  walksNearest,
} from './sql/area-search.sql';
import { LatLon } from './query/coordinates';
import { PlacePins } from './sql/place-pins.sql';
import { fullTextSql, fuzzySql } from './sql/text-search.sql';
import { vocabularySql, wordCandidatesSql } from './sql/vocabulary.sql';
import { Vocabulary } from './vocabulary/vocabulary-lookup';
import { shapeTextQuery } from './planning/index-choice';
import { ImageryLayout, pageStrategyOf } from './planning/page-strategy';
import { NO_VOCABULARY, SAMPLE_PAGE as page, samplePlan as plan, sampleText as text } from './sql/search-sql.samples';
import { FULL_TEXT_SQL_EXAMPLES } from './sql/full-text.sql-samples';

export interface SearchRow {
  id: string;
  address: string;
  capturedAt: string;
  /** null: unknown (a photo without a direction), facing nothing. */
  heading: number | null;
  interactive: boolean;
  imageUrl: string;
  lon: number;
  lat: number;
  score: number;
  /** Metres from the plan's anchor point (sphere); null without one. */
  distance: number | null;
  /** The place a recovered address is from, and the locality the record lies in (see places). */
  placeId: string | null;
  localityId: string | null;
  /** The place the record was found near, when that is not the answer's first (a category's pois). */
  nearPlaceId?: string;
}

export interface SearchPage {
  total: number;
  /** False when counting stopped at COUNT_CAP. */
  totalExact: boolean;
  /** Some match is a location code equal to the query. */
  codeMatched: boolean;
  rows: SearchRow[];
  /** How a full-text statement read the page (planning/page-strategy.ts: its label); absent for other searches. */
  pageStrategy?: string;
}

export interface NearestRecord extends LatLon {
  /** Metres from the point (sphere). */
  distance: number;
}

export { COUNT_CAP, SCORE_CAP, WORD_CANDIDATES } from './paging/search-limits';
export type { PageWindow };
const VOCABULARY_MAX_AGE_MS = 60_000;

// Runs imagery searches. The SQL is built in ./sql/ (raw SQL because Prisma's query builder cannot
// express full-text, trigram or PostGIS operators; every value is a bound parameter); the static
// members name each statement for the committed review in src/queries/ and the plan tests.
@SqlSubject((db) => new SearchRepository(db.prisma))
@Injectable()
export class SearchRepository {
  static fullTextSql = fullTextSql;
  static fuzzySql = fuzzySql;
  static areaSql = areaSql;
  static areaCountSql = areaCountSql;
  static nearestPageSql = nearestPageSql;
  static nearestWalkSql = nearestWalkSql;
  static nearestRecordSql = nearestRecordSql;
  static wordCandidatesSql = wordCandidatesSql;
  static vocabularySql = vocabularySql;

  // Read at most once a minute per process (imports change it); a stale copy keeps serving while the
  // next is read, so no search waits for it but the first.
  private vocabularyRead?: { readAt: number; value: Promise<Vocabulary>; next?: Promise<void> };

  constructor(private readonly prisma: PrismaService) {}

  /** Whether imagery is a distributed (Citus) table, as the database said at start. */
  get imageryDistributed(): boolean {
    return this.prisma.imageryDistributed === true;
  }

  @GenerateSql(...FULL_TEXT_SQL_EXAMPLES)
  async searchFullText(
    query: TextQuery,
    window: PageWindow,
    plan: SearchPlan = NO_FILTERS,
    pins: PlacePins | null = null,
  ): Promise<SearchPage> {
    const shape = shapeTextQuery(query, await this.vocabulary(), COUNT_CAP, pins?.nameWords);
    const layout = this.layout();
    const page = await this.run(fullTextSql(query, window, plan, shape, pins, layout), window, COUNT_CAP);
    return { ...page, pageStrategy: pageStrategyOf(plan, shape, pins, layout).label };
  }

  @NoSql('reads where imagery lives, which the database service learnt at start')
  private layout(): ImageryLayout {
    return this.prisma.imageryDistributed === true ? 'citus' : 'single';
  }

  @GenerateSql({ answers: [[NO_VOCABULARY]] })
  vocabulary(now = Date.now()): Promise<Vocabulary> {
    const read = this.vocabularyRead;
    if (!read) {
      const value = this.readVocabulary().catch((error) => {
        this.vocabularyRead = undefined; // a failed first read is retried by the next search
        throw error;
      });
      this.vocabularyRead = { readAt: now, value };
      return value;
    }
    if (now - read.readAt > VOCABULARY_MAX_AGE_MS && !read.next) {
      read.next = this.readVocabulary().then(
        (vocabulary) => void (this.vocabularyRead = { readAt: Date.now(), value: Promise.resolve(vocabulary) }),
        () => void (read.next = undefined), // keep the copy we have; the next search tries again
      );
    }
    return read.value;
  }

  @NoSql("vocabulary's statement (declared there)")
  private async readVocabulary(): Promise<Vocabulary> {
    const [row] = await this.prisma.rawQuery<{
      words: string[];
      docs: number[];
      listed: boolean[];
      prefixes: string[];
      rows: number;
    }>(vocabularySql());
    return new Vocabulary(
      row.words.map((w, i) => [w, row.docs[i], row.listed[i]] as const),
      row.rows,
      row.prefixes,
    );
  }

  @GenerateSql({ params: () => [text('Herengase'), page, plan({ query: 'Herengase' })] })
  // The last resort, best effort: past the search's fallback budget it finds nothing.
  searchFuzzy(query: TextQuery, window: PageWindow, plan: SearchPlan = NO_FILTERS): Promise<SearchPage> {
    return this.run(fuzzySql(query, window, plan), window, SCORE_CAP, true);
  }

  // Counted a few pages ahead (areaCountCap), a lower bound past that. Nearest first with the circle
  // alone: one statement (nearestWalkSql); with other filters, count, then fetch the page from the
  // k nearest (see nearestPageSql). Other orders: one statement (a bbox or circle of a few grid cells
  // holding more than it counts is read cell by cell, see cellWalkSql).
  @GenerateSql(
    {
      name: 'coordinates, newest first: counted, then sorted or read cell by cell',
      params: () => [page, plan({ query: '47.14, 9.52', sort: 'newest' })],
    },
    {
      name: 'coordinates with a 5 km radius, newest first (too many cells to walk)',
      params: () => [page, plan({ query: '47.14, 9.52', near: { radius_m: 5000 }, sort: 'newest' })],
    },
    {
      name: 'a bbox of a few grid cells, newest first: counted, then sorted or read cell by cell',
      params: () => [page, plan({ bbox: [9.519, 47.1378, 9.5229, 47.1404], sort: 'newest' })],
    },
    { name: 'nearest first, the circle alone', params: () => [page, plan({ query: '47.14, 9.52' })] },
    {
      name: 'nearest first, the page reaching records tied with the last one walked',
      params: () => [page, plan({ query: '47.14, 9.52' })],
      answers: [[{ total: 101, codeMatched: false, tied: true, id: SAMPLE_UUID }]],
    },
    {
      name: 'nearest first with filters: count, then the page',
      params: () => [page, plan({ query: '47.14, 9.52', interactive: true })],
      answers: [[{ total: 12 }]],
    },
  )
  async searchArea(window: PageWindow, plan: SearchPlan): Promise<SearchPage> {
    const cap = areaCountCap(window);
    if (plan.sort !== 'distance' || plan.anchor === null)
      return this.run(areaSql(window, plan, this.layout() === 'citus'), window, cap);
    if (walksNearest(plan)) return this.walkNearest(window, plan, cap);
    const [{ total: matches }] = await this.prisma.rawQuery<{ total: number }>(areaCountSql(plan, cap));
    const page = this.countedPage(window, cap, matches);
    const k = Math.min(window.offset + window.limit, page.total);
    if (k > window.offset) page.rows = await this.prisma.rawQuery<SearchRow>(nearestPageSql(window, plan, k));
    return page;
  }

  // nearestWalkSql's count and page; its page read again through nearestPageSql when it reached
  // records tied with the last one the walk read (some of them may lie past it).
  @NoSql("searchArea's statements (declared there)")
  private async walkNearest(window: PageWindow, plan: SearchPlan, cap: number): Promise<SearchPage> {
    type Row = SearchRow & { total: number; codeMatched: boolean; tied: boolean | null };
    const rows = await this.prisma.rawQuery<Row>(nearestWalkSql(window, plan, cap));
    const page = this.countedPage(window, cap, rows[0]?.total ?? 0);
    if (rows.some((r) => r.tied)) {
      page.rows = await this.prisma.rawQuery<SearchRow>(
        nearestPageSql(window, plan, Math.min(window.offset + window.limit, page.total)),
      );
    } else {
      page.rows = rows.filter((r) => r.id !== null).map(({ total: _t, codeMatched: _c, tied: _d, ...row }) => row);
    }
    return page;
  }

  @NoSql('computes the page total')
  private countedPage(window: PageWindow, cap: number, matches: number): SearchPage {
    return { ...matchTotal(window, cap, counted(matches)), codeMatched: false, rows: [] };
  }

  // The record nearest the point that passes the filters (see nearestRecordSql); null when none does.
  @GenerateSql(
    { name: 'nothing within the radius, no filters', params: () => [{ lat: 47.14, lon: 9.52 }, { circles: [] }] },
    {
      name: 'nothing within the radius, with filters',
      params: () => [
        { lat: 47.14, lon: 9.52 },
        { circles: [], interactive: true },
      ],
    },
  )
  async nearestRecord(point: LatLon, filters: SearchFilters): Promise<NearestRecord | null> {
    const [row] = await this.prisma.rawQuery<NearestRecord>(nearestRecordSql(point, filters));
    return row ?? null;
  }

  // Per word, the vocabulary words nearest to it by trigram distance, nearest first. A word found
  // as it is was spelt right (imported since the vocabulary in memory was read): no candidates,
  // unless `known` (words the vocabulary holds, looked up because together they match nothing).
  @GenerateSql({ params: () => [['herengase', 'vadus']] })
  async wordCandidates(words: string[], known = false): Promise<Map<string, string[]>> {
    const out = new Map<string, string[]>();
    if (words.length === 0) return out;
    const rows = await this.prisma.rawQuery<{ typed: string; word: string }>(wordCandidatesSql(words));
    for (const { typed, word } of rows) out.set(typed, [...(out.get(typed) ?? []), word]);
    if (!known) for (const [typed, found] of out) if (found.includes(typed)) out.delete(typed);
    return out;
  }

  // The statement counts up to cap + 1 matches, or estimates them (then it reads one row past the
  // page and says how many it knows exist); matchTotal decides what the page reports.
  @NoSql('runs the statement its caller built (declared with the caller)')
  private async run(sql: Prisma.Sql, window: PageWindow, cap: number, bestEffort = false): Promise<SearchPage> {
    type Row = {
      total: number;
      codeMatched: boolean;
      /** The total is an estimate (see rankedListPageSql). */
      estimated?: boolean;
      known?: number;
      seq?: number;
      pos?: number;
      ranked?: number;
    } & Partial<SearchRow>;
    const rows =
      (bestEffort ? await this.prisma.bestEffortQuery<Row>(sql) : await this.prisma.rawQuery<Row>(sql)) ?? [];
    const found = rows
      .filter((r) => r.id !== null && r.id !== undefined)
      .map(
        ({ total: _t, codeMatched: _c, estimated: _e, known: _k, seq: _s, pos: _p, ranked: _r, ...row }) =>
          row as SearchRow,
      );
    const count = {
      counted: rows[0]?.total ?? 0,
      estimated: rows[0]?.estimated === true,
      known: rows[0]?.known ?? 0,
      rows: Math.min(found.length, window.limit),
      more: found.length > window.limit,
    };
    return {
      ...matchTotal(window, cap, count),
      codeMatched: rows[0]?.codeMatched ?? false,
      rows: found.slice(0, window.limit),
    };
  }
}
