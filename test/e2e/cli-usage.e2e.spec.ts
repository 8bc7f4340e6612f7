import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli, logLines } from '../helpers/cli-tools';
import { ROOT } from '../helpers/processes';

// A command line the tool cannot use is said at once (exit 2), before any database is opened: not
// "the database is unavailable" for a typo in an option, and no built-in database created for it.
describe('command-line tools read their arguments before opening a database', () => {
  const cases: [Parameters<typeof cli>[0], string[], RegExp][] = [
    ['import', ['--bogus'], /Unknown option '--bogus'/],
    ['import', [], /usage: npm run import/],
    ['import', ['x.ndjson', '--delete-missing'], /--delete-missing needs --source/],
    ['export', ['out.json', '--query', 'a', '--source', 'b'], /either --query or --source/],
    ['export', [], /usage: npm run export/],
    ['import-places', ['x.osm', '--country', 'XYZ'], /--country must be an ISO 3166-1 alpha-2 code/],
    ['keys', ['create'], /create needs --name/],
    ['keys', ['set-rate-limit', 'abc', 'many'], /rate limit must be a whole number/],
    ['keys', ['bogus'], /usage:\s+npm run keys/],
    ['keys', ['create', '--name', 'x', '--json'], /--json is for list/],
  ];

  it.each(cases)('%s %j: usage error with an unreachable database server', async (tool, args, message) => {
    const env = { ...process.env, DATABASE_URL: 'postgresql://nobody@127.0.0.1:1/none' };
    const run = await cli(tool, args, undefined, env).done;
    const said = logLines(run.stderr)
      .map((l) => `${l.level}: ${l.msg}`)
      .join('\n');
    expect({ code: run.code, said }).toEqual({ code: 2, said: expect.stringMatching(message) });
    expect(said).toMatch(/^error: /);
    expect(said).not.toMatch(/unavailable/);
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

  // Every tool as npm runs it (the built one): --help and -h print its usage on standard output and
  // exit 0, before any database is opened (none reachable here, and no built-in one made).
  const TOOLS: [string, string][] = [
    ['keys', 'keys'],
    ['import', 'import'],
    ['import-places', 'import:places'],
    ['export', 'export'],
    ['migrate', 'migrate'],
    ['readonly-role', 'db:create-readonly-role'],
    ['serve-database', 'db:serve'],
    ['built-in-template', 'built-in:template'],
  ];
  it.each(TOOLS)('%s --help and -h: its usage, exit 0, no database', async (tool, script) => {
    const parent = mkdtempSync(join(tmpdir(), 'lis-cli-help-'));
    try {
      const env = { PATH: process.env.PATH, DATABASE_URL: 'postgresql://nobody@127.0.0.1:1/none', DATA_DIR: parent };
      for (const flag of ['--help', '-h']) {
        const run = await built(
          tool,
          [flag],
          tool === 'built-in-template' ? { PATH: env.PATH, DATA_DIR: parent } : env,
        );
        expect({ flag, code: run.code, stderr: run.stderr }).toEqual({ flag, code: 0, stderr: '' });
        expect(run.stdout).toMatch(new RegExp(`^usage:\\s+npm run ${script}\\b`));
      }
      expect(readdirSync(parent)).toEqual([]);
    } finally {
      rmSync(parent, { recursive: true, force: true });
    }
  });
});

// The built tool (dist/, as the npm scripts run it): its exit code and output.
function built(tool: string, args: string[], env: NodeJS.ProcessEnv) {
  const child = spawn(process.execPath, [join(ROOT, 'dist', 'src', 'cli', `${tool}.cli.js`), ...args], {
    env: { ...env, BUILT_IN_TEMPLATE: 'off' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((r) =>
    child.on('close', (code) => r({ code, stdout, stderr })),
  );
}

describe('npm run keys -- list --json', () => {
  it('lists every key as JSON for scripts: its fields by name, never its secret or hash', async () => {
    const name = `json-${Date.now()}`;
    const created = await cli('keys', ['create', '--name', name, '--rate-limit', '1200']).done;
    expect(created.code).toBe(0);
    const secret = created.stdout.trim().split('\n').pop()!;
    const prefix = /\((lis_[\w-]+)…\)/.exec(created.stdout)![1];
    expect((await cli('keys', ['revoke', prefix]).done).code).toBe(0);
    const run = await cli('keys', ['list', '--json']).done;
    expect(run.code).toBe(0);
    const listed = JSON.parse(run.stdout) as Array<Record<string, unknown>>;
    const mine = listed.find((k) => k.name === name);
    expect(mine).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      prefix,
      name,
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT[\d:.]+Z$/),
      revokedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT[\d:.]+Z$/),
      rateLimit: 1200,
    });
    expect(run.stdout).not.toContain(secret);
    expect(run.stdout).not.toMatch(/hash/i);
  });
});
