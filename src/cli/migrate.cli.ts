import { parseOptions } from './cli-arguments';
import { runCli } from './cli-context';

const USAGE = `usage: npm run migrate
  applies the migrations the database does not have yet (DATABASE_URL, else the built-in database in
  DATA_DIR) and says which; the server and every other command apply them too`;

// Migrations run in runCli for every command; this one only reports them.
void runCli(
  () => void parseOptions({ options: {} }, USAGE),
  async (_ctx, _options, _config, { applied, alreadyApplied }) => {
    console.log(applied.length ? `Applied: ${applied.join(', ')}` : `Up to date (${alreadyApplied} migrations).`);
  },
);
