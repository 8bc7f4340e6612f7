import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli } from '../helpers/cli-tools';

// A command line the tool cannot use is said at once (exit 2), before any database is opened: not
// "the database is unavailable" for a typo in an option, and no built-in database created for it.
describe('command-line tools read their arguments before opening a database', () => {
  const cases: [Parameters<typeof cli>[0], string[], RegExp][] = [
    ['import', ['--help'], /Unknown option '--help'/],
    ['import', [], /usage: npm run import/],
    ['import', ['x.ndjson', '--delete-missing'], /--delete-missing needs --source/],
    ['export', ['out.json', '--query', 'a', '--source', 'b'], /either --query or --source/],
    ['export', [], /usage: npm run export/],
    ['import-places', ['x.osm', '--country', 'XYZ'], /--country must be an ISO 3166-1 alpha-2 code/],
    ['keys', ['create'], /create needs --name/],
    ['keys', ['set-rate-limit', 'abc', 'many'], /rate limit must be a whole number/],
    ['keys', ['bogus'], /usage:\s+npm run keys/],
  ];

  it.each(cases)('%s %j: usage error with an unreachable database server', async (tool, args, message) => {
    const env = { ...process.env, DATABASE_URL: 'postgresql://nobody@127.0.0.1:1/none' };
    const run = await cli(tool, args, undefined, env).done;
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 2, stderr: expect.stringMatching(message) });
    expect(run.stderr).not.toMatch(/unavailable/);
  });

  it('creates no built-in database for a usage error', async () => {
    const parent = mkdtempSync(join(tmpdir(), 'lis-cli-usage-'));
    try {
      const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: join(parent, 'data') };
      delete env.DATABASE_URL;
      const run = await cli('keys', ['create'], undefined, env).done;
      expect(run.code).toBe(2);
      expect(existsSync(join(parent, 'data'))).toBe(false);
    } finally {
      rmSync(parent, { recursive: true, force: true });
    }
  });
});
