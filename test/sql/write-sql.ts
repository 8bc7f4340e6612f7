// `npm run sql`: rewrites src/queries/*.sql from the repositories' SQL builders.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { renderQueries, repositoryQueries } from './repository-sql';

const dir = resolve(__dirname, '..', '..', 'src', 'queries');
mkdirSync(dir, { recursive: true });
for (const [file, queries] of Object.entries(repositoryQueries())) {
  writeFileSync(join(dir, `${file}.sql`), renderQueries(queries));
  console.log(`wrote src/queries/${file}.sql`);
}
