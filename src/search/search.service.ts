import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { regionByCode } from '../places/regions';
import { PhotoIncludes } from '../photos/photo-includes';
import { ANSWER_STEPS, AnswerDeps, answerWith } from './answer/answer-steps';
import { RecordHistory } from './answer/record-history';
import { RecordPlaces } from './answer/record-places';
import { resultIdFor } from './answer/result-id';
import type { IncludeName } from './dto/search-filters.dto';
import { SearchRequestDto } from './dto/search-request.dto';
import { SearchResponseDto } from './dto/search-response.dto';
import { pageCount } from './paging/match-total';
import type { PageWindow } from './paging/search-limits';
import { TextSearchPipeline, TextSearchResult } from './pipeline/text-search.pipeline';
import { EMPTY_PAGE } from './pipeline/text-search-state';
import { planSearch, SearchPlan } from './planning/search-planner';
import { interpretQuery, QueryInterpretation } from './query/query-interpretation';
import { readStructuredAddress, StructuredQuery } from './query/structured-address';
import { buildTextQuery } from './query/text-query';
import { NEWEST_PER_SPOT_UNAVAILABLE, SearchException, SearchExceptionCode } from './search.exception';
import { SearchPage, SearchRepository } from './search.repository';
import { LocalizedNamesRepository } from './language/localized-names.repository';
import { preferredLanguages } from './language/preferred-languages';

// One search: the query read (query/query-interpretation.ts), the filters planned
// (planning/search-planner.ts), then either the text search's steps (pipeline/text-search.steps.ts) or
// the imagery around a point or under the filters alone; then the answer's steps make the response
// (answer/answer-steps.ts: the records, and what `include` asks for).
@Injectable()
export class SearchService {
  private readonly answerDeps: AnswerDeps;

  constructor(
    private readonly repository: SearchRepository,
    private readonly textSearch: TextSearchPipeline,
    recordPlaces: RecordPlaces,
    history: RecordHistory,
    photoIncludes: PhotoIncludes,
    localizedNames: LocalizedNamesRepository,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.answerDeps = { config, recordPlaces, history, photoIncludes, repository, localizedNames };
  }

  /** `acceptLanguage`: the request's Accept-Language header, read when the body gives no `lang`. */
  async search(request: SearchRequestDto, acceptLanguage?: string): Promise<SearchResponseDto> {
    const { limit, page } = request;
    const window = { limit, offset: (page - 1) * limit };
    const structured = request.address === undefined ? null : readStructuredAddress(request.address, request.query);
    const interpretation = structured
      ? structuredInterpretation(structured)
      : request.query === undefined
        ? null
        : interpretQuery(request.query, request.near);
    const { plan, scope } = planSearch(nearTheQuery(request, interpretation), interpretation);
    if (plan.filters.newestPerSpot && this.repository.imageryDistributed) {
      throw new SearchException(SearchExceptionCode.FILTER_UNAVAILABLE, 'newest_per_spot', NEWEST_PER_SPOT_UNAVAILABLE);
    }
    const { found, result } = await this.find(window, plan, interpretation, structured);
    const region = plan.filters.region === undefined ? undefined : regionByCode(plan.filters.region);
    const first: SearchResponseDto = {
      isSuccess: true,
      page,
      pageTotal: pageCount(found.total, limit),
      data: [],
      result_id: resultIdFor(
        { query: request.query, limit },
        structured ? { ...scope, filters: { ...scope.filters, address: structured.parts } } : scope,
      ),
      region: region?.name ?? 'global',
      region_id: region?.code ?? null,
    };
    const include = new Set<IncludeName>(request.include ?? []);
    const languages = preferredLanguages(request.lang, acceptLanguage);
    const answer = { request, include, interpretation, plan, found, result, languages };
    return answerWith(ANSWER_STEPS, answer, first, this.answerDeps);
  }

  // Text runs the text search's steps; a point or the filters alone, the area search.
  private async find(
    window: PageWindow,
    plan: SearchPlan,
    interpretation: QueryInterpretation | null,
    structured: StructuredQuery | null,
  ): Promise<{ found: SearchPage; result: TextSearchResult | null }> {
    if (interpretation === null || interpretation.kind !== 'text')
      return { found: await this.repository.searchArea(window, plan), result: null };
    if (!interpretation.text) return { found: EMPTY_PAGE, result: null };
    const result = await this.textSearch.search(interpretation.text, window, plan, structured);
    return { found: result.answer.page, result };
  }
}

// A structured address is searched as the words of its parts (never as coordinates or a plus code).
function structuredInterpretation(structured: StructuredQuery): QueryInterpretation {
  const text = buildTextQuery(structured.text);
  return { kind: 'text', normalized: text ? text.words.join(' ') : '', text };
}

// A name beside coordinates searches the name within the point's circle, unless the request gives its own near.
function nearTheQuery(request: SearchRequestDto, interpretation: QueryInterpretation | null): SearchRequestDto {
  if (interpretation?.kind !== 'text' || !interpretation.near || request.near !== undefined) return request;
  const { lat, lon, radiusM } = interpretation.near;
  return { ...request, near: { lat, lon, radius_m: radiusM } };
}
