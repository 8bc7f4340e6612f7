import { Injectable } from '@nestjs/common';
import type { SearchPlan } from '../search-planner';
import type { PageWindow } from '../search-limits';
import type { CategoryArea } from '../sql/category-search.sql';
import type { CategoryImagery } from './category-imagery';
import { TextQuery } from '../search-query';
import { Vocabulary } from '../vocabulary-lookup';
import { shouldSplitPrefix } from '../index-choice';
import { PlaceMatchingRepository } from './place-matching.repository';
import { rankPlaces, RankedPlace } from './place-ranking';

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

  async misspelt(query: TextQuery, region: string | null): Promise<RankedPlace[]> {
    if (!query.words.some((w) => /\p{L}{3}/u.test(w))) return [];
    return rankPlaces(query, await this.repository.similar(query.text, region));
  }
}
