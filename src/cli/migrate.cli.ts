import { loadConfig } from '../config/app-config';
import { Migrator } from '../database/migrator';

new Migrator(loadConfig().databaseUrl)
  .migrate()
  .then(({ applied, alreadyApplied }) => {
    console.log(applied.length ? `Applied: ${applied.join(', ')}` : `Up to date (${alreadyApplied} migrations).`);
  })
  .catch((error) => {
    console.error(`error: ${error.message}`);
    process.exitCode = 1;
  });
