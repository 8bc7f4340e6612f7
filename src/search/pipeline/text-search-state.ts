import type { RankedPlace } from '../place-matching/place-ranking';
import type { SearchPlan } from '../search-planner';
import type { TextQuery } from '../search-query';
import type { PageWindow, SearchPage } from '../search.repository';
import type { Vocabulary } from '../vocabulary-lookup';
import type { Region } from '../../places/regions';
import { CategoryQuery, readCategoryQuery } from '../category-query';

// How the records of an answer matched the query (see record-match.ts for the per-record refinement).
export type AnswerMatch = 'text' | 'corrected' | 'nearby' | 'fallback';

export const EMPTY_PAGE: SearchPage = { total: 0, totalExact: true, codeMatched: false, rows: [] };

export interface WordCorrection {
  from: string;
  to: string;
}

// What a step that finds records answers with. The first answer with matches ends the search.
export interface StepAnswer {
  page: SearchPage;
  match: AnswerMatch;
  /** The text actually searched (after spelling correction). */
  searched?: TextQuery;
  /** The places the answer was found through, best first. */
  places: RankedPlace[];
  /** The words corrected to find it. */
  corrections: WordCorrection[];
}

// What the steps of a text search know, filled in as they run (see text-search.steps.ts).
export interface TextSearchState {
  /** The words searched: the query's, less those naming a region (see named-region). */
  text: TextQuery;
  /** The query's words and the request's plan, as they came. */
  readonly typed: TextQuery;
  readonly requestPlan: SearchPlan;
  readonly window: PageWindow;
  plan: SearchPlan;
  /** The region searched: the request's, or the one the query names when that is narrower. */
  region: string | null;
  /** The country or region the query names (query-qualifiers.ts). */
  namedRegion: Region | null;
  /** The query names a region outside the one the request asks for: nothing can match. */
  regionConflict: boolean;
  vocabulary?: Vocabulary;
  /** The places the query names as typed, best first. */
  places: RankedPlace[];
  /**
   * Whether a full-text search of the words as typed can find anything: the query names a place, or
   * the vocabulary holds every word (an unknown word makes the full-text search find nothing).
   */
  bound: boolean;
  /** The query with misspelt words widened to vocabulary words; null when nothing was corrected. */
  corrected: TextQuery | null;
  corrections: WordCorrection[];
  /** The places the corrected words name. */
  correctedPlaces: RankedPlace[];
  /** The places the query means: those of the corrected words, else the names most like the query. */
  meant: RankedPlace[];
  /** The place lookups asked so far, by query and region (see placesNamed). */
  placesAsked?: Map<string, Promise<RankedPlace[]>>;
  /** The category the query names ("hotel in Vaduz": tourism=hotel), when it named one (named-category). */
  category: CategoryQuery | null;
  /** What the words searched say about a category, read once (see categoryRead). */
  categoryRead?: { of: string; read: CategoryQuery | null };
  /** Which steps ran, in order (for `interpretation`). */
  ran: string[];
}

export function initialState(text: TextQuery, window: PageWindow, plan: SearchPlan): TextSearchState {
  return {
    text,
    typed: text,
    requestPlan: plan,
    window,
    plan,
    region: plan.filters.region ?? null,
    namedRegion: null,
    regionConflict: false,
    places: [],
    bound: false,
    corrected: null,
    corrections: [],
    correctedPlaces: [],
    meant: [],
    category: null,
    ran: [],
  };
}

// The category the words searched name (category-query.ts), read once for the predicate and the step.
export function categoryRead(s: TextSearchState): CategoryQuery | null {
  if (s.categoryRead?.of !== s.text.text) s.categoryRead = { of: s.text.text, read: readCategoryQuery(s.text.text) };
  return s.categoryRead.read;
}
