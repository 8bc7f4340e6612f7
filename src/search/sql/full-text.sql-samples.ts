import type { SqlExample } from '../../database/generate-sql';
import { COUNT_CAP } from '../paging/search-limits';
import { PLAIN_SHAPE, shapeTextQuery, TextQueryShape } from '../planning/index-choice';
import { ImageryLayout, pageStrategyOf } from '../planning/page-strategy';
import { NO_FILTERS } from '../planning/search-planner';
import { EMPTY_VOCABULARY } from '../vocabulary/vocabulary-lookup';
import { fullTextSql } from './text-search.sql';
import {
  NO_VOCABULARY,
  SAMPLE_NEAR,
  SAMPLE_PAGE as page,
  samplePins as pins,
  samplePlan as plan,
  sampleText as text,
} from './search-sql.samples';

// The shapes of a full-text search the SQL review shows (SearchRepository.searchFullText): each
// page strategy with its facets (planning/page-strategy.ts), the index choices, location codes,
// filters, sorting and the places a query names. Each heading names the strategy pageStrategyOf
// chooses for the sample, so the review shows which table row wrote each statement.
type FullTextArgs = Parameters<typeof fullTextSql>;

const strategyOf = ([, , samplePlan, shape, samplePins, layout]: FullTextArgs) =>
  pageStrategyOf(samplePlan ?? NO_FILTERS, shape ?? PLAIN_SHAPE, samplePins ?? null, layout ?? 'single').label;

// A sample built by fullTextSql from these arguments (a thunk, as the names are: read by `npm run sql` only).
function sample(description: string, args: () => FullTextArgs): SqlExample {
  return {
    get name() {
      return `${description} (page strategy: ${strategyOf(args())})`;
    },
    sql: () => fullTextSql(...args()),
  };
}

const citus: ImageryLayout = 'citus';
const lists = (words: string[], estimate: number, checked: boolean, floor: number): TextQueryShape => ({
  splitPrefix: false,
  broad: true,
  lists: { words, estimate, checked, floor },
  estimate,
});

export const FULL_TEXT_SQL_EXAMPLES: SqlExample[] = [
  {
    // Through the repository: the vocabulary is read first (empty here), then the statement.
    get name() {
      const query = text('Herrengasse 35 Vaduz');
      const shape = shapeTextQuery(query, EMPTY_VOCABULARY, COUNT_CAP);
      return `relevance, no filters (page strategy: ${strategyOf([query, page, plan({ query: query.text }), shape])})`;
    },
    params: () => [text('Herrengasse 35 Vaduz'), page, plan({ query: 'Herrengasse 35 Vaduz' })],
    answers: [[NO_VOCABULARY]],
  },
  sample('several words, the last one common (split)', () => [
    text('101 Valley Avenue, United States'),
    page,
    plan({ query: '101 Valley Avenue, United States' }),
    { splitPrefix: true, broad: false, lists: null, estimate: null },
  ]),
  sample('one word in far more addresses than the cap (broad)', () => [
    text('street'),
    page,
    plan({ query: 'street' }),
    { splitPrefix: false, broad: true, lists: null, estimate: 210_000 },
  ]),
  sample('one common word, its head from ranked word lists', () => [
    text('che'),
    page,
    plan({ query: 'che' }),
    lists(['cherry', 'chestnut'], 24_765, false, 13_102),
  ]),
  sample('several common words, the head from the ranked list of one, checked for the others', () => [
    text('United States'),
    page,
    plan({ query: 'United States' }),
    lists(['united'], 419_000, true, 0),
  ]),
  sample('a query that may be a location code', () => [text('LI-9490'), page, plan({ query: 'LI-9490' })]),
  sample('relevance with a filter', () => [text('Herrengasse'), page, plan({ query: 'Herrengasse', ...SAMPLE_NEAR })]),
  sample('a street the query names, near a point (a run of equal matches scored once)', () => [
    text('Herrengasse'),
    page,
    plan({ query: 'Herrengasse', ...SAMPLE_NEAR }),
    undefined,
    { ...pins(null), centre: null },
  ]),
  sample('newest first', () => [text('Herrengasse'), page, plan({ query: 'Herrengasse', sort: 'newest' })]),
  sample('the query names places', () => [
    text('Springfield IL'),
    page,
    plan({ query: 'Springfield IL' }),
    undefined,
    pins(null),
  ]),
  sample('the query names places, its matches estimated (the head is read only past the pinned rows)', () => [
    text('New Mi'),
    page,
    plan({ query: 'New Mi' }),
    { splitPrefix: false, broad: false, lists: null, estimate: 320 },
    pins(null),
  ]),
  sample('the query names an address (pins and best view)', () => [
    text('Herrengasse 35 Vaduz'),
    page,
    plan({ query: 'Herrengasse 35 Vaduz' }),
    undefined,
    pins({ lon: 9.5209, lat: 47.1391 }),
  ]),
  sample('places named, with a region filter', () => [
    text('Springfield'),
    page,
    plan({ query: 'Springfield', region: 'US-IL' }),
    undefined,
    pins(null),
  ]),
  // With imagery distributed over Citus workers (docs/scaling.md#citus): the forms Citus plans.
  sample('imagery distributed (Citus): the query names places', () => [
    text('Springfield IL'),
    page,
    plan({ query: 'Springfield IL' }),
    undefined,
    pins(null),
    citus,
  ]),
  sample('imagery distributed (Citus): a broad word that names a place', () => [
    text('springfield'),
    { limit: 20, offset: 20 },
    plan({ query: 'springfield' }),
    { splitPrefix: false, broad: true, lists: null, estimate: null },
    pins(null),
    citus,
  ]),
  sample('imagery distributed (Citus): ranked word lists and a named place', () => [
    text('che'),
    page,
    plan({ query: 'che' }),
    lists(['cherry', 'chestnut'], 24_765, false, 13_102),
    pins(null),
    citus,
  ]),
];
