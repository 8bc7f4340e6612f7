import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { rankScoreFunctionBody, rankScoreFunctionStatement } from '../../src/search/ranking/rank-score-function';

// The database's lis_rank_score as the migrations leave it (npm run sql:functions writes the file; the
// medium spec database-functions.spec.ts fails when the file and a migrated database differ).
const FILE = join(__dirname, '..', '..', 'src', 'database', 'functions', 'lis_rank_score.sql');

function bodyOf(definition: string): string {
  const body = /AS \$function\$([\s\S]*)\$function\$/.exec(definition)?.[1];
  if (!body) throw new Error(`no function body in ${FILE}`);
  return body;
}

const words = (sql: string) => sql.trim().split(/\s+/);

describe('lis_rank_score, written from SCORE_WEIGHTS', () => {
  it('is the function the migrations leave in the database', () => {
    const migrated = bodyOf(readFileSync(FILE, 'utf8'));
    const fromWeights = rankScoreFunctionBody();
    if (words(migrated).join(' ') !== words(fromWeights).join(' '))
      throw new Error(
        `SCORE_WEIGHTS changed: add a migration with\n${rankScoreFunctionStatement()}then run npm run sql:functions`,
      );
  });

  it('follows the weights it is given', () => {
    const other = rankScoreFunctionBody({ wholeAddress: 3, startsWithQuery: 0.25, everyWordWhole: 0.75 });
    expect(other).toContain('THEN 3 ELSE 0');
    expect(other).toContain('THEN 0.25 ELSE 0');
    expect(other).toContain('THEN 0.75 ELSE 0');
    expect(words(other).join(' ')).not.toBe(words(bodyOf(readFileSync(FILE, 'utf8'))).join(' '));
  });
});
