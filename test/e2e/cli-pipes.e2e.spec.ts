import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { logLines } from '../helpers/cli-tools';
import { feature, importFixture, resetImagery } from '../helpers/test-app';
import { ROOT } from '../helpers/processes';

// The tools as a shell pipeline runs them (`npm run --silent export -- - | ...`): standard output holds
// the data and nothing else, logs go to stderr, and a reader that stops early (`head -1`) is no error.
// "Beside a running server": DATABASE_URL unset and a DATA_DIR whose server.json names the test
// database, so the tools log which database they use (the line that once landed in the data).
jest.setTimeout(180_000);

const RECORDS = 2000; // far more than a pipe buffer, so `head -1` closes the pipe mid-export

interface Shell {
  code: number | null;
  stdout: string;
  stderr: string;
}

describe('command-line tools in a pipeline', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'lis-pipes-'));

  // bash with pipefail: the pipeline fails when any command in it does.
  function shell(pipeline: string): Promise<Shell> {
    const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir };
    delete env.DATABASE_URL;
    delete env.LOG_LEVEL;
    for (const name of Object.keys(env)) if (name.startsWith('npm_')) delete env[name];
    const child = spawn('bash', ['-o', 'pipefail', '-c', pipeline], { cwd: ROOT, env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
  }

  beforeAll(async () => {
    await resetImagery();
    await importFixture(Array.from({ length: RECORDS }, (_, i) => feature(`Pipe Lane ${i + 1}`)));
    // As a running server leaves it; its pid must be alive: this process's.
    writeFileSync(join(dataDir, 'server.json'), JSON.stringify({ url: process.env.DATABASE_URL, pid: process.pid }));
  });

  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it("export - writes only records on stdout; its log lines go to stderr as the server's JSON lines", async () => {
    const run = await shell('npm run --silent export -- - --format ndjson');
    expect(run.code).toBe(0);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(RECORDS);
    for (const line of lines) expect(JSON.parse(line)).toMatchObject({ type: 'Feature' });
    const logged = logLines(run.stderr); // fails on any line that is not JSON
    expect(logged.map((l) => l.msg)).toEqual([
      expect.stringContaining('Using the built-in database of the server running as pid'),
      expect.stringMatching(new RegExp(`^exported ${RECORDS} records in `)),
    ]);
    for (const line of logged) {
      expect(line).toEqual({
        level: 'info',
        time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        pid: expect.any(Number),
        context: expect.any(String),
        msg: expect.any(String),
      });
    }
    expect(run.stderr).not.toMatch(/\x1b\[/); // eslint-disable-line no-control-regex
  });

  it('import logs its rejections, its notes and the error that ends it as JSON lines too', async () => {
    const input = join(dataDir, 'two-bad.ndjson');
    writeFileSync(input, '{"type":"Feature"}\n{"not":"a feature"}\n');
    const run = await shell(`npm run --silent import -- ${input} --source pipes-bad --max-rejects 0`);
    expect(run.code).toBe(1);
    const logged = logLines(run.stderr);
    expect(logged.filter((l) => l.level === 'warn' && /^rejected line [12]: /.test(l.msg))).toHaveLength(2);
    const usage = await shell('npm run --silent import -- --no-such-option');
    expect(usage.code).toBe(2);
    expect(logLines(usage.stderr)).toEqual([
      expect.objectContaining({ level: 'error', msg: expect.stringContaining("Unknown option '--no-such-option'") }),
    ]);
  });

  it('export - | import - round-trips: every record read back, unchanged, none rejected', async () => {
    for (const format of ['ndjson', 'csv']) {
      const run = await shell(
        `npm run --silent export -- - --format ${format} | npm run --silent import -- - --format ${format}`,
      );
      expect({ format, code: run.code, stderr: run.stderr }).toMatchObject({ format, code: 0 });
      expect(run.stdout.trim()).toMatch(
        new RegExp(`^read ${RECORDS}, inserted 0, updated 0, unchanged ${RECORDS}, deleted 0, rejected 0 in `),
      );
    }
  });

  it('export - | head -1 ends quietly with exit 0 once head has its line', async () => {
    const run = await shell('npm run --silent export -- - --format ndjson | head -1');
    expect(run.code).toBe(0); // pipefail: the export's own exit code too
    expect(run.stdout.trimEnd().split('\n')).toHaveLength(1);
    expect(JSON.parse(run.stdout)).toMatchObject({ type: 'Feature' });
    expect(run.stderr).not.toMatch(/EPIPE|Error|Unhandled/);
  });
});
