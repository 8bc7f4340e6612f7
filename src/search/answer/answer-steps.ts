import type { AppConfig } from '../../config/app-config';
import type { PhotoIncludes } from '../../photos/photo-includes';
import type { IncludeName } from '../dto/search-filters.dto';
import type { SearchRequestDto } from '../dto/search-request.dto';
import type { SearchResponseDto } from '../dto/search-response.dto';
import type { TextSearchResult } from '../pipeline/text-search.pipeline';
import type { SearchPlan } from '../planning/search-planner';
import type { QueryInterpretation } from '../query/query-interpretation';
import type { SearchPage, SearchRepository } from '../search.repository';
import { matchOf, round, scoreOf, viewImageOf } from './answer-records';
import { ignoredWords } from './ignored-words';
import { localizedAnswer } from './localized-labels';
import type { LocalizedNamesRepository } from '../language/localized-names.repository';
import { interpretationOf } from './interpretation';
import { toRecord } from './record-format';
import type { RecordHistory } from './record-history';
import type { RecordPlaces } from './record-places';

// What a search found, made into the response: one list of named steps, each under a named condition
// (as Pelias's postProc entries), in the order the response's fields are written. Each step returns
// the fields it sets; the next response is made of them.

/** What the search found, with what the request asked for. */
export interface SearchAnswer {
  request: SearchRequestDto;
  include: ReadonlySet<IncludeName>;
  interpretation: QueryInterpretation | null;
  plan: SearchPlan;
  found: SearchPage;
  /** The text search's result; null for a search without text (or text without words). */
  result: TextSearchResult | null;
  /** The languages to write labels in, best first (language/preferred-languages.ts); empty: as stored. */
  languages: readonly string[];
}

export interface AnswerDeps {
  config: AppConfig;
  recordPlaces: Pick<RecordPlaces, 'placesOf'>;
  history: Pick<RecordHistory, 'attach'>;
  photoIncludes: Pick<PhotoIncludes, 'attach'>;
  repository: Pick<SearchRepository, 'nearestRecord'>;
  localizedNames: Pick<LocalizedNamesRepository, 'places'>;
}

export interface AnswerStep {
  name: string;
  when: (a: SearchAnswer, response: SearchResponseDto) => boolean;
  /** The response's fields the step sets. */
  run: (
    a: SearchAnswer,
    response: SearchResponseDto,
    deps: AnswerDeps,
  ) => Partial<SearchResponseDto> | Promise<Partial<SearchResponseDto>>;
}

const always = (): boolean => true;
const includes =
  (...names: IncludeName[]) =>
  (a: SearchAnswer): boolean =>
    names.some((name) => a.include.has(name));

/** The text search answered, and `interpretation` was asked for. */
const interpretsText = (a: SearchAnswer, response: SearchResponseDto): boolean =>
  a.result !== null && response.interpretation != null;

/** The request names a language (`lang` or Accept-Language). */
const asksForLanguage = (a: SearchAnswer): boolean => a.languages.length > 0;

/**
 * Nothing within the radius of the query's point (coordinates or a plus code), and `interpretation`
 * was asked for: it says how far the nearest record is, so a client can offer to widen the radius.
 */
const nothingWithinTheRadius = (a: SearchAnswer, response: SearchResponseDto): boolean =>
  response.interpretation != null && a.plan.anchor !== null && a.interpretation?.kind !== 'text' && a.found.total === 0;

export const ANSWER_STEPS: readonly AnswerStep[] = [
  { name: 'records', when: always, run: records },
  { name: 'record-matches', when: includes('match'), run: recordMatches },
  { name: 'places-attached', when: includes('place'), run: placesAttached },
  { name: 'history', when: includes('history'), run: history },
  { name: 'photo-details', when: includes('camera', 'captured_at', 'sequence'), run: photoDetails },
  { name: 'total', when: includes('total'), run: (a) => ({ total: a.found.total, total_exact: a.found.totalExact }) },
  {
    name: 'interpretation',
    when: includes('interpretation'),
    run: (a) => ({ interpretation: interpretationOf(a.interpretation, a.result, a.plan) }),
  },
  { name: 'ignored-words', when: interpretsText, run: ignoredWordsOf },
  { name: 'nearest-outside', when: nothingWithinTheRadius, run: nearestOutside },
  { name: 'localized-labels', when: asksForLanguage, run: localizedLabels },
];

/** Runs the answer steps in order over the response's first fields. */
export async function answerWith(
  steps: readonly AnswerStep[],
  a: SearchAnswer,
  first: SearchResponseDto,
  deps: AnswerDeps,
): Promise<SearchResponseDto> {
  let response = first;
  for (const step of steps)
    if (step.when(a, response)) response = { ...response, ...(await step.run(a, response, deps)) };
  return response;
}

// The rows in the response's shape, a 360 record's image facing the place the query names.
function records(a: SearchAnswer, _: SearchResponseDto, { config }: AnswerDeps): Partial<SearchResponseDto> {
  const textSearch = a.result?.answer.searched !== undefined;
  const data = a.found.rows.map((row) => {
    const record = toRecord(row, a.include, scoreOf(row, a.plan, textSearch), config);
    const view = viewImageOf(row, a.interpretation, a.result, config);
    return view ? { ...record, image: view } : record;
  });
  return { data };
}

// `match`: how each record matched (record-match.ts).
function recordMatches(a: SearchAnswer, response: SearchResponseDto): Partial<SearchResponseDto> {
  return { data: response.data.map((record, i) => ({ ...record, match: matchOf(a.found.rows[i], a.result, a.plan) })) };
}

// `place`: the place each record belongs to (record-places.ts).
async function placesAttached(a: SearchAnswer, response: SearchResponseDto, deps: AnswerDeps) {
  const places = await deps.recordPlaces.placesOf(a.found.rows, a.result?.answer.places ?? []);
  return { data: response.data.map((record, i) => (places[i] ? { ...record, place: places[i] } : record)) };
}

// `history`: the other records at each record's spot, looking its way (record-history.ts), on copies of the records.
async function history(a: SearchAnswer, response: SearchResponseDto, deps: AnswerDeps) {
  const data = response.data.map((record) => ({ ...record }));
  await deps.history.attach(data, a.found.rows);
  return { data };
}

// `camera`, `captured_at` and `sequence`: what the service's own photos add (photos/photo-includes.ts),
// on copies of the records.
async function photoDetails(a: SearchAnswer, response: SearchResponseDto, { photoIncludes }: AnswerDeps) {
  const data = response.data.map((record) => ({ ...record }));
  const { include } = a;
  await photoIncludes.attach(data, {
    camera: include.has('camera'),
    capturedAt: include.has('captured_at'),
    sequence: include.has('sequence'),
  });
  return { data };
}

// `interpretation.ignored` (ignored-words.ts), written before `place` as the interpretation lists them.
function ignoredWordsOf(a: SearchAnswer, response: SearchResponseDto): Partial<SearchResponseDto> {
  const { answer, state } = a.result!;
  const ignored = ignoredWords(answer, state, answer.page.rows);
  if (ignored.length === 0) return {};
  const { place, ...interpretation } = response.interpretation!;
  return { interpretation: { ...interpretation, ignored, ...(place ? { place } : {}) } };
}

// `interpretation.nearest`: the nearest record the other filters let through, outside the radius.
async function nearestOutside(a: SearchAnswer, response: SearchResponseDto, { repository }: AnswerDeps) {
  const anchor = a.plan.anchor!;
  const filters = { ...a.plan.filters, circles: a.plan.filters.circles.filter((c) => c !== anchor) };
  const found = await repository.nearestRecord(anchor, filters);
  const nearest = found && { distance_m: round(found.distance, 1), lat: found.lat, lon: found.lon };
  return { interpretation: { ...response.interpretation!, nearest } };
}

// `lang`: labels, recovered addresses and region names in the languages asked for (localized-labels.ts).
function localizedLabels(a: SearchAnswer, response: SearchResponseDto, { localizedNames }: AnswerDeps) {
  const region = a.plan.filters.region;
  return localizedAnswer({ languages: a.languages, rows: a.found.rows, region }, response, localizedNames);
}
