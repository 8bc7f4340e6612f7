import type { RankedPlace } from '../place-matching/place-ranking';
import type { SearchPlan } from '../planning/search-planner';
import type { TextQuery } from '../query/text-query';
import type { PageWindow, SearchPage } from '../search.repository';
import type { Vocabulary } from '../vocabulary/vocabulary-lookup';
import type { Region } from '../../places/regions';
import { CategoryQuery, readCategoryQuery } from '../query/category-query';
import type { StructuredQuery } from '../query/structured-address';

// How the records of an answer matched the query (see record-match.ts for the per-record refinement).
export type AnswerMatch = 'text' | 'corrected' | 'nearby' | 'fallback';

export const EMPTY_PAGE: SearchPage = { total: 0, totalExact: true, codeMatched: false, rows: [] };

export interface WordCorrection {
  from: string;
  to: string;
}

/** How coarse a fallback by parts is (fallback-by-parts.step.ts): the part of the query that answered. */
export type FallbackLevel = 'street' | 'postcode' | 'locality' | 'region' | 'country';

export interface FallbackAnswer {
  level: FallbackLevel;
  /** The query's words (folded) that the part answering leaves out: the finer parts that found nothing. */
  unmatched: string[];
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
  /** A coarser part of the query answered, the finer parts having found nothing. */
  fallback?: FallbackAnswer;
  /** The categories of place (OSM tags) whose pois the answer is the imagery at (named-category). */
  categories?: string[];
}

/** What the steps learn, each set by the step that learns it (text-search.steps.ts). */
export interface Learnt {
  /** The words searched: the query's, less those naming a region (named-region). */
  text: TextQuery;
  /** What is left of the query as typed once a named region is taken off (named-region). */
  rest: string;
  plan: SearchPlan;
  /** The region searched: the request's, or the one the query names when that is narrower. */
  region: string | null;
  /** The country or region the query names (query/named-region.ts). */
  namedRegion: Region | null;
  /** The query names a region outside the one the request asks for: nothing can match. */
  regionConflict: boolean;
  /** The places the query names as typed, best first (named-places). */
  places: RankedPlace[];
  /** The query with misspelt words widened to vocabulary words; null when nothing was corrected. */
  corrected: TextQuery | null;
  corrections: WordCorrection[];
  /** The places the corrected words name (corrected-places). */
  correctedPlaces: RankedPlace[];
  /** The names most like the query that are a believable spelling of it (misspelt-places). */
  misspelt: RankedPlace[];
}

/** What a step that answers nothing learnt: the fields it sets, for the steps after it. */
export interface StepLearnt {
  learnt: Partial<Learnt>;
}

/** A step's outcome: an answer, what it learnt, or nothing. */
export type StepOutcome = StepAnswer | StepLearnt | void;

/** Lookups asked once per search, shared by every state of it: the one part of the state that changes in place. */
export interface SearchLookups {
  /** The place lookups asked so far, by query and region (see placesNamed). */
  places: Map<string, Promise<RankedPlace[]>>;
  /** What a text says about a category, by text (see categoryRead). */
  categories: Map<string, CategoryQuery | null>;
}

// What the steps of a text search know: the request as it came, and what the steps before learnt.
// Never changed in place: the runner makes the next state from what a step returns (see runTextSearch).
export interface TextSearchState extends Readonly<Learnt> {
  /** The query's words and the request's plan, as they came. */
  readonly typed: TextQuery;
  readonly requestPlan: SearchPlan;
  readonly window: PageWindow;
  /** The catalogue's vocabulary, read once for the search (SearchRepository.vocabulary). */
  readonly vocabulary: Vocabulary;
  readonly lookups: SearchLookups;
  /** Which steps ran, in order. */
  readonly ran: readonly string[];
  /** The request's structured address (`address`), read at its levels; null for a text query. */
  readonly structured: StructuredQuery | null;
}

export function initialState(
  text: TextQuery,
  window: PageWindow,
  plan: SearchPlan,
  vocabulary: Vocabulary,
  structured: StructuredQuery | null = null,
): TextSearchState {
  return {
    text,
    rest: text.text,
    typed: text,
    requestPlan: plan,
    window,
    plan,
    vocabulary,
    region: plan.filters.region ?? null,
    namedRegion: null,
    regionConflict: false,
    places: [],
    corrected: null,
    corrections: [],
    correctedPlaces: [],
    misspelt: [],
    lookups: { places: new Map(), categories: new Map() },
    ran: [],
    structured,
  };
}

/** The state after a step learnt something. */
export const withLearnt = (s: TextSearchState, learnt: Partial<Learnt>): TextSearchState => ({ ...s, ...learnt });

// The category the words searched name (category-query.ts), read once for the predicate and the step.
export function categoryRead(s: TextSearchState): CategoryQuery | null {
  const { categories } = s.lookups;
  if (!categories.has(s.text.text)) categories.set(s.text.text, readCategoryQuery(s.text.text));
  return categories.get(s.text.text)!;
}

// The places the query means: those the corrected words name, else the names most like the query.
export const meantPlaces = (s: TextSearchState): RankedPlace[] =>
  s.correctedPlaces.length > 0 ? s.correctedPlaces : s.misspelt;
