// `npm run sql`: rewrites src/queries/*.sql from the @GenerateSql declarations (see repository-sql.ts),
// and removes review files no class makes any more.
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { QUERIES_DIR, repositoryQueries } from './repository-sql';

async function main(): Promise<void> {
  const files = await repositoryQueries();
  mkdirSync(QUERIES_DIR, { recursive: true });
  for (const old of readdirSync(QUERIES_DIR)) {
    if (old.endsWith('.sql') && !(old.slice(0, -4) in files)) {
      rmSync(join(QUERIES_DIR, old));
      console.log(`removed src/queries/${old}`);
    }
  }
  for (const [file, text] of Object.entries(files)) {
    writeFileSync(join(QUERIES_DIR, `${file}.sql`), text);
    console.log(`wrote src/queries/${file}.sql`);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
