// `npm run bench:import -- --records 1000000 [--format ndjson|geojsonseq|geojson|csv] [--gzip] [--batch-size N] [--connections N]
//   [--places] [--without-address PERCENT] [--another-source]`
// Generates a file, imports it with the built CLI into a throwaway database, then imports it again
// (all unchanged), and prints the rate and the importer's peak RSS for both runs. --another-source
// then loads as many other records under another source into that full database, and loads that
// source again with a tenth of its records gone (--delete-missing): a load into a database that
// already holds records, which issue 36 found far slower than a first load. --places loads a
// synthetic gazetteer first (see loadPlaces), so every record is linked to a locality and records
// written without an address (--without-address, a percentage) get one recovered.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { Client } from 'pg';
import { Migrator } from '../../src/database/migrator';
import { ImportFormat, isImportFormat } from '../../src/import-formats/import-input';
import { writeImageryFile } from '../helpers/imagery-files';
import { loadBenchPlaces } from './bench-places';
import { createThrowawayDatabase } from '../setup/test-database';

const ROOT = resolve(__dirname, '..', '..');
const CLI = join(ROOT, 'dist', 'src', 'cli', 'import.cli.js');
// As `npm run import` runs it: a bounded heap makes V8 collect instead of growing (the live set is ~40 MB).
const NODE_FLAGS = ['--max-old-space-size=256'];

interface RunResult {
  seconds: number;
  peakRssMb: number;
  /** CPU seconds of the importer and of its PostgreSQL backend: what the work costs, however busy the machine. */
  importerCpu: number;
  databaseCpu: number;
  /** The backends' CPU seconds by application_name: the import's own, and the refreshes it runs after it on connections of their own. */
  databaseCpuBy: Record<string, number>;
  summary: string;
  code: number | null;
}

const USAGE = `npm run bench:import -- [options]
  --records N              records in the generated file (default 1000000)
  --format F               ndjson (default), geojsonseq, geojson or csv
  --gzip                   gzip the file
  --batch-size N           the importer's batch size (its default otherwise)
  --connections N          the importer's connections (its default otherwise)
  --places                 load a synthetic gazetteer first: every record linked to a locality
  --without-address P      with --places: P percent of the records without an address (recovered)
  --another-source         then load as many records of another source into the full database, and
                           that source again with a tenth gone (--delete-missing)
The throwaway database is made on TEST_DATABASE_URL's server (docs/benchmarks.md).`;

const CLOCK_TICKS = 100; // USER_HZ on Linux

// utime + stime of a process, in seconds (Linux /proc); 0 once it has gone.
function cpuSeconds(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return 0;
  }
}

// Runs the importer, sampling its peak resident set (VmHWM) and the CPU time of it and of its database
// backends while it runs: every backend of the database whose application_name starts with lis- (the
// import's own and those of the ranked lists' and the coverage's refreshes after it, which run on
// connections of their own; the server runs on this machine), found again at every sample.
function runImport(args: string[], env: NodeJS.ProcessEnv, url: string): Promise<RunResult> {
  return new Promise((resolvePromise, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, [...NODE_FLAGS, CLI, ...args], { env, stdio: ['ignore', 'pipe', 'inherit'] });
    const monitor = new Client({ connectionString: url });
    // Unheard, a dropped monitor connection's 'error' would end the bench mid-import; its queries fail instead.
    monitor.on('error', () => undefined);
    const connected = monitor.connect();
    let stdout = '';
    let peakKb = 0;
    let importerCpu = 0;
    // The last CPU seconds read of each backend, and its application_name.
    const backends = new Map<number, { app: string; cpu: number }>();
    child.stdout.on('data', (d) => (stdout += d));
    const sample = async () => {
      try {
        const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
        if (m) peakKb = Math.max(peakKb, Number(m[1]));
      } catch {
        // the process has just exited
      }
      importerCpu = Math.max(importerCpu, cpuSeconds(child.pid!));
      await connected;
      const { rows } = await monitor.query<{ pid: number; app: string }>(
        "SELECT pid, application_name AS app FROM pg_stat_activity WHERE application_name LIKE 'lis-%' AND datname = current_database()",
      );
      for (const { pid, app } of rows) {
        const cpu = cpuSeconds(pid);
        backends.set(pid, { app, cpu: Math.max(cpu, backends.get(pid)?.cpu ?? 0) });
      }
    };
    const timer = setInterval(() => void sample().catch(() => undefined), 100);
    child.on('error', reject);
    child.on('close', (code) => {
      clearInterval(timer);
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      void monitor.end();
      const summary = stdout.trim().split('\n').pop() ?? '';
      const databaseCpuBy: Record<string, number> = {};
      for (const { app, cpu } of backends.values()) databaseCpuBy[app] = (databaseCpuBy[app] ?? 0) + cpu;
      const databaseCpu = Object.values(databaseCpuBy).reduce((a, b) => a + b, 0);
      resolvePromise({
        seconds,
        peakRssMb: Math.round(peakKb / 1024),
        importerCpu,
        databaseCpu,
        databaseCpuBy,
        summary,
        code,
      });
    });
  });
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      records: { type: 'string', default: '1000000' },
      format: { type: 'string', default: 'ndjson' },
      gzip: { type: 'boolean', default: false },
      'batch-size': { type: 'string' },
      connections: { type: 'string' },
      places: { type: 'boolean', default: false },
      'without-address': { type: 'string', default: '0' },
      'another-source': { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const withoutAddress = Number(values['without-address']);
  if (!Number.isInteger(withoutAddress) || withoutAddress < 0 || withoutAddress > 100)
    throw new Error('--without-address must be a percentage (0 to 100)');
  if (withoutAddress > 0 && !values.places)
    throw new Error('--without-address needs --places: records without an address are rejected when no place is known');
  const records = Number(values.records);
  const format = values.format as ImportFormat;
  if (!Number.isSafeInteger(records) || records < 1) throw new Error('--records must be a positive integer');
  if (!isImportFormat(format)) throw new Error('--format must be ndjson, geojsonseq, geojson or csv');

  const dir = mkdtempSync(join(tmpdir(), 'lis-bench-'));
  const file = join(dir, `catalogue.${format === 'geojsonseq' ? 'geojsons' : format}${values.gzip ? '.gz' : ''}`);
  // A throwaway database on the PostgreSQL server at TEST_DATABASE_URL (the built-in database is not
  // what this measures).
  const database = await createThrowawayDatabase('server');
  const url = database.url;
  try {
    await new Migrator(url).migrate();
    let t = Date.now();
    await writeImageryFile(file, { records, format, gzip: values.gzip, withoutAddress });
    const mb = statSync(file).size / 1024 / 1024;
    console.log(
      `generated ${records} records (${format}${values.gzip ? ', gzip' : ''}, ${withoutAddress}% without an address, ${mb.toFixed(0)} MB) in ${((Date.now() - t) / 1000).toFixed(1)} s`,
    );
    if (values.places) {
      t = Date.now();
      const places = await loadBenchPlaces(url, records);
      console.log(`loaded ${places.toLocaleString('en-US')} places in ${((Date.now() - t) / 1000).toFixed(1)} s`);
    }

    const args = [
      file,
      '--source',
      'bench',
      ...(values['batch-size'] ? ['--batch-size', values['batch-size']] : []),
      ...(values.connections ? ['--connections', values.connections] : []),
    ];
    const env = { ...process.env, DATABASE_URL: url };
    // Each run: its label, the importer's arguments, and the records its file holds.
    const runs: [string, string[], number][] = [
      ['first import (all inserted)', args, records],
      ['re-import (all unchanged)', args, records],
    ];
    if (values['another-source']) {
      // Records `records` to 2 * records - 1 (other ids), then the same source without its first tenth.
      const other = join(dir, `other.${format === 'geojsonseq' ? 'geojsons' : format}${values.gzip ? '.gz' : ''}`);
      const fewer = join(dir, `fewer.${format === 'geojsonseq' ? 'geojsons' : format}${values.gzip ? '.gz' : ''}`);
      const tenth = Math.floor(records / 10);
      await writeImageryFile(other, { records, format, gzip: values.gzip, withoutAddress, offset: records });
      await writeImageryFile(fewer, {
        records: records - tenth,
        format,
        gzip: values.gzip,
        withoutAddress,
        offset: records + tenth,
      });
      const otherArgs = (f: string) => [f, ...args.slice(1).map((a) => (a === 'bench' ? 'bench-other' : a))];
      runs.push(
        [`another source into the database holding ${records} (all inserted)`, otherArgs(other), records],
        [
          `that source again, a tenth gone (${tenth} deleted)`,
          [...otherArgs(fewer), '--delete-missing'],
          records - tenth,
        ],
      );
    }
    for (const [label, runArgs, read] of runs) {
      t = Date.now();
      const r = await runImport(runArgs, env, url);
      if (r.code !== 0) throw new Error(`import exited with ${r.code}`);
      console.log(
        `${label}: ${r.seconds.toFixed(1)} s, ${Math.round(read / r.seconds).toLocaleString('en-US')} records/s, peak RSS ${r.peakRssMb} MB`,
      );
      console.log(
        `  CPU: importer ${r.importerCpu.toFixed(1)} s, PostgreSQL backends ${r.databaseCpu.toFixed(1)} s (${Object.entries(
          r.databaseCpuBy,
        )
          .map(([app, cpu]) => `${app} ${cpu.toFixed(1)}`)
          .join(', ')}; up to the last sample); load average ${loadavg()[0].toFixed(1)}`,
      );
      console.log(`  ${r.summary}`);
    }
  } finally {
    await database.drop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
