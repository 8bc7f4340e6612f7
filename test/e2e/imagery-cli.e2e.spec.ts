import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { PrismaClient } from '@prisma/client';
import { cli, counts, Run } from '../helpers/cli-tools';
import { CSV_HEADER, generatedRecord, toCsvRow, writeImageryFile } from '../helpers/imagery-files';
import { prismaClient, resetImagery } from '../helpers/test-app';

// Each test spawns the real tools several times (a few seconds each to start): generous bounds, since
// the machine may be shared; speed is measured by the benchmark, not here.
jest.setTimeout(240_000);

describe('import and export command-line tools', () => {
  let prisma: PrismaClient;
  const dir = mkdtempSync(join(tmpdir(), 'lis-cli-'));
  const count = (source: string) => prisma.imagery.count({ where: { source } });

  // Polls until the database shows `min` records of the source, so a signal lands mid-run.
  async function waitForRows(source: string, min: number, run: Run): Promise<number> {
    let exited = false;
    void run.done.then(() => (exited = true));
    for (;;) {
      const n = await count(source);
      if (n >= min) return n;
      if (exited) throw new Error(`the import ended before ${min} records were written: ${(await run.done).stderr}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  beforeAll(async () => {
    await resetImagery();
    prisma = prismaClient();
  });

  afterAll(async () => {
    await prisma.$disconnect();
    rmSync(dir, { recursive: true, force: true });
  });

  it('kill -9 mid-run leaves only whole batches, and re-running the same command finishes the job', async () => {
    const file = join(dir, 'kill.ndjson');
    await writeImageryFile(file, { records: 30_000, format: 'ndjson' });
    const args = [file, '--source', 'kill', '--batch-size', '300'];

    const first = cli('import', args);
    await waitForRows('kill', 1500, first);
    first.child.kill('SIGKILL');
    expect((await first.done).signal).toBe('SIGKILL');
    const survived = await count('kill');
    expect(survived).toBeLessThan(30_000);
    expect(survived % 300).toBe(0); // every batch is whole or absent

    const second = await cli('import', args).done;
    expect(second.code).toBe(0);
    expect(counts(second.stdout)).toMatchObject({
      read: 30_000,
      inserted: 30_000 - survived,
      unchanged: survived,
      rejected: 0,
    });
    expect(await count('kill')).toBe(30_000);
  });

  it('Ctrl-C stops after the current batch, prints what was done and never deletes; re-running finishes', async () => {
    const file = join(dir, 'sigint.csv');
    await writeImageryFile(file, { records: 20_000, format: 'csv', offset: 100_000 });
    // Records of the source that the file does not have: --delete-missing must keep them until a complete run.
    await writeImageryFile(join(dir, 'stale.ndjson'), { records: 10, format: 'ndjson', offset: 900_000 });
    expect((await cli('import', [join(dir, 'stale.ndjson'), '--source', 'sigint']).done).code).toBe(0);
    const args = [file, '--source', 'sigint', '--delete-missing', '--batch-size', '500'];

    const first = cli('import', args);
    await waitForRows('sigint', 1010, first);
    first.child.kill('SIGINT');
    const stopped = await first.done;
    expect(stopped.code).toBe(130);
    expect(stopped.stderr).toMatch(/interrupted/);
    expect(stopped.stderr).toMatch(/--delete-missing: nothing deleted because the import was interrupted/);
    const written = counts(stopped.stdout);
    expect(written.deleted).toBe(0);
    expect(await count('sigint')).toBe(written.inserted + 10);
    expect(written.read).toBeLessThan(20_000);

    const second = await cli('import', args).done;
    expect(second.code).toBe(0);
    expect(counts(second.stdout)).toMatchObject({
      read: 20_000,
      inserted: 20_000 - written.inserted,
      unchanged: written.inserted,
      deleted: 10,
    });
    expect(await count('sigint')).toBe(20_000);
  });

  it('reads standard input, reports every rejection, and sets the exit code by --max-rejects', async () => {
    const csv = (base: number) =>
      [
        CSV_HEADER,
        toCsvRow(generatedRecord(base)),
        toCsvRow({ ...generatedRecord(base + 1), captured_at: '2021-02-30' }),
        toCsvRow(generatedRecord(base + 2)),
        'a,b',
        toCsvRow(generatedRecord(base + 3)),
      ].join('\n');
    const report = join(dir, 'rejects.ndjson');

    const [strict, tolerant, usage, unknown] = await Promise.all([
      cli('import', ['-', '--format', 'csv', '--source', 'stdin', '--report', report], csv(500_000)).done,
      cli('import', ['-', '--format', 'csv', '--source', 'stdin2', '--max-rejects', '2'], csv(600_000)).done,
      cli('import', ['-']).done,
      cli('import', ['x.csv', '--delete-missin']).done,
    ]);
    expect(strict.code).toBe(1);
    expect(counts(strict.stdout)).toMatchObject({ read: 5, inserted: 3, rejected: 2 });
    expect(strict.stderr).toContain(
      'rejected line 3: captured_at is not a valid ISO 8601 date or date-time: 2021-02-30',
    );
    expect(
      readFileSync(report, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l)),
    ).toEqual([
      { line: 3, field: 'captured_at', reason: 'is not a valid ISO 8601 date or date-time: 2021-02-30' },
      { line: 5, field: '(record)', reason: 'has 2 fields; the header has 8' },
    ]);
    expect(tolerant.code).toBe(0);
    expect(await count('stdin2')).toBe(3);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toMatch(/cannot tell the format of -/);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/Unknown option '--delete-missin'/);
  });

  it('exports what import reads back unchanged, through both command-line tools', async () => {
    const tricky = [
      { ...generatedRecord(700_000), address: 'Quotes "and", commas\nand a newline, Tübinger Straße' },
      {
        ...generatedRecord(700_001),
        image_url: '/relative/path.jpg',
        heading: 359.99999999999994,
        lon: -179.99999999,
        lat: 89.123456789012,
      },
      generatedRecord(700_002),
    ];
    const source = join(dir, 'tricky.csv');
    writeFileSync(source, '\uFEFF' + [CSV_HEADER, ...tricky.map(toCsvRow)].join('\r\n'));
    expect((await cli('import', [source, '--source', 'trip']).done).code).toBe(0);

    const exported = join(dir, 'exported.csv.gz');
    const out = await cli('export', [exported, '--source', 'trip']).done;
    expect(out.code).toBe(0);
    expect(out.stderr).toMatch(/exported 3 records/);
    const text = gunzipSync(readFileSync(exported)).toString('utf8');
    // The import header, then the record's source and where its address comes from.
    expect(text.split('\n')[0]).toBe(`${CSV_HEADER},source,address_origin`);
    expect(text.trim().split('\n').pop()).toMatch(/,trip,own\r?$/);

    const back = await cli('import', [exported, '--source', 'trip', '--delete-missing']).done;
    expect(back.code).toBe(0);
    expect(counts(back.stdout)).toMatchObject({ read: 3, inserted: 0, updated: 0, unchanged: 3, deleted: 0 });

    const stdout = await cli('export', ['-', '--format', 'geojsonseq', '--query', 'Tübinger Straße commas']).done;
    const features = stdout.stdout
      .split('\u001e')
      .filter(Boolean)
      .map((t) => JSON.parse(t));
    expect(features.map((f) => f.id)).toEqual([tricky[0].id]);
    expect(features[0].properties.address).toBe(tricky[0].address);
  });
});
