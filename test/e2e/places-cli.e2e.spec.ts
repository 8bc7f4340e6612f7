import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from 'pg';
import { OPENADDRESSES_HEADER, placeFeature, VILLAGE_WAYS, villageNodes, writeOsmPbf } from '../helpers/place-files';
import { resetImagery } from '../helpers/test-app';

const CLI = resolve(__dirname, '..', '..', 'dist', 'src', 'cli', 'import-places.cli.js');

interface Run {
  child: ChildProcess;
  done: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>;
}

// The built command, as `npm run import:places` runs it (npm test builds first).
function importPlaces(args: string[], options: { stdin?: string; env?: NodeJS.ProcessEnv } = {}): Run {
  const child = spawn(process.execPath, [CLI, ...args], {
    env: { ...process.env, LOG_LEVEL: 'silent', ...options.env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (stdout += d));
  child.stderr!.on('data', (d) => (stderr += d));
  child.stdin!.end(options.stdin);
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>(
    (resolve) => child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
  return { child, done };
}

// The counts from the summary line.
function counts(stdout: string): Record<string, number> {
  const line = stdout.split('\n').find((l) => /^(dry run, nothing written: )?read \d+/.test(l)) ?? '';
  return Object.fromEntries(
    [...line.matchAll(/(read|inserted|updated|unchanged|skipped|rejected) (\d+)/g)].map((m) => [m[1], Number(m[2])]),
  );
}

// Each test starts the real tool a few times (seconds each on a busy machine).
jest.setTimeout(240_000);

describe('npm run import:places', () => {
  const dir = mkdtempSync(join(tmpdir(), 'lis-places-cli-'));
  const SOURCES = ['cli-osm', 'cli-oa', 'cli-oa2', 'cli-stdin', 'cli-kill'];
  let db: Client;
  const count = async (source: string) =>
    Number((await db.query('SELECT count(*) AS n FROM places WHERE source = $1', [source])).rows[0].n);

  beforeAll(async () => {
    db = new Client({ connectionString: process.env.DATABASE_URL });
    await db.connect();
    // Re-linking after an import looks at all imagery and all places: start from none of either.
    await resetImagery();
    await db.query('TRUNCATE places');
  });

  afterAll(async () => {
    await db.query('DELETE FROM places WHERE source = ANY($1)', [SOURCES]);
    await db.end();
    rmSync(dir, { recursive: true, force: true });
  });

  it('imports an OpenStreetMap extract (exit 0) and gives imagery without an address the nearest one; again, nothing to write', async () => {
    // An image about 8 m from Herrengasse 35, imported before any place was (a stand-in address).
    const image = 'b0000000-0000-4000-8000-0000000000e1';
    await db.query(
      `INSERT INTO imagery (id, address, address_origin, captured_at, heading, image_url, location)
       VALUES ($1, 'stand-in', 'locality', '2020-05-01', 90, 'a.jpg', ST_SetSRID(ST_MakePoint(9.5211, 47.141), 4326))`,
      [image],
    );
    try {
      const pbf = writeOsmPbf(join(dir, 'village.osm.pbf'), villageNodes(), VILLAGE_WAYS);
      const first = await importPlaces([pbf, '--source', 'cli-osm', '--country', 'li']).done;
      expect(first.code).toBe(0);
      expect(counts(first.stdout)).toEqual({
        read: 12,
        inserted: 12,
        updated: 0,
        unchanged: 0,
        skipped: 2,
        rejected: 0,
      });
      expect(first.stdout).toMatch(/^imagery re-linked: 1 changed, 0 unchanged$/m);
      const { rows } = await db.query('SELECT address, address_origin, country_code FROM imagery WHERE id = $1', [
        image,
      ]);
      expect(rows).toEqual([{ address: 'Herrengasse 35, 9490 Vaduz', address_origin: 'address', country_code: 'LI' }]);

      const second = await importPlaces([pbf, '--source', 'cli-osm', '--country', 'LI']).done;
      expect(second.code).toBe(0);
      expect(counts(second.stdout)).toMatchObject({ inserted: 0, updated: 0, unchanged: 12 });
      expect(second.stdout).toMatch(/^imagery re-linked: 0 changed, 1 unchanged$/m);
      expect(await count('cli-osm')).toBe(12);
    } finally {
      await db.query('DELETE FROM imagery WHERE id = $1', [image]);
    }
  });

  it('reports every rejection, and sets the exit code by --max-rejects', async () => {
    const csv = join(dir, 'oa.csv');
    writeFileSync(
      csv,
      [
        OPENADDRESSES_HEADER,
        '9.52,47.14,1,Herrengasse,,Vaduz,,,9490,,h1',
        '9.52,147.14,2,Herrengasse,,Vaduz,,,9490,,h2',
        '9.52,47.14,3,,,,,,,,h3',
      ].join('\n'),
    );
    const report = join(dir, 'rejects.ndjson');
    const [strict, tolerant] = await Promise.all([
      importPlaces([csv, '--source', 'cli-oa', '--country', 'LI', '--report', report]).done,
      importPlaces([csv, '--source', 'cli-oa2', '--country', 'LI', '--max-rejects', '2']).done,
    ]);
    expect(strict.code).toBe(1);
    expect(counts(strict.stdout)).toMatchObject({ read: 3, inserted: 1, rejected: 2 });
    expect(strict.stderr).toContain('rejected line 3: LAT latitude must be between -90 and 90');
    expect(
      readFileSync(report, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l)),
    ).toEqual([
      { line: 3, field: 'LAT', reason: 'latitude must be between -90 and 90' },
      { line: 4, field: 'STREET', reason: 'an address needs a street or a locality' },
    ]);
    expect(tolerant.code).toBe(0);
    expect((await db.query("SELECT label FROM places WHERE source = 'cli-oa2'")).rows).toEqual([
      { label: 'Herrengasse 1, 9490 Vaduz' },
    ]);
  });

  it('reads GeoJSON from standard input, one Feature per line or a FeatureCollection', async () => {
    const line = (name: string) =>
      JSON.stringify(placeFeature({ kind: 'locality', name, country_code: 'LI', id: name }));
    const seq = await importPlaces(['-', '--format', 'geojson', '--source', 'cli-stdin'], {
      stdin: `${line('Schaan')}\n${line('Eschen')}\n`,
    }).done;
    expect(seq.code).toBe(0);
    expect(counts(seq.stdout)).toMatchObject({ read: 2, inserted: 2 });
    const collection = JSON.stringify(
      { type: 'FeatureCollection', features: [JSON.parse(line('Schaan')), JSON.parse(line('Balzers'))] },
      null,
      2,
    );
    const fc = await importPlaces(['-', '--format', 'geojson', '--source', 'cli-stdin'], { stdin: collection }).done;
    expect(fc.code).toBe(0);
    expect(counts(fc.stdout)).toMatchObject({ read: 2, inserted: 1, unchanged: 1 });
  });

  it('usage errors exit 2; a missing osmium exits 1 and says how to install it', async () => {
    const pbf = join(dir, 'village.osm.pbf');
    const [unknown, country, stdinOsm, format, noOsmium] = await Promise.all([
      importPlaces([pbf, '--countri', 'LI']).done,
      importPlaces([pbf, '--country', 'Liechtenstein']).done,
      importPlaces(['-', '--format', 'osm']).done,
      importPlaces(['places.txt']).done,
      importPlaces([pbf, '--source', 'cli-osm'], { env: { PATH: '/nonexistent' } }).done,
    ]);
    expect([unknown.code, country.code, stdinOsm.code, format.code, noOsmium.code]).toEqual([2, 2, 2, 2, 1]);
    expect(unknown.stderr).toMatch(/Unknown option '--countri'/);
    expect(country.stderr).toMatch(/--country must be an ISO 3166-1 alpha-2 code/);
    expect(stdinOsm.stderr).toMatch(/give a file, not standard input/);
    expect(format.stderr).toMatch(/cannot tell the format of places.txt; pass --format osm\|openaddresses\|geojson/);
    expect(noOsmium.stderr).toMatch(/osmium-tool.*apt-get install -y osmium-tool/);
  });

  it('kill -9 mid-run leaves only whole batches, and re-running the same command finishes the job', async () => {
    const file = join(dir, 'many.ndjson');
    const lines: string[] = [];
    for (let i = 0; i < 30_000; i++) {
      lines.push(
        JSON.stringify(
          placeFeature(
            {
              kind: 'address',
              housenumber: i + 1,
              street: 'Landstrasse',
              locality: 'Triesen',
              country_code: 'LI',
              id: `a${i}`,
            },
            [9.5 + i * 1e-6, 47.1],
          ),
        ),
      );
    }
    writeFileSync(file, lines.join('\n'));
    const args = [file, '--source', 'cli-kill', '--batch-size', '300'];

    const first = importPlaces(args);
    let exited = false;
    void first.done.then(() => (exited = true));
    while ((await count('cli-kill')) < 1500) {
      if (exited) throw new Error(`the import ended before 1,500 places were written: ${(await first.done).stderr}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    first.child.kill('SIGKILL');
    expect((await first.done).signal).toBe('SIGKILL');
    const survived = await count('cli-kill');
    expect(survived).toBeLessThan(30_000);
    expect(survived % 300).toBe(0); // every batch is whole or absent

    const second = await importPlaces(args).done;
    expect(second.code).toBe(0);
    expect(counts(second.stdout)).toMatchObject({
      read: 30_000,
      inserted: 30_000 - survived,
      unchanged: survived,
      rejected: 0,
    });
    expect(await count('cli-kill')).toBe(30_000);
  });
});
