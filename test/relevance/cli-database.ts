import 'reflect-metadata';
import { Migrator } from '../../src/database/migrator';
import { chooseKind, createThrowawayDatabase } from '../setup/test-database';

// The relevance CLIs' frame: a migrated throwaway database (the server at TEST_DATABASE_URL when one
// answers, else the built-in database, as for the tests) at DATABASE_URL while `run` runs, dropped
// after (kept, and its URL printed, with `-- --keep`, to try queries on it by hand); the process exits 0,
// or 1 with the error.
export function runInThrowawayDatabase(run: () => Promise<void>): void {
  const main = async () => {
    const db = await createThrowawayDatabase(await chooseKind());
    process.env.DATABASE_URL = db.url;
    try {
      await new Migrator(process.env.DATABASE_URL).migrate();
      await run();
    } finally {
      if (process.argv.includes('--keep')) console.log(`kept the database: DATABASE_URL=${db.url}`);
      else await db.drop();
    }
  };
  main().then(
    () => process.exit(0),
    (e) => {
      console.error(e);
      process.exit(1);
    },
  );
}
