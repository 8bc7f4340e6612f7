import { Prisma } from '@prisma/client';
import { NO_FILTERS, SearchPlan } from '../planning/search-planner';
import { COUNT_CAP, PageWindow, SCORE_CAP } from '../paging/search-limits';
import { TextQuery } from '../query/text-query';
import { PLAIN_SHAPE } from '../planning/index-choice';
import { PlacePins, pinsSql } from './place-pins.sql';
import { filterConditions } from './filter-conditions.sql';
import { headTailPageSql, rankedPageSql, sortedPageSql, TextSearch } from './page-strategies.sql';
import { ImageryLayout, pageStrategyOf } from '../planning/page-strategy';
import { rankedListPageSql } from './ranked-list-page.sql';
import { SCORE_WEIGHTS, WORD_TERMS, WordTerm } from '../ranking/score-weights';

// Full-text match on the generated tsvector (GIN index imagery_address_tsv_idx), or an address
// that is the query as a location code (btree imagery_address_code_idx), or a record of a place the
// query names (pins); code matches and the named places' records rank first. The page is read by
// the strategy pageStrategyOf chooses (planning/page-strategy.ts): sorted, ranked, ranked lists (a
// common word's head from its ranked word lists, see rankedListChoice) or head and tail.
export function fullTextSql(
  query: TextQuery,
  window: PageWindow,
  plan: SearchPlan = NO_FILTERS,
  shape = PLAIN_SHAPE,
  pins: PlacePins | null = null,
  // citus: the named places' records (and the head and tail) are read in the forms Citus plans.
  layout: ImageryLayout = 'single',
): Prisma.Sql {
  const strategy = pageStrategyOf(plan, shape, pins, layout);
  const distributed = strategy.facets.includes('citus');
  const norm = Prisma.sql`lis_normalize(${query.text})`;
  // Split (see shapeTextQuery): the index looks up all words but the last and the whole query (its
  // last word a prefix) filters what it finds, as GIN cannot skip through a prefix and a common
  // one ("states") would list half the index. coalesce() keeps the planner from indexing it.
  // The last word's completions, when the vocabulary spells them out, stand for its prefix.
  const tsquery = shape.completed ?? query.tsquery;
  // The index looks up the rarest words alone when they narrow enough (shape.indexed), else every
  // word but a split-off last one.
  const looked = shape.indexed ?? (shape.splitPrefix ? query.tsqueryLeading : null);
  const tsv =
    looked === null
      ? Prisma.sql`i.address_tsv @@ to_tsquery('simple', ${tsquery})`
      : Prisma.sql`i.address_tsv @@ to_tsquery('simple', ${looked})
        AND coalesce(i.address_tsv @@ to_tsquery('simple', ${tsquery}), false)`;
  const isCode = query.code === null ? null : Prisma.sql`coalesce(i.address_code = ${query.code}, false)`;
  // A region as the only filter is read like no filter, within the region (see isRegionOnly). The
  // region checks the pinned rows and code matches found by their own index probes: coalesce() keeps
  // it a filter of their few records, never a bitmap of every record of the region.
  const within = strategy.facets.includes('within-region') ? filterConditions(plan.filters)[0] : null;
  const and = within ? Prisma.sql`AND coalesce(${within}, false)` : Prisma.empty;
  const pinned = pins && pins.ids.length > 0 ? pinsSql(pins, and, distributed) : null;
  const isPinned = pinned?.isPinned ?? null;
  const matches = [
    tsv,
    ...(isCode ? [Prisma.sql`i.address_code = ${query.code}`] : []),
    ...(isPinned ? [isPinned] : []),
  ];
  const textScore = textScoreSql(query, norm, isCode);
  const search: TextSearch = {
    match: matches.length === 1 ? tsv : Prisma.sql`(${Prisma.join(matches, ' OR ')})`,
    score: pinned ? Prisma.sql`${textScore} + ${pinned.score}` : textScore,
    codeMatch: isCode ?? Prisma.sql`false`,
    alwaysRanked: isPinned ? Prisma.sql`(${isCode ?? Prisma.sql`false`} OR ${isPinned})` : undefined,
    cap: COUNT_CAP,
    scoreReads: strategy.scoresRunsOnce ? SCORE_READS : undefined,
  };
  if (strategy.name === 'sorted') return sortedPageSql(window, plan, search);
  if (strategy.name === 'ranked') return rankedPageSql(window, plan, search);
  const codes =
    query.code === null
      ? null
      : Prisma.sql`SELECT i.id, true AS code_match FROM imagery i WHERE i.address_code = ${query.code} ${and} LIMIT ${SCORE_CAP}`;
  const pinRows = pinned?.rows ?? null;
  // Without filters (or a region alone) the pinned rows rank first, the others by text alone (their
  // place's pin is what the pinned rows carry), so a page the pinned rows fill is the same page
  // however it is read.
  const headTail = {
    ...search,
    score: textScore,
    pinnedScore: search.score,
    found: within ? Prisma.sql`${tsv} AND ${within}` : tsv,
    pinned: codes && pinRows ? Prisma.sql`(${codes}) UNION ALL (${pinRows})` : (codes ?? pinRows),
    // The vocabulary counts the whole catalogue, not a region: the matches in one are counted.
    broad: !within && shape.broad,
    estimate: within ? null : shape.estimate,
    distributed,
  };
  return strategy.name === 'ranked-lists'
    ? rankedListPageSql(window, headTail, shape.lists!)
    : headTailPageSql(window, headTail);
}

// A record's text score: its address's similarity to the query, plus the weight of each word term it
// holds and of a location code equal to the query (ranking/score-weights.ts).
function textScoreSql(query: TextQuery, norm: Prisma.Sql, isCode: Prisma.Sql | null): Prisma.Sql {
  const w = (weight: number) => Prisma.raw(String(weight));
  const holds: Record<WordTerm, Prisma.Sql> = {
    wholeAddress: Prisma.sql`i.address_norm = ${norm}`,
    startsWithQuery: Prisma.sql`starts_with(i.address_norm, ${norm})`,
    everyWordWhole: Prisma.sql`i.address_tsv @@ to_tsquery('simple', ${query.tsqueryExact})`,
  };
  const wordTerms = WORD_TERMS.map((t) => Prisma.sql`+ CASE WHEN ${holds[t]} THEN ${w(SCORE_WEIGHTS[t])} ELSE 0 END`);
  return Prisma.sql`similarity(i.address_norm, ${norm})
      + CASE WHEN ${isCode ?? Prisma.sql`false`} THEN ${w(SCORE_WEIGHTS.locationCode)} ELSE 0 END
      ${Prisma.join(wordTerms, '\n      ')}`;
}

// The columns the text score and the named places' pins (without views or a centre) read.
const SCORE_READS = ['address_norm', 'address_code', 'address_tsv', 'place_id', 'locality_id', 'address_origin'].map(
  (c) => Prisma.raw(`i.${c}`),
);

// Trigram word similarity for misspellings (GIN index imagery_address_norm_trgm_idx). Only the
// first SCORE_CAP matches found are counted and ranked: past that, similar-looking is noise.
export function fuzzySql(query: TextQuery, window: PageWindow, plan: SearchPlan = NO_FILTERS): Prisma.Sql {
  const norm = Prisma.sql`lis_normalize(${query.text})`;
  const search: TextSearch = {
    match: Prisma.sql`${norm} <% i.address_norm`,
    score: Prisma.sql`word_similarity(${norm}, i.address_norm) + similarity(i.address_norm, ${norm})`,
    codeMatch: Prisma.sql`false`,
    cap: SCORE_CAP,
  };
  return plan.sort === 'relevance' ? rankedPageSql(window, plan, search) : sortedPageSql(window, plan, search);
}
