import { get, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { ContractProxy, startContractProxy } from '../helpers/contract';
import { createKey, feature, importFixture, resetImagery, startApp } from '../helpers/test-app';
import { decodeTile, tileOf } from '../helpers/vector-tiles';

// GET /tiles/{z}/{x}/{y}.mvt over HTTP, checked against the OpenAPI document: the tile, its caching
// (ETag from the data version, 304), gzip, an empty tile, bad tile numbers, and the key rule.
const LON = 9.52;
const LAT = 47.14;
const IMAGES = 400; // about 30 KB of tile: over the 8 KB under which nothing is compressed
const path = (z: number, lon = LON, lat = LAT) => {
  const t = tileOf(lon, lat, z);
  return `/tiles/${t.z}/${t.x}/${t.y}.mvt`;
};
// The body as sent (supertest asks for gzip by default and, with a parser of one's own, does not inflate).
const binary = (r: request.Response, done: (e: Error | null, body: Buffer) => void) => {
  const chunks: Buffer[] = [];
  (r as unknown as NodeJS.ReadableStream).on('data', (c: Buffer) => chunks.push(c));
  (r as unknown as NodeJS.ReadableStream).on('end', () => done(null, Buffer.concat(chunks)));
};
// The bytes as they came over the wire (supertest inflates gzip itself).
function wireBytes(
  server: Server,
  p: string,
  headers: Record<string, string>,
): Promise<{ encoding?: string; body: Buffer }> {
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    get({ host: '127.0.0.1', port, path: p, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ encoding: res.headers['content-encoding'], body: Buffer.concat(chunks) }));
    }).on('error', reject);
  });
}

describe('GET /tiles/:z/:x/:y.mvt', () => {
  beforeAll(async () => {
    await resetImagery();
    await importFixture(
      Array.from({ length: IMAGES }, (_, i) =>
        feature(`Tile Lane ${i}`, {}, [LON + (i % 20) * 0.00002, LAT + i * 0.000001]),
      ),
    );
  });

  // Binary bodies go straight to the app (the contract proxy would read them as text) and are checked
  // against the document with checkDirect.
  describe('public tiles (the default)', () => {
    let contract: ContractProxy;
    let app: NestExpressApplication;
    const tile = async (p: string, headers: Record<string, string> = {}) => {
      const res = await contract.direct.get(p).set(headers).buffer(true).parse(binary);
      // The document says a string of bytes: checked as one (latin1 keeps each byte a character).
      contract.checkDirect('GET', p, { ...res, body: res.body.toString('latin1') });
      return res;
    };
    beforeAll(async () => {
      app = await startApp();
      contract = await startContractProxy(app);
    });
    afterEach(() => expect(contract.takeViolations()).toEqual([]));
    afterAll(() => contract.close());

    it('serves a tile without a key: its type, caching headers and layers', async () => {
      const res = await tile(path(17));
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('application/vnd.mapbox-vector-tile');
      expect(res.headers['cache-control']).toBe('public, max-age=86400');
      expect(res.headers.etag).toMatch(/^"lis2-\d+"$/);
      expect(res.headers['ratelimit-policy']).toBe('"tiles";q=3000;w=60');
      expect(decodeTile(res.body).coverage.features).toHaveLength(IMAGES);
    });

    it('answers 304 to the current ETag, and changes the ETag after an import', async () => {
      const etag = (await tile(path(17))).headers.etag;
      const same = await tile(path(17), { 'If-None-Match': etag });
      expect([same.status, same.headers.etag, same.body.length]).toEqual([304, etag, 0]);
      expect((await tile(path(17), { 'If-None-Match': `"lis2-0", W/${etag}` })).status).toBe(304);
      expect((await tile(path(17), { 'If-None-Match': '"lis2-0"' })).status).toBe(200);
      await importFixture([feature('Tile Lane new', {}, [LON, LAT])]);
      const after = await tile(path(17), { 'If-None-Match': etag });
      expect(after.status).toBe(200);
      expect(after.headers.etag).not.toBe(etag);
      expect(decodeTile(after.body).coverage.features).toHaveLength(IMAGES + 1);
    });

    it('gzips a tile for a client that accepts it', async () => {
      const gzipped = await wireBytes(app.getHttpServer(), path(17), { 'Accept-Encoding': 'gzip' });
      const plain = await wireBytes(app.getHttpServer(), path(17), {});
      expect([gzipped.encoding, plain.encoding]).toEqual(['gzip', undefined]);
      // About half (49% encoded by PostGIS, 51% by the service on the built-in database).
      expect(gzipped.body.length).toBeLessThan(plain.body.length * 0.6);
      expect(gunzipSync(gzipped.body).equals(plain.body)).toBe(true);
    });

    it('answers 204 for a tile where nothing lies', async () => {
      const res = await tile(path(17, -40, -40));
      expect(res.status).toBe(204);
      expect(res.headers.etag).toMatch(/^"lis2-\d+"$/);
    });

    it('refuses what is no tile with a 400 naming the parameter', async () => {
      for (const [p, field] of [
        ['/tiles/21/0/0.mvt', 'z'],
        ['/tiles/a/0/0.mvt', 'z'],
        ['/tiles/2/4/0.mvt', 'x'],
        ['/tiles/2/-1/0.mvt', 'x'],
        ['/tiles/2/0/4.mvt', 'y'],
        ['/tiles/2/0/0.png', 'y'],
        ['/tiles/2/0/0', 'y'],
      ]) {
        const res = await contract.direct.get(p);
        expect({
          p,
          status: res.status,
          code: res.body.error?.code,
          field: res.body.error?.details?.[0]?.field,
        }).toEqual({
          p,
          status: 400,
          code: 'INVALID_TILE',
          field,
        });
        contract.checkDirect('GET', p, res);
        expect(res.headers['cache-control']).toBe('no-store'); // an error is no answer to keep
      }
    });
  });

  describe('TILES_REQUIRE_KEY=true', () => {
    let app: NestExpressApplication;
    let key: string;
    beforeAll(async () => {
      app = await startApp({ tilesRequireKey: true });
      key = await createKey(app);
    });
    afterAll(() => app.close());

    it('refuses a tile without a key and serves it with one, counted against the key', async () => {
      const refused = await request(app.getHttpServer()).get(path(17)).expect(401);
      expect(refused.body.error.code).toBe('MISSING_API_KEY');
      const res = await request(app.getHttpServer()).get(path(17)).set('x-api-key', key).expect(200);
      expect(res.headers['ratelimit-policy']).toMatch(/^"per-key"/);
    });

    // A keyed tile is its key holder's: a shared cache (a CDN, a proxy) must not hand it to anyone
    // else, and a browser's copy is kept per key; the refusal is kept by nobody.
    it('answers keyed tiles as private, varying on the key, and refusals as no-store', async () => {
      const server = app.getHttpServer();
      const refused = await request(server).get(path(17)).expect(401);
      expect(refused.headers['cache-control']).toBe('no-store');
      const wrong = await request(server).get(path(17)).set('x-api-key', 'lis_nobody_issued_this').expect(401);
      expect(wrong.headers['cache-control']).toBe('no-store');
      for (const [p, status] of [
        [path(17), 200],
        [path(17, -40, -40), 204],
      ] as const) {
        const res = await request(server).get(p).set('x-api-key', key).expect(status);
        expect({ p, cache: res.headers['cache-control'] }).toEqual({ p, cache: 'private, max-age=86400' });
        expect(res.headers.vary?.toLowerCase().split(/,\s*/)).toContain('x-api-key');
      }
      const etag = (await request(server).get(path(17)).set('x-api-key', key)).headers.etag;
      const same = await request(server).get(path(17)).set({ 'x-api-key': key, 'If-None-Match': etag }).expect(304);
      expect(same.headers['cache-control']).toBe('private, max-age=86400');
      const bad = await request(server).get('/tiles/21/0/0.mvt').set('x-api-key', key).expect(400);
      expect(bad.headers['cache-control']).toBe('no-store');
    });
  });
});
