import { execFile } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { Logger } from '@nestjs/common';
import { NestExpressApplication } from '@nestjs/platform-express';
import { Migrator } from '../../src/database/migrator';
import { loadDemoDataIfEmpty } from '../../src/startup/demo-setup';
import { CurlExample, extractExamples, promise, runnable } from '../helpers/doc-examples';
import { ROOT } from '../helpers/processes';
import { createKey, startApp, testConfig } from '../helpers/test-app';
import { createThrowawayDatabase, ThrowawayDatabase } from '../setup/test-database';

// Every example in README.md and docs/*.md, run as written against the demo data a newcomer gets
// from `npm start`: curl commands through sh (with the real port and key), response examples
// checked against the records the demo data really holds. An example that promises results and
// returns none fails, naming its file and line.
const { curls, responses } = extractExamples(ROOT);
// The fixed record contract of POST /search.
const RECORD_KEYS = ['address', 'compass', 'date', 'geometry', 'id', 'image', 'interactive'];

function sh(command: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile('sh', ['-c', command], { timeout: 30_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('documentation examples on the demo data', () => {
  let db: ThrowawayDatabase;
  let app: NestExpressApplication;
  let base: string;
  let key: string;

  beforeAll(async () => {
    db = await createThrowawayDatabase();
    await new Migrator(db.url).migrate();
    // Image URLs as a newcomer's server on port 3000 writes them, so response examples compare whole.
    const settings = { databaseUrl: db.url, imageBaseUrl: 'http://localhost:3000' };
    app = await startApp(settings);
    await loadDemoDataIfEmpty(testConfig(settings), new Logger('DocExamples'));
    key = await createKey(app, 'doc-examples');
    await app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;
  }, 600_000);

  afterAll(async () => {
    await app?.close();
    await db?.drop();
  });

  async function search(body: object) {
    const res = await fetch(`${base}/search`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': key },
      body: JSON.stringify(body),
    });
    return (await res.json()) as { data: Array<Record<string, unknown>> };
  }

  it('finds the examples (README and the API page hold several)', () => {
    expect(curls.filter((c) => c.where.startsWith('README.md')).length).toBeGreaterThanOrEqual(1);
    expect(curls.filter((c) => c.where.startsWith('docs/api.md')).length).toBeGreaterThanOrEqual(4);
    expect(
      responses.filter((r) => (r.value as { isSuccess?: boolean }).isSuccess === true).length,
    ).toBeGreaterThanOrEqual(2);
  });

  it.each(curls.map((c): [string, CurlExample] => [c.where, c]))(
    '%s runs and keeps its promise',
    async (_where, example) => {
      const { code, stdout, stderr } = await sh(runnable(example, base, key));
      expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
      const status = Number(stdout.slice(stdout.lastIndexOf('\n') + 1));
      const body = stdout.slice(0, stdout.lastIndexOf('\n'));
      const expected = promise(example);
      expect({ status, body: body.slice(0, 300) }).toEqual({ status: expected.status, body: expect.any(String) });
      if (expected.records === 'any') return;
      const { data } = JSON.parse(body) as { data: unknown[] };
      if (expected.records === 'some') expect(data.length).toBeGreaterThan(0);
      else expect(data).toEqual([]);
    },
  );

  const records = responses.flatMap(({ where, value }) => {
    const v = value as { isSuccess?: boolean; data?: Array<Record<string, unknown>> };
    return v.isSuccess === true && Array.isArray(v.data)
      ? v.data.map((record): [string, Record<string, unknown>] => [where, record])
      : [];
  });

  it.each(records)('%s shows a real demo record, in the contract shape', async (_where, record) => {
    expect(Object.keys(record).sort()).toEqual(RECORD_KEYS);
    const { data } = await search({ query: record.address as string, limit: 100 });
    expect(data.find((r) => r.id === record.id)).toEqual(record);
  });
});
