import type { PlacePins } from '../sql/place-pins.sql';
import { filterConditions } from '../sql/filter-conditions.sql';
import type { TextQueryShape } from './index-choice';
import type { SearchPlan } from './search-planner';

// How the full-text step reads its page, decided once per statement from the plan, the query's shape
// (index-choice.ts), the places it names and where imagery lives: the first row of PAGE_STRATEGIES
// whose condition holds, then the facets that change that strategy's statement. The statements
// themselves are sql/page-strategies.sql.ts and sql/ranked-list-page.sql.ts; sql/text-search.sql.ts
// builds the one chosen here, and the committed SQL's headings name it.

/** Where imagery lives: one server, or distributed over Citus workers (docs/scaling.md, the citus profile). */
export type ImageryLayout = 'single' | 'citus';

/** What the choice reads. */
export interface PageStrategyInput {
  plan: SearchPlan;
  shape: TextQueryShape;
  pins: PlacePins | null;
  layout: ImageryLayout;
}

/** No anchor point and no filter at all. */
export const isUnfiltered = (plan: SearchPlan): boolean =>
  plan.anchor === null && filterConditions(plan.filters).length === 0;

// A region (or country) is the only filter: the full-text index holds the codes (btree_gin), so the
// matches in the region are one GIN scan and are read like those of an unfiltered search.
export const isRegionOnly = (plan: SearchPlan): boolean =>
  plan.anchor === null && plan.filters.region !== undefined && filterConditions(plan.filters).length === 1;

/** A sort other than relevance: every match in that order, which an index often walks. */
export const sortedOtherThanByRelevance = (c: PageStrategyInput): boolean => c.plan.sort !== 'relevance';

/** Relevance under filters other than a region alone: the first matches found are ranked. */
export const filteredBeyondRegion = (c: PageStrategyInput): boolean => !isUnfiltered(c.plan) && !isRegionOnly(c.plan);

/**
 * Many matches whose words have ranked lists (index-choice.ts, rankedListChoice), and no region: the
 * vocabulary counts the whole catalogue, so a region's matches are read and counted.
 */
export const rankedListsHoldTheHead = (c: PageStrategyInput): boolean =>
  c.shape.lists !== null && !isRegionOnly(c.plan);

const always = (): boolean => true;

export const PAGE_STRATEGIES = [
  { name: 'sorted', when: sortedOtherThanByRelevance },
  { name: 'ranked', when: filteredBeyondRegion },
  { name: 'ranked-lists', when: rankedListsHoldTheHead },
  { name: 'head-and-tail', when: always },
] as const satisfies ReadonlyArray<{ name: string; when: (c: PageStrategyInput) => boolean }>;

export type PageStrategyName = (typeof PAGE_STRATEGIES)[number]['name'];

/** Relevance with a region the only filter: read like no filter, within the region. */
export const withinRegionAlone = (c: PageStrategyInput): boolean => c.plan.sort === 'relevance' && isRegionOnly(c.plan);

/** The query names places: their records are matches too, ranked first. */
export const placesPinned = (c: PageStrategyInput): boolean => c.pins !== null && c.pins.ids.length > 0;

export const onCitus = (c: PageStrategyInput): boolean => c.layout === 'citus';

/**
 * The ranked strategy scores a run of equal matches once (see rankedPageSql): not on Citus (its window
 * functions over the matches are not planned there), nor when a named address's views or a named
 * town's centre score each record by its own point and heading.
 */
export const scoresRunsOnce = (c: PageStrategyInput): boolean =>
  !onCitus(c) && !(placesPinned(c) && (c.pins!.views.length > 0 || Boolean(c.pins!.centre)));

// The facets that change the chosen strategy's statement, in the order its label names them.
export const PAGE_FACETS = [
  { name: 'within-region', when: withinRegionAlone },
  { name: 'pinned', when: placesPinned },
  { name: 'citus', when: onCitus },
] as const satisfies ReadonlyArray<{ name: string; when: (c: PageStrategyInput) => boolean }>;

export type PageFacet = (typeof PAGE_FACETS)[number]['name'];

export interface PageStrategy {
  name: PageStrategyName;
  facets: PageFacet[];
  /** The name and its facets ("head-and-tail+pinned"): what the SQL review's headings and `interpretation` show. */
  label: string;
  scoresRunsOnce: boolean;
}

/** The page strategy of a full-text statement: the first row of PAGE_STRATEGIES that holds, with its facets. */
export function pageStrategyOf(
  plan: SearchPlan,
  shape: TextQueryShape,
  pins: PlacePins | null,
  layout: ImageryLayout,
): PageStrategy {
  const input = { plan, shape, pins, layout };
  const { name } = PAGE_STRATEGIES.find((row) => row.when(input))!;
  const facets = PAGE_FACETS.filter((facet) => facet.when(input)).map((facet) => facet.name);
  return { name, facets, label: [name, ...facets].join('+'), scoresRunsOnce: scoresRunsOnce(input) };
}
