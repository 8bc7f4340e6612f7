import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { formatCaptureDate, formatCompass, resolveImageUrl } from './imagery-format';
import { interpretQuery, QueryInterpretation } from './query-interpretation';
import { planSearch, SearchPlan } from './search-filters';
import { IncludeName } from './search-filters.dto';
import { ImageryRecordDto, SearchInterpretationDto, SearchRequestDto, SearchResponseDto } from './search.dto';
import { resultIdFor, TextQuery } from './search-query';
import { PageWindow, SearchPage, SearchRepository, SearchRow } from './search.repository';
import { correctQuery, wordsToCorrect } from './typo-correction';

const EMPTY: SearchPage = { total: 0, totalExact: true, codeMatched: false, rows: [] };

interface Outcome {
  page: SearchPage;
  /** The text actually searched (after spelling correction), for `interpretation`. */
  searched?: TextQuery;
  corrected?: boolean;
}

@Injectable()
export class SearchService {
  constructor(
    private readonly repository: SearchRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async search(request: SearchRequestDto): Promise<SearchResponseDto> {
    const { limit, page } = request;
    const window = { limit, offset: (page - 1) * limit };
    const interpretation = request.query === undefined ? null : interpretQuery(request.query, request.near);
    const { plan, scope } = planSearch(request, interpretation);

    let outcome: Outcome = { page: EMPTY };
    if (interpretation === null || interpretation.kind !== 'text') {
      outcome = { page: await this.repository.searchArea(window, plan) };
    } else if (interpretation.text) {
      outcome = await this.searchText(interpretation.text, window, plan);
    }

    const include = new Set<IncludeName>(request.include ?? []);
    const response: SearchResponseDto = {
      isSuccess: true,
      page,
      pageTotal: Math.ceil(outcome.page.total / limit),
      data: outcome.page.rows.map((row) => this.toRecord(row, include, scoreOf(row, plan, outcome.searched !== undefined))),
      result_id: resultIdFor({ query: request.query, limit }, scope),
      region: 'global',
      region_id: null,
    };
    if (include.has('total')) {
      response.total = outcome.page.total;
      response.total_exact = outcome.page.totalExact;
    }
    if (include.has('interpretation')) response.interpretation = describe(interpretation, outcome);
    return response;
  }

  // Full text first; when it finds nothing, the same with misspelt words corrected against the
  // vocabulary; when that finds nothing either, trigram similarity of the whole query.
  private async searchText(text: TextQuery, window: PageWindow, plan: SearchPlan): Promise<Outcome> {
    const exact = await this.repository.searchFullText(text, window, plan);
    if (exact.total > 0) return { page: exact, searched: text };

    const candidates = await this.repository.wordCandidates(wordsToCorrect(text));
    const corrected = correctQuery(text, candidates);
    if (corrected) {
      const page = await this.repository.searchFullText(corrected, window, plan);
      if (page.total > 0) return { page, searched: corrected, corrected: true };
    }
    return { page: await this.repository.searchFuzzy(text, window, plan), searched: text };
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

function describe(interpretation: QueryInterpretation | null, outcome: Outcome): SearchInterpretationDto | null {
  if (interpretation === null) return null;
  if (interpretation.kind !== 'text') {
    const { lat, lon } = interpretation.point;
    return { kind: interpretation.kind, normalized: interpretation.normalized, lat, lon };
  }
  if (outcome.page.codeMatched && outcome.searched?.code) {
    return { kind: 'location_code', normalized: outcome.searched.code.toUpperCase() };
  }
  const normalized = outcome.corrected && outcome.searched ? outcome.searched.text : interpretation.normalized;
  return { kind: 'text', normalized };
}

function round(n: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}
