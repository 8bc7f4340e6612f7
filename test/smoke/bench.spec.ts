import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { BenchReport } from '../bench/bench-report';
import { QUERY_CLASSES } from '../bench/bench-queries';
import { SERVER_KINDS } from '../bench/bench-servers';
import { createThrowawayDatabase, ThrowawayDatabase } from '../setup/test-database';

// `npm run bench` end to end on a tiny dataset, as a user runs it: the built server, the two
// reference servers, the import through the built CLI, the report files. Pools of 2 connections so
// it also fits the built-in database's connection limit.
const ROOT = resolve(__dirname, '..', '..');

function runBench(args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolvePromise) => {
    const child = spawn(
      process.execPath,
      ['-r', 'ts-node/register/transpile-only', join(ROOT, 'test', 'bench', 'search.bench.ts'), ...args],
      {
        cwd: ROOT,
        env: { ...process.env, LOG_LEVEL: '' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('close', (code) => resolvePromise({ code, output }));
  });
}

describe('npm run bench', () => {
  let db: ThrowawayDatabase;
  let out: string;

  beforeAll(async () => {
    db = await createThrowawayDatabase();
    out = mkdtempSync(join(tmpdir(), 'lis-bench-test-'));
  });

  afterAll(async () => {
    await db?.drop();
    rmSync(out, { recursive: true, force: true });
  });

  it('measures every class on all three servers and writes the report', async () => {
    const args = [
      '--records',
      '3000',
      '--duration',
      '1',
      '--connections',
      '4',
      '--bodies',
      '10',
      '--pool-size',
      '2',
      '--database-url',
      db.url,
      '--out',
      out,
    ];
    const { code, output } = await runBench(args);
    if (code !== 0) throw new Error(`bench exited with ${code}:\n${output}`);

    const report = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as BenchReport;
    expect(report.dataset).toMatchObject({ records: 3000, loaded: true });
    expect(report.dataset.importRate).toBeGreaterThan(0);
    for (const cls of QUERY_CLASSES) {
      expect(report.checks[cls].non2xx).toBe(0);
      if (cls !== 'typo') expect(report.checks[cls].empty).toBe(0);
      expect(existsSync(join(out, 'explain', `${cls}.txt`))).toBe(true);
      for (const server of SERVER_KINDS) {
        const cell = report.cells.find((c) => c.cls === cls && c.server === server && c.connections === 4);
        expect({ cls, server, requests: cell?.requests ?? 0 }).toEqual({ cls, server, requests: expect.any(Number) });
        expect(cell!.requests).toBeGreaterThan(0);
        if (server !== 'naive') {
          expect({ cls, server, errors: cell!.errors, non2xx: cell!.non2xx }).toEqual({
            cls,
            server,
            errors: 0,
            non2xx: 0,
          });
          // Read from the server's own process: every answered request cost it some CPU.
          expect({ cls, server, cpu: cell!.serverCpuUs }).toEqual({ cls, server, cpu: expect.any(Number) });
          expect(cell!.serverCpuUs).toBeGreaterThan(0);
        }
      }
    }
    expect(report.oursRss.peakRssMb).toBeGreaterThan(0);
    expect(report.targets.length).toBeGreaterThan(0);
    expect(readFileSync(join(out, 'chart.svg'), 'utf8')).toMatch(/^<svg[^>]+xmlns/);
    expect(readFileSync(join(out, 'results.md'), 'utf8')).toContain('| exact | 4 | ours |');

    // A second run finds the dataset loaded and does not import it again.
    const again = await runBench([...args, '--classes', 'exact', '--connections', '2']);
    expect(again.code).toBe(0);
    expect(again.output).toContain('dataset already loaded');
    // The tiny dataset still loads the world gazetteer and runs 48 one-second loads with a wait for an
    // idle database after each: 150 s was exceeded with a load average of 8 on 2 cores (a 10M import beside CI).
  }, 300_000);
});
