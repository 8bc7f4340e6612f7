import { PLAIN_SHAPE } from '../../src/search/index-choice';
import { SAMPLE_PAGE, samplePins, samplePlan, sampleText } from '../../src/search/search-sql.samples';
import { fullTextSql } from '../../src/search/sql/text-search.sql';

// Statement shapes Citus refuses with imagery distributed (docs/scaling.md#citus), kept out of the
// statements that no longer have them: checked on the statement text, as the unit tier has no cluster
// (the differential suite, test/docker/citus.spec.ts, sends the searches).

describe('statement shapes Citus plans', () => {
  it('the ranked page with filters and a named place has no subquery in a select list (the pin score names)', () => {
    const plan = samplePlan({ query: 'springfield', captured_after: '2015-01-01' });
    const { sql } = fullTextSql(sampleText('springfield'), SAMPLE_PAGE, plan, PLAIN_SHAPE, samplePins(null));
    expect(sql).toContain('found AS MATERIALIZED');
    expect(sql).toContain("to_tsquery('simple'");
    expect(sql).not.toMatch(/ARRAY\s*\(\s*SELECT/i);
  });
});
