import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { regionByCode } from '../places/regions';
import { formatCaptureDate, formatCompass, resolveImageUrl } from './capture-format';
import { RecordPlaces } from './place-matching/record-places';
import { ignoredWords } from './pipeline/ignored-words';
import { pointMatchOf, RecordMatch, textMatchOf } from './pipeline/record-match';
import { TextSearchPipeline, TextSearchResult } from './pipeline/text-search.pipeline';
import { EMPTY_PAGE } from './pipeline/text-search-state';
import { interpretQuery, QueryInterpretation } from './query-interpretation';
import { planSearch, SearchPlan } from './search-planner';
import { IncludeName } from './search-filters.dto';
import { SearchRequestDto } from './search.dto';
import { ImageryRecordDto, SearchResponseDto } from './search-response.dto';
import { NearestImageryDto, SearchInterpretationDto } from './search-interpretation.dto';
import { resultIdFor } from './search-query';
import { SearchPage, SearchRepository, SearchRow } from './search.repository';

// One search: the query read (query-interpretation.ts), the filters planned (search-planner.ts), then
// either the text search's steps (pipeline/text-search.steps.ts) or the imagery around a point or
// under the filters alone; then the records in the response's shape with what `include` asks for.
@Injectable()
export class SearchService {
  constructor(
    private readonly repository: SearchRepository,
    private readonly textSearch: TextSearchPipeline,
    private readonly recordPlaces: RecordPlaces,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async search(request: SearchRequestDto): Promise<SearchResponseDto> {
    const { limit, page } = request;
    const window = { limit, offset: (page - 1) * limit };
    const interpretation = request.query === undefined ? null : interpretQuery(request.query, request.near);
    const { plan, scope } = planSearch(request, interpretation);

    let result: TextSearchResult | null = null;
    let found: SearchPage = EMPTY_PAGE;
    if (interpretation === null || interpretation.kind !== 'text') {
      found = await this.repository.searchArea(window, plan);
    } else if (interpretation.text) {
      result = await this.textSearch.search(interpretation.text, window, plan);
      found = result.answer.page;
    }

    const include = new Set<IncludeName>(request.include ?? []);
    const region = plan.filters.region === undefined ? undefined : regionByCode(plan.filters.region);
    const data = found.rows.map((row) => {
      const record = this.toRecord(row, include, scoreOf(row, plan, result?.answer.searched !== undefined));
      if (include.has('match')) record.match = matchOf(row, result, plan);
      return record;
    });
    if (include.has('place')) await this.recordPlaces.attach(data, found.rows, result?.answer.places ?? []);
    const response: SearchResponseDto = {
      isSuccess: true,
      page,
      pageTotal: Math.ceil(found.total / limit),
      data,
      result_id: resultIdFor({ query: request.query, limit }, scope),
      region: region?.name ?? 'global',
      region_id: region?.code ?? null,
    };
    if (include.has('total')) {
      response.total = found.total;
      response.total_exact = found.totalExact;
    }
    if (include.has('interpretation')) {
      response.interpretation = describe(interpretation, result, plan);
      if (response.interpretation && plan.anchor && interpretation?.kind !== 'text' && found.total === 0) {
        response.interpretation.nearest = await this.nearestOutside(plan);
      }
    }
    return response;
  }

  // Nothing within the radius of the query's point: how far the nearest record is that the other
  // filters let through, so a client can offer to widen the radius.
  private async nearestOutside(plan: SearchPlan): Promise<NearestImageryDto | null> {
    const anchor = plan.anchor!;
    const filters = { ...plan.filters, circles: plan.filters.circles.filter((c) => c !== anchor) };
    const nearest = await this.repository.nearestRecord(anchor, filters);
    return nearest && { distance_m: round(nearest.distance, 1), lat: nearest.lat, lon: nearest.lon };
  }

  private toRecord(row: SearchRow, include: ReadonlySet<IncludeName>, score: number): ImageryRecordDto {
    const record: ImageryRecordDto = {
      id: row.id,
      address: row.address,
      date: formatCaptureDate(row.capturedAt),
      compass: formatCompass(row.heading),
      interactive: row.interactive,
      geometry: { type: 'Point', coordinates: [row.lon, row.lat] },
      image: resolveImageUrl(row.imageUrl, this.config.imageBaseUrl),
    };
    if (include.has('captured_at')) record.captured_at = row.capturedAt;
    if (include.has('heading')) record.heading = row.heading;
    if (include.has('distance_m') && row.distance !== null) record.distance_m = Math.round(row.distance * 10) / 10;
    if (include.has('score')) record.score = round(score, 6);
    return record;
  }
}

// Text searches score by relevance; searches without text by closeness to the anchor point
// (1 at the point, 0 at the edge of its radius), or 0 when there is no point.
function scoreOf(row: SearchRow, plan: SearchPlan, textSearch: boolean): number {
  if (textSearch) return row.score;
  if (row.distance === null || plan.anchor === null) return 0;
  return Math.max(0, 1 - row.distance / plan.anchor.radiusM);
}

function matchOf(row: SearchRow, result: TextSearchResult | null, plan: SearchPlan): RecordMatch {
  return result === null ? pointMatchOf(row, plan) : textMatchOf(row, result.answer);
}

function describe(
  interpretation: QueryInterpretation | null,
  result: TextSearchResult | null,
  plan: SearchPlan,
): SearchInterpretationDto | null {
  if (interpretation === null) return null;
  if (interpretation.kind !== 'text') {
    const { lat, lon } = interpretation.point;
    return {
      kind: interpretation.kind,
      normalized: interpretation.normalized,
      lat,
      lon,
      radius_m: plan.anchor!.radiusM,
    };
  }
  if (result === null) return { kind: 'text', normalized: interpretation.normalized };
  const { answer, step, state } = result;
  if (answer.page.codeMatched && answer.searched?.code) {
    return { kind: 'location_code', normalized: answer.searched.code.toUpperCase(), step, approximate: false };
  }
  const corrected = answer.corrections.length > 0 && answer.searched !== undefined;
  const described: SearchInterpretationDto = {
    kind: 'text',
    normalized: corrected ? answer.searched!.text : interpretation.normalized,
    step,
    approximate: answer.match !== 'text',
  };
  if (state.namedRegion) described.named_region = { code: state.namedRegion.code, name: state.namedRegion.name };
  if (step === 'named-category' && state.category) described.categories = state.category.tags;
  if (answer.corrections.length > 0) described.corrections = answer.corrections;
  const ignored = ignoredWords(answer, state, answer.page.rows);
  if (ignored.length > 0) described.ignored = ignored;
  const place = answer.places[0];
  if (place) described.place = { id: place.id, kind: place.kind, label: place.label };
  return described;
}

function round(n: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}
