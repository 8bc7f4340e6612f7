import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NestExpressApplication } from '@nestjs/platform-express';
import { createKey, feature, importFixture, resetImagery, startApp } from '../helpers/test-app';

// A real OGC API Features client: GDAL's OAPIF driver (Debian's gdal-bin) reads the STAC API's
// landing page, lists the collections and copies one's items, paging through the next links.
function run(command: string, args: string[], env: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { env: { ...process.env, ...env }, timeout: 60_000 }, (error, stdout, stderr) =>
      error ? reject(new Error(`${command} failed: ${stderr || error.message}`)) : resolve(stdout),
    );
  });
}

describe('GDAL OGC API Features driver on /stac', () => {
  let app: NestExpressApplication;
  let landing: string;
  let env: Record<string, string>;
  const dir = mkdtempSync(join(tmpdir(), 'lis-ogr-'));
  // 25 records: GDAL reads them in pages of 10 (its page size asked with limit).
  const RECORDS = Array.from({ length: 25 }, (_, i) =>
    feature(`Feldweg ${i + 1}, Triesen`, { captured_at: `2021-05-${String(i + 1).padStart(2, '0')}` }, [
      9.53,
      47.1 + i * 0.0001,
    ]),
  );

  beforeAll(async () => {
    await resetImagery();
    await importFixture(RECORDS, 'survey-ogr');
    app = await startApp();
    const key = await createKey(app);
    await app.listen(0, '127.0.0.1');
    landing = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}/stac`;
    env = { GDAL_HTTP_HEADERS: `x-api-key: ${key}`, CPL_DEBUG: 'OFF' };
  });
  afterAll(async () => {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('ogrinfo lists the collections as layers', async () => {
    const out = await run('ogrinfo', ['-ro', '-q', `OAPIF:${landing}`], env);
    expect(out.trim()).toBe('1: survey-ogr (title: survey-ogr) (Point)');
  });

  it('ogr2ogr copies every item of a collection with its properties to GeoPackage', async () => {
    const gpkg = join(dir, 'items.gpkg');
    await run('ogr2ogr', ['-f', 'GPKG', gpkg, `OAPIF:${landing}`, 'survey-ogr', '-oo', 'PAGE_SIZE=10'], env);
    const out = await run('ogrinfo', ['-ro', '-al', gpkg], {});
    expect(out).toMatch(/Feature Count: 25\n/);
    expect(out).toMatch(/TEMPORAL_INTERVAL_MIN=2021-05-01T00:00:00Z/);
    for (const record of RECORDS) {
      const { address, heading } = record.properties;
      const at = out.indexOf(`id (String) = ${record.id}`);
      expect(at).toBeGreaterThan(0);
      const block = out.slice(at, out.indexOf('POINT', at));
      expect(block).toContain(`title (String) = ${address}`);
      expect(block).toContain(`view:azimuth (Integer) = ${heading}`);
      expect(block).toContain('interactive (Integer(Boolean)) = 0');
    }
  });
});
