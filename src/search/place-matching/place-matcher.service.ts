import { Injectable } from '@nestjs/common';
import type { SearchPlan } from '../planning/search-planner';
import type { PageWindow } from '../paging/search-limits';
import type { CategoryArea } from '../sql/category-search.sql';
import type { CategoryImagery } from './category-imagery';
import { TextQuery } from '../query/text-query';
import { Vocabulary } from '../vocabulary/vocabulary-lookup';
import { shouldSplitPrefix } from '../planning/index-choice';
import { PlaceMatchingRepository } from './place-matching.repository';
import { rankPlaces, RankedPlace } from './place-ranking';
import { GAZETTEER_SOURCE } from '../../places/gazetteer/gazetteer-place';
import { placeId } from '../../places/place-record';

// Which places a query means (see place-ranking.ts): by full text first; names that may be
// misspelt by trigram similarity, asked for only when the spelling as typed found nothing.
@Injectable()
export class PlaceMatcherService {
  constructor(private readonly repository: PlaceMatchingRepository) {}

  /** `vocabulary`: the catalogue's, to decide whether the index looks up the last word (see shouldSplitPrefix). */
  async named(query: TextQuery, region: string | null, vocabulary: Vocabulary): Promise<RankedPlace[]> {
    return rankPlaces(query, await this.repository.candidates(query, region, shouldSplitPrefix(query, vocabulary)));
  }

  /** The imagery at the pois of these categories (OSM tags) in the area, nearest poi first. */
  atCategory(tags: string[], area: CategoryArea, window: PageWindow, plan: SearchPlan): Promise<CategoryImagery> {
    return this.repository.categoryImagery(tags, area, window, plan);
  }

  /** A country's ("LI") or first-level region's ("US-TX") own place in the gazetteer, ranked first; null when not loaded. */
  async regionPlace(code: string): Promise<RankedPlace | null> {
    const kind = code.includes('-') ? 'region' : 'country';
    const place = await this.repository.regionPlace(placeId(GAZETTEER_SOURCE, `${kind}:${code.toUpperCase()}`));
    return place && { ...place, rank: place.importance };
  }

  async misspelt(query: TextQuery, region: string | null): Promise<RankedPlace[]> {
    if (!query.words.some((w) => /\p{L}{3}/u.test(w))) return [];
    return rankPlaces(query, await this.repository.similar(query.text, region));
  }
}
