import { runCli } from './cli-context';

// Migrations run in runCli for every command; this one only reports them.
void runCli(
  () => undefined,
  async (_ctx, _options, _config, { applied, alreadyApplied }) => {
    console.log(applied.length ? `Applied: ${applied.join(', ')}` : `Up to date (${alreadyApplied} migrations).`);
  },
);
