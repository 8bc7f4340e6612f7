import type { SqlExample } from '../database/generate-sql';
import { fullTextSql } from './sql/text-search.sql';
import {
  NO_VOCABULARY,
  SAMPLE_NEAR,
  SAMPLE_PAGE as page,
  samplePins as pins,
  samplePlan as plan,
  sampleText as text,
} from './search-sql.samples';

// The shapes of a full-text search the SQL review shows (SearchRepository.searchFullText): each
// page strategy, the index choices, location codes, filters, sorting and the places a query names.
export const FULL_TEXT_SQL_EXAMPLES: SqlExample[] = [
  {
    name: 'relevance, no filters (head and tail)',
    params: () => [text('Herrengasse 35 Vaduz'), page, plan({ query: 'Herrengasse 35 Vaduz' })],
    answers: [[NO_VOCABULARY]],
  },
  {
    name: 'several words, the last one common (split)',
    sql: () =>
      fullTextSql(text('101 Valley Avenue, United States'), page, plan({ query: '101 Valley Avenue, United States' }), {
        splitPrefix: true,
        broad: false,
        lists: null,
        estimate: null,
      }),
  },
  {
    name: 'one word in far more addresses than the cap (broad)',
    sql: () =>
      fullTextSql(text('street'), page, plan({ query: 'street' }), {
        splitPrefix: false,
        broad: true,
        lists: null,
        estimate: 210_000,
      }),
  },
  {
    name: 'one common word, its head from ranked word lists',
    sql: () =>
      fullTextSql(text('che'), page, plan({ query: 'che' }), {
        splitPrefix: false,
        broad: true,
        lists: { words: ['cherry', 'chestnut'], estimate: 24_765, checked: false, floor: 13_102 },
        estimate: 24_765,
      }),
  },
  {
    name: 'several common words, the head from the ranked list of one, checked for the others',
    sql: () =>
      fullTextSql(text('United States'), page, plan({ query: 'United States' }), {
        splitPrefix: false,
        broad: true,
        lists: { words: ['united'], estimate: 419_000, checked: true, floor: 0 },
        estimate: 419_000,
      }),
  },
  {
    name: 'a query that may be a location code',
    sql: () => fullTextSql(text('LI-9490'), page, plan({ query: 'LI-9490' })),
  },
  {
    name: 'relevance with a filter (ranked candidates)',
    sql: () => fullTextSql(text('Herrengasse'), page, plan({ query: 'Herrengasse', ...SAMPLE_NEAR })),
  },
  {
    name: 'a street the query names, near a point (ranked, a run of equal matches scored once)',
    sql: () =>
      fullTextSql(text('Herrengasse'), page, plan({ query: 'Herrengasse', ...SAMPLE_NEAR }), undefined, {
        ...pins(null),
        centre: null,
      }),
  },
  {
    name: 'newest first',
    sql: () => fullTextSql(text('Herrengasse'), page, plan({ query: 'Herrengasse', sort: 'newest' })),
  },
  {
    name: 'the query names places (pins)',
    sql: () => fullTextSql(text('Springfield IL'), page, plan({ query: 'Springfield IL' }), undefined, pins(null)),
  },
  {
    name: 'the query names places, its matches estimated (the head is read only past the pinned rows)',
    sql: () =>
      fullTextSql(
        text('New Mi'),
        page,
        plan({ query: 'New Mi' }),
        { splitPrefix: false, broad: false, lists: null, estimate: 320 },
        pins(null),
      ),
  },
  {
    name: 'the query names an address (pins and best view)',
    sql: () =>
      fullTextSql(
        text('Herrengasse 35 Vaduz'),
        page,
        plan({ query: 'Herrengasse 35 Vaduz' }),
        undefined,
        pins({ lon: 9.5209, lat: 47.1391 }),
      ),
  },
  {
    name: 'places named, with a region filter (read like no filter, within the region)',
    sql: () =>
      fullTextSql(text('Springfield'), page, plan({ query: 'Springfield', region: 'US-IL' }), undefined, pins(null)),
  },
  // With imagery distributed over Citus workers (docs/scaling.md#citus): the forms Citus plans.
  {
    name: 'imagery distributed (Citus): the query names places',
    sql: () =>
      fullTextSql(text('Springfield IL'), page, plan({ query: 'Springfield IL' }), undefined, pins(null), true),
  },
  {
    name: 'imagery distributed (Citus): a broad word that names a place',
    sql: () =>
      fullTextSql(
        text('springfield'),
        { limit: 20, offset: 20 },
        plan({ query: 'springfield' }),
        { splitPrefix: false, broad: true, lists: null, estimate: null },
        pins(null),
        true,
      ),
  },
  {
    name: 'imagery distributed (Citus): ranked word lists and a named place',
    sql: () =>
      fullTextSql(
        text('che'),
        page,
        plan({ query: 'che' }),
        {
          splitPrefix: false,
          broad: true,
          lists: { words: ['cherry', 'chestnut'], estimate: 24_765, checked: false, floor: 13_102 },
          estimate: 24_765,
        },
        pins(null),
        true,
      ),
  },
];
