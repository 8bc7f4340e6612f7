import { Injectable } from '@nestjs/common';
import type { SearchPlan } from '../planning/search-planner';
import type { PageWindow } from '../paging/search-limits';
import type { CategoryArea } from '../sql/category-search.sql';
import type { CategoryImagery } from './category-imagery';
import { TextQuery, textQueryFromGroups } from '../query/text-query';
import { PLACE_RANK_WEIGHTS } from '../ranking/score-weights';
import { Vocabulary } from '../vocabulary/vocabulary-lookup';
import { shouldSplitPrefix } from '../planning/index-choice';
import { AddressTown, PlaceMatchingRepository } from './place-matching.repository';
import { MAX_PINNED_PLACES, rankPlaces, RankedPlace } from './place-ranking';
import { tokenize } from '../query/tokenize';
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

  /** The town these words name as addresses and pois name it (addr:city), when no place has that name; null when none does. */
  addressTown(query: TextQuery, region: string | null): Promise<AddressTown | null> {
    return this.repository.addressTown(query, region);
  }

  /** A country's ("LI") or first-level region's ("US-TX") own place in the gazetteer, ranked first; null when not loaded. */
  async regionPlace(code: string): Promise<RankedPlace | null> {
    const kind = code.includes('-') ? 'region' : 'country';
    const place = await this.repository.regionPlace(placeId(GAZETTEER_SOURCE, `${kind}:${code.toUpperCase()}`));
    return place && { ...place, rank: place.importance };
  }

  /**
   * The addresses on the street these words name (its name's words, any of their spellings) whose
   * label names the town (`town`'s words, whole), those spelt as typed first: a street that only its
   * addresses name, or one its lines name otherwise (the data spells it two ways).
   */
  async streetAddresses(
    street: TextQuery,
    town: TextQuery,
    region: string | null,
  ): Promise<Array<RankedPlace & { street: string }>> {
    const both = textQueryFromGroups([...street.groups, ...town.groups], `${street.text} ${town.text}`, null);
    const rows = await this.repository.streetAddresses(both, region);
    const named = rows.filter((p) => {
      const words = tokenize(p.street);
      const label = tokenize(p.label);
      return (
        words.length === street.groups.length &&
        words.every((w, i) => street.groups[i].includes(w)) &&
        town.groups.every((g) => g.some((w) => label.includes(w)))
      );
    });
    const asTyped = (p: { street: string }) => tokenize(p.street).join(' ') === street.words.join(' ');
    return named
      .map((p) => ({ ...p, rank: p.importance + (asTyped(p) ? PLACE_RANK_WEIGHTS.spelledAsTyped : 0) }))
      .sort((a, b) => b.rank - a.rank || (a.id < b.id ? -1 : 1))
      .slice(0, MAX_PINNED_PLACES);
  }

  async misspelt(query: TextQuery, region: string | null): Promise<RankedPlace[]> {
    if (!query.words.some((w) => /\p{L}{3}/u.test(w))) return [];
    return rankPlaces(query, await this.repository.similar(query.text, region));
  }
}
