import { PLAIN_SHAPE, TextQueryShape } from '../../src/search/planning/index-choice';
import { ImageryLayout, PAGE_STRATEGIES, pageStrategyOf } from '../../src/search/planning/page-strategy';
import type { SearchPlan } from '../../src/search/planning/search-planner';
import type { PlacePins } from '../../src/search/sql/place-pins.sql';
import { SAMPLE_NEAR, SAMPLE_PAGE, samplePins, samplePlan, sampleText } from '../../src/search/sql/search-sql.samples';
import { fullTextSql } from '../../src/search/sql/text-search.sql';

// The full-text step's page strategy (src/search/planning/page-strategy.ts): the first row of
// PAGE_STRATEGIES that holds, its facets, and the statement fullTextSql builds for it.
const lists: TextQueryShape = {
  ...PLAIN_SHAPE,
  broad: true,
  lists: { words: ['cherry', 'chestnut'], estimate: 24_765, checked: false, floor: 13_102 },
  estimate: 24_765,
};
const plain = samplePlan({ query: 'che' });
const near = samplePlan({ query: 'che', ...SAMPLE_NEAR });
const inRegion = samplePlan({ query: 'che', region: 'LI' });
const newest = samplePlan({ query: 'che', sort: 'newest' });
const town = samplePins(null);
const address = samplePins({ lon: 9.5209, lat: 47.1391 });

interface Case {
  plan: SearchPlan;
  shape?: TextQueryShape;
  pins?: PlacePins | null;
  layout?: ImageryLayout;
}
const labelOf = ({ plan, shape = PLAIN_SHAPE, pins = null, layout = 'single' }: Case) =>
  pageStrategyOf(plan, shape, pins, layout).label;

describe('pageStrategyOf', () => {
  it.each<[string, Case, string]>([
    ['a sort other than relevance, whatever else holds', { plan: newest, shape: lists, pins: town }, 'sorted+pinned'],
    [
      'a sort other than relevance, in a region',
      { plan: samplePlan({ query: 'che', region: 'LI', sort: 'oldest' }) },
      'sorted',
    ],
    ['relevance near a point', { plan: near }, 'ranked'],
    ['relevance near a point, ranked lists or not', { plan: near, shape: lists }, 'ranked'],
    ['relevance, no filters', { plan: plain }, 'head-and-tail'],
    ['relevance, no filters, a word with ranked lists', { plan: plain, shape: lists }, 'ranked-lists'],
    ['relevance in a region alone', { plan: inRegion }, 'head-and-tail+within-region'],
    [
      'relevance in a region alone: its matches are counted, not taken from lists',
      { plan: inRegion, shape: lists },
      'head-and-tail+within-region',
    ],
    ['places named', { plan: plain, pins: town }, 'head-and-tail+pinned'],
    ['places named, in a region', { plan: inRegion, pins: town }, 'head-and-tail+within-region+pinned'],
    ['no place among the pins', { plan: plain, pins: { ...town, ids: [] } }, 'head-and-tail'],
    ['on Citus', { plan: plain, shape: lists, pins: town, layout: 'citus' }, 'ranked-lists+pinned+citus'],
  ])('%s', (_, input, label) => {
    expect(labelOf(input)).toBe(label);
  });

  it('reaches every row of the table', () => {
    const chosen = new Set([newest, near, plain].map((plan) => pageStrategyOf(plan, PLAIN_SHAPE, null, 'single').name));
    chosen.add(pageStrategyOf(plain, lists, null, 'single').name);
    expect([...chosen].sort()).toEqual(PAGE_STRATEGIES.map((row) => row.name).sort());
  });

  it('scores a run of equal matches once only on one server, without a view or a centre to score by', () => {
    const once = (pins: PlacePins | null, layout: ImageryLayout = 'single') =>
      pageStrategyOf(near, PLAIN_SHAPE, pins, layout).scoresRunsOnce;
    expect(once(null)).toBe(true);
    expect(once({ ...town, centre: null })).toBe(true);
    expect(once(town)).toBe(false); // a town's centre
    expect(once(address)).toBe(false); // an address's views
    expect(once(null, 'citus')).toBe(false);
  });
});

describe('fullTextSql builds the statement of the strategy chosen', () => {
  const sqlOf = ({ plan, shape = PLAIN_SHAPE, pins = null, layout = 'single' }: Case) =>
    fullTextSql(sampleText('che'), SAMPLE_PAGE, plan, shape, pins, layout).text;

  it('sorted: the page in the sort order, no ranking of a head', () => {
    const sql = sqlOf({ plan: newest, shape: lists });
    expect(sql).toMatch(/ORDER BY i\.captured_at DESC/);
    expect(sql).not.toMatch(/head AS MATERIALIZED|found AS MATERIALIZED|imagery_word_ranks/);
  });

  it('ranked: the matches found, the first ranked', () => {
    const sql = sqlOf({ plan: near, shape: lists });
    expect(sql).toMatch(/found AS MATERIALIZED/);
    expect(sql).not.toMatch(/head AS MATERIALIZED|imagery_word_ranks/);
  });

  it('ranked, a run of equal matches scored once where the strategy says so', () => {
    expect(sqlOf({ plan: near })).toMatch(/scanned AS MATERIALIZED/);
    expect(sqlOf({ plan: near, layout: 'citus' })).not.toMatch(/scanned AS MATERIALIZED/);
    expect(sqlOf({ plan: near, pins: address })).not.toMatch(/scanned AS MATERIALIZED/);
  });

  it('ranked-lists: the head from the ranked word lists', () => {
    expect(sqlOf({ plan: plain, shape: lists })).toMatch(/FROM imagery_word_ranks r/);
  });

  it('head-and-tail: the head of the matches found, numbered; within a region, the region filters them', () => {
    const sql = sqlOf({ plan: plain });
    expect(sql).toMatch(/head AS MATERIALIZED/);
    expect(sql).not.toMatch(/imagery_word_ranks/);
    const within = sqlOf({ plan: inRegion, shape: lists });
    expect(within).toMatch(/head AS MATERIALIZED/);
    expect(within).not.toMatch(/imagery_word_ranks/);
    expect(within).toMatch(/i\.country_code = \$\d+/);
  });
});
