import { PLAIN_SHAPE } from '../../src/search/planning/index-choice';
import { SAMPLE_PAGE, samplePins, samplePlan, sampleText } from '../../src/search/sql/search-sql.samples';
import { fullTextSql } from '../../src/search/sql/text-search.sql';
import { categoryImagerySql } from '../../src/search/sql/category-search.sql';

// Statement shapes Citus refuses with imagery distributed (docs/scaling.md#citus), kept out of the
// statements that no longer have them: checked on the statement text, as the unit tier has no cluster
// (the differential suite, test/docker/citus.spec.ts, sends the searches). With imagery distributed
// (the last argument) the statements take the forms Citus plans; on one server they keep their own.

const broad = { ...PLAIN_SHAPE, broad: true, estimate: null };
const lists = {
  ...PLAIN_SHAPE,
  broad: true,
  lists: { words: ['cherry', 'chestnut'], estimate: 24_765, checked: false, floor: 13_102 },
  estimate: 24_765,
};
const named = (distributed: boolean, shape = PLAIN_SHAPE, page = SAMPLE_PAGE) =>
  fullTextSql(
    sampleText('springfield'),
    page,
    samplePlan({ query: 'springfield' }),
    shape,
    samplePins(null),
    distributed ? 'citus' : 'single',
  ).text;
// A CTE's text, from its name to the next CTE (or the final SELECT).
const cte = (sql: string, name: string) => sql.slice(sql.indexOf(`${name} AS`)).split(/\),\s*\n\s*\w+ AS /)[0];
// A LATERAL read with its own LIMIT: Citus plans none over a distributed table.
const LATERAL_LIMIT = /LATERAL\s*\([^]*?FROM imagery i[^]*?LIMIT/;

describe('statement shapes Citus plans', () => {
  it('the ranked page with filters and a named place has no subquery in a select list (the pin score names)', () => {
    const plan = samplePlan({ query: 'springfield', captured_after: '2015-01-01' });
    const { sql } = fullTextSql(sampleText('springfield'), SAMPLE_PAGE, plan, PLAIN_SHAPE, samplePins(null));
    expect(sql).toContain('found AS MATERIALIZED');
    expect(sql).toContain("to_tsquery('simple'");
    expect(sql).not.toMatch(/ARRAY\s*\(\s*SELECT/i);
  });

  it('with imagery distributed, the named places are read by a query per place on its id, not a LATERAL probe', () => {
    for (const shape of [PLAIN_SHAPE, broad, lists]) {
      const sql = named(true, shape);
      expect(sql.trimStart()).toMatch(/^WITH pinned AS MATERIALIZED/);
      expect(cte(sql, 'pinned')).not.toMatch(LATERAL_LIMIT);
      expect(sql).not.toContain('WITH ORDINALITY');
      // Both named places: their own records, and their locality's.
      expect(sql.match(/WHERE i\.place_id = \$\d+::uuid/g)).toHaveLength(2);
      expect(sql.match(/WHERE i\.locality_id = \$\d+::uuid/g)).toHaveLength(2);
    }
  });

  it('with imagery distributed, the head scores without a subquery beside its window function', () => {
    const head = cte(named(true), 'head');
    expect(head).toContain('row_number() OVER ()');
    expect(head).toContain('AND NOT f.fill');
    const selectList = head.slice(head.indexOf('SELECT'), head.indexOf('FROM imagery i'));
    expect(selectList).not.toMatch(/\(\s*SELECT/i);
    // On one server the test stays a subquery evaluated once (its plan unchanged).
    expect(cte(named(false), 'head')).toMatch(/AND NOT \(SELECT count\(\*\) FROM pinned\)/);
  });

  it('with imagery distributed, a tail read from imagery has a constant LIMIT (the page bounds it)', () => {
    const window = { limit: 20, offset: 40 };
    const tail = (distributed: boolean, shape: typeof PLAIN_SHAPE) => {
      const page = cte(named(distributed, shape, window), 'page');
      return page.slice(page.indexOf('FROM imagery i'));
    };
    // The broad head-and-tail page reads 20 of the tail's rows at most past offset 40; ranked lists one more.
    expect(tail(true, broad)).toMatch(/OFFSET \$\d+ LIMIT \$\d+/);
    expect(tail(true, lists)).toMatch(/NOT IN \(SELECT id FROM ranked\) LIMIT \$\d+/);
    expect(tail(false, broad)).not.toMatch(/LIMIT \$\d+\s*\) x/);
    const { values } = fullTextSql(
      sampleText('springfield'),
      window,
      samplePlan({ query: 'springfield' }),
      broad,
      samplePins(null),
      'citus',
    );
    expect(values).toContain(60);
  });

  it('on one server the named places keep their LATERAL probe per place (fewer statements to plan)', () => {
    const sql = named(false);
    expect(sql).toContain('WITH ORDINALITY');
    expect(cte(sql, 'pinned')).toMatch(LATERAL_LIMIT);
  });

  it('with imagery distributed, the category search joins its pois with imagery (no LATERAL read with a LIMIT)', () => {
    const category = (distributed: boolean) =>
      categoryImagerySql(
        ['amenity=restaurant'],
        { around: null, country: null },
        SAMPLE_PAGE,
        samplePlan({}),
        distributed,
      ).text;
    expect(category(true)).not.toMatch(LATERAL_LIMIT);
    expect(category(true)).toMatch(/row_number\(\) OVER \(PARTITION BY r\.poi_rank ORDER BY r\.d, r\.id\)/);
    expect(category(false)).toMatch(LATERAL_LIMIT);
  });
});
