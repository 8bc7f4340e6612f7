import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { regionByCode } from '../places/regions';
import { formatCaptureDate, formatCompass, resolveImageUrl } from './search-record-format';
import { PlaceMatcherService } from './place-matching/place-matcher.service';
import { pinsOf, RankedPlace } from './place-matching/place-ranking';
import { surroundingsPlan } from './place-matching/place-surroundings';
import { RecordPlaces } from './place-matching/record-places';
import { interpretQuery, QueryInterpretation } from './query-interpretation';
import { planSearch, SearchPlan } from './search-filters';
import { IncludeName } from './search-filters.dto';
import { SearchRequestDto } from './search.dto';
import { ImageryRecordDto, NearestImageryDto, SearchInterpretationDto, SearchResponseDto } from './search-response.dto';
import { resultIdFor, TextQuery } from './search-query';
import { PageWindow, SearchPage, SearchRepository, SearchRow } from './search.repository';
import { correctQuery, unknownWords, wordsToCorrect } from './typo-correction';

const EMPTY: SearchPage = { total: 0, totalExact: true, codeMatched: false, rows: [] };

interface Outcome {
  page: SearchPage;
  /** The text actually searched (after spelling correction), for `interpretation`. */
  searched?: TextQuery;
  corrected?: boolean;
  /** The places the query named, best first. */
  places: RankedPlace[];
}

@Injectable()
export class SearchService {
  constructor(
    private readonly repository: SearchRepository,
    private readonly placeMatcher: PlaceMatcherService,
    private readonly recordPlaces: RecordPlaces,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async search(request: SearchRequestDto): Promise<SearchResponseDto> {
    const { limit, page } = request;
    const window = { limit, offset: (page - 1) * limit };
    const interpretation = request.query === undefined ? null : interpretQuery(request.query, request.near);
    const { plan, scope } = planSearch(request, interpretation);

    let outcome: Outcome = { page: EMPTY, places: [] };
    if (interpretation === null || interpretation.kind !== 'text') {
      outcome = { page: await this.repository.searchArea(window, plan), places: [] };
    } else if (interpretation.text) {
      outcome = await this.searchText(interpretation.text, window, plan);
    }

    const include = new Set<IncludeName>(request.include ?? []);
    const region = plan.filters.region === undefined ? undefined : regionByCode(plan.filters.region);
    const data = outcome.page.rows.map((row) =>
      this.toRecord(row, include, scoreOf(row, plan, outcome.searched !== undefined)),
    );
    if (include.has('place')) await this.recordPlaces.attach(data, outcome.page.rows, outcome.places);
    const response: SearchResponseDto = {
      isSuccess: true,
      page,
      pageTotal: Math.ceil(outcome.page.total / limit),
      data,
      result_id: resultIdFor({ query: request.query, limit }, scope),
      region: region?.name ?? 'global',
      region_id: region?.code ?? null,
    };
    if (include.has('total')) {
      response.total = outcome.page.total;
      response.total_exact = outcome.page.totalExact;
    }
    if (include.has('interpretation')) {
      response.interpretation = describe(interpretation, outcome, plan);
      if (response.interpretation && plan.anchor && interpretation?.kind !== 'text' && outcome.page.total === 0) {
        response.interpretation.nearest = await this.nearestOutside(plan);
      }
    }
    return response;
  }

  // The places the query names pin their imagery first (see place-ranking.ts). Full text first; when
  // it finds nothing, the imagery around the place it names; then the same with misspelt words
  // corrected against the vocabulary and misspelt place names looked up by similarity (and around
  // the place meant); when that finds nothing either, trigram similarity of the whole query. A word
  // the vocabulary does not know (see unknownWords) would make the full-text search find nothing, so
  // without named places it is not sent until the corrections found nothing.
  private async searchText(text: TextQuery, window: PageWindow, plan: SearchPlan): Promise<Outcome> {
    const region = plan.filters.region ?? null;
    // The vocabulary is in memory but for its first read (and one a minute after, see vocabulary()).
    const vocabulary = await this.repository.vocabulary();
    const places = await this.placeMatcher.named(text, region, vocabulary);
    const bound = places.length > 0 || unknownWords(text, vocabulary).length === 0;
    if (bound) {
      const exact = await this.repository.searchFullText(text, window, plan, pinsOf(places));
      if (exact.total > 0) return { page: exact, searched: text, places };
    }
    const around = await this.aroundPlace(places, window, plan);
    if (around) return around;

    // The words the vocabulary does not hold; when it holds them all (they matched nothing together),
    // every word: a typo can make another real word ("Boneville" for "Bonneville"), and without a
    // correction the similar-places statement runs, over every place name (cut at its budget: 500 ms
    // of a 1,012 ms `Bangor Street, Boneville` at 10M records).
    const correctable = wordsToCorrect(text);
    const unknown = correctable.filter((w) => vocabulary.docsOf(w) === undefined);
    const candidates = await (unknown.length > 0
      ? this.repository.wordCandidates(unknown)
      : this.repository.wordCandidates(correctable, true));
    const corrected = correctQuery(text, candidates);
    // Places the corrected words name are the surer guess; then the addresses that hold the corrected
    // words; else the names most like the query, asked for only then (trigram similarity over every
    // place name: the costliest statement of a typo, 43 ms for "Willqw Creek" at 1M records, whose
    // corrected words find the 49 Willow Creek addresses that "Johns Creek", the most similar name,
    // would have pushed down).
    const named = corrected ? await this.placeMatcher.named(corrected, region, vocabulary) : [];
    if (corrected && named.length === 0) {
      const page = await this.repository.searchFullText(corrected, window, plan);
      if (page.total > 0) return { page, searched: corrected, corrected: true, places: [] };
    }
    const meant = named.length > 0 ? named : await this.placeMatcher.misspelt(text, region);
    if (meant.length > 0) {
      const page = await this.repository.searchFullText(corrected ?? text, window, plan, pinsOf(meant));
      if (page.total > 0) return { page, searched: corrected ?? text, corrected: corrected !== null, places: meant };
      const aroundMeant = await this.aroundPlace(meant, window, plan);
      if (aroundMeant) return aroundMeant;
    }
    // Skipped above: the text may still match what the vocabulary in memory cannot know (a location
    // code, a word imported since it was read).
    if (!bound) {
      const exact = await this.repository.searchFullText(text, window, plan);
      if (exact.total > 0) return { page: exact, searched: text, places };
    }
    return { page: await this.repository.searchFuzzy(text, window, plan), searched: text, places: [] };
  }

  // A place the query names has no imagery of its own: the imagery nearest to it, within its
  // surroundings (see place-surroundings.ts), under the request's other filters.
  private async aroundPlace(places: RankedPlace[], window: PageWindow, plan: SearchPlan): Promise<Outcome | null> {
    if (places.length === 0) return null;
    const page = await this.repository.searchArea(window, surroundingsPlan(plan, places[0]));
    return page.total > 0 ? { page, places: [places[0]] } : null;
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

function describe(
  interpretation: QueryInterpretation | null,
  outcome: Outcome,
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
