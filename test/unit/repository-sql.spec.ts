import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { renderQueries, repositoryQueries } from '../sql/repository-sql';

// Every repository statement is committed as SQL for review; a change to a builder must come with
// the regenerated file (`npm run sql`), so the query change shows in the diff.
describe('committed repository SQL', () => {
  const dir = resolve(__dirname, '..', '..', 'src', 'queries');
  for (const [file, queries] of Object.entries(repositoryQueries())) {
    it(`src/queries/${file}.sql matches the builders (run npm run sql after changing a query)`, () => {
      expect(readFileSync(join(dir, `${file}.sql`), 'utf8')).toBe(renderQueries(queries));
    });
  }
});
