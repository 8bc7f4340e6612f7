import { PLAIN_SHAPE } from '../../src/search/index-choice';
import { SAMPLE_PAGE, samplePins, samplePlan, sampleText } from '../../src/search/search-sql.samples';
import { categoryImagerySql } from '../../src/search/sql/category-search.sql';
import { fullTextSql } from '../../src/search/sql/text-search.sql';

// Statement shapes Citus refuses with imagery distributed (docs/scaling.md#citus), kept out of the
// statements that no longer have them: checked on the statement text, as the unit tier has no cluster
// (the differential suite, test/docker/citus.spec.ts, sends the searches).

// The text of each parenthesised group that follows `word` (the group's own parentheses matched).
function groupsAfter(sql: string, word: string): string[] {
  const out: string[] = [];
  for (let at = sql.indexOf(word); at >= 0; at = sql.indexOf(word, at + word.length)) {
    const open = sql.indexOf('(', at);
    let depth = 0;
    for (let i = open; i < sql.length; i++) {
      depth += sql[i] === '(' ? 1 : sql[i] === ')' ? -1 : 0;
      if (depth === 0) {
        out.push(sql.slice(open, i + 1));
        break;
      }
    }
  }
  return out;
}

describe('statement shapes Citus plans', () => {
  it('the ranked page with filters and a named place has no subquery in a select list (the pin score names)', () => {
    const plan = samplePlan({ query: 'springfield', captured_after: '2015-01-01' });
    const { sql } = fullTextSql(sampleText('springfield'), SAMPLE_PAGE, plan, PLAIN_SHAPE, samplePins(null));
    expect(sql).toContain('found AS MATERIALIZED');
    expect(sql).toContain("to_tsquery('simple'");
    expect(sql).not.toMatch(/ARRAY\s*\(\s*SELECT/i);
  });

  it.each([
    ['anywhere', { around: null, country: null }],
    ['around a point, in a country', { around: { lat: 47.14, lon: 9.52, radiusM: 5000 }, country: 'LI' }],
  ])('the category search (%s) reads imagery in no LATERAL subquery with a LIMIT', (_, area) => {
    const { sql } = categoryImagerySql(['amenity=restaurant'], area, SAMPLE_PAGE, samplePlan({ query: 'restaurant' }));
    const ctes = sql.slice(0, sql.indexOf('SELECT c.total'));
    expect(ctes).toContain('imagery i');
    const imageryLaterals = groupsAfter(ctes, 'LATERAL').filter((g) => /\bimagery\b/.test(g));
    expect(imageryLaterals.filter((g) => /\bLIMIT\b/.test(g))).toEqual([]);
  });
});
