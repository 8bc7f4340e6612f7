import { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { PrismaClient } from '@prisma/client';
import { recordsOutsideSql } from '../../src/imagery/imagery.repository';
import { DEMO_SOURCE } from '../../src/seed/demo-dataset';
import { DEMO_KEY_RECHECK_MS } from '../../src/web-page/demo-key-offer.service';
import { WebPageService } from '../../src/web-page/web-page.service';
import { explain } from '../helpers/query-plans';
import { feature, importFixture, prismaClient, resetImagery, startApp } from '../helpers/test-app';

const text = (res: request.Response) =>
  typeof res.body === 'string' || Buffer.isBuffer(res.body) ? res.body.toString() : res.text;

// GET / and its assets: no key, same-origin only, the one error shape for anything unknown.
describe('GET / (web page)', () => {
  let app: NestExpressApplication;
  beforeAll(async () => {
    await resetImagery(); // the demo key is offered only to a catalogue of demo records: start from none
    app = await startApp();
  });
  afterAll(() => app.close());

  it('serves the page without an API key, with a same-origin content security policy', async () => {
    const res = await request(app.getHttpServer()).get('/').expect(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-cache');
    const csp = res.headers['content-security-policy'];
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toMatch(/script-src|https:\/\//); // scripts only from 'self' (the default)
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.text).toContain('<script type="module" src="/assets/app.js"></script>');
    // Nothing loads from elsewhere: every src and href in the page is a path on this service.
    const urls = [...res.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(urls.length).toBeGreaterThan(2);
    expect(urls.filter((u) => !u.startsWith('/') && !u.startsWith('#'))).toEqual([]);
  });

  it('serves the bundle, the map worker and the Natural Earth GeoJSON of the map style', async () => {
    const js = await request(app.getHttpServer()).get('/assets/app.js').expect(200);
    expect(js.headers['content-type']).toMatch(/^(text|application)\/javascript/);
    const worker = await request(app.getHttpServer()).get('/assets/maplibre-gl-worker.mjs').expect(200);
    expect(worker.headers['content-type']).toMatch(/^(text|application)\/javascript/);
    const css = await request(app.getHttpServer()).get('/assets/app.css').expect(200);
    expect(css.headers['content-type']).toMatch(/^text\/css/);
    expect(text(css)).not.toMatch(/@import|url\(["']?https?:/); // no external fonts or images
    for (const name of ['land', 'borders', 'country-labels', 'lakes', 'rivers', 'states', 'state-labels']) {
      const res = await request(app.getHttpServer()).get(`/assets/basemap/${name}.geojson`).expect(200);
      expect(JSON.parse(text(res)).type).toMatch(/^(FeatureCollection|MultiLineString)$/);
    }
  });

  it("ships no source map (the page's source is not served)", async () => {
    const js = await request(app.getHttpServer()).get('/assets/app.js').expect(200);
    expect(text(js)).not.toMatch(/sourceMappingURL/);
    expect(js.headers.sourcemap).toBeUndefined();
    for (const path of ['/assets/app.js.map', '/assets/app.css.map']) {
      const map = await request(app.getHttpServer()).get(path).expect(404);
      expect(map.body.error.code).toBe('NOT_FOUND');
    }
  });

  it('answers unknown and escaping asset paths with the JSON 404', async () => {
    for (const path of ['/assets/nope.js', '/assets/../package.json', '/assets/%2e%2e/package.json', '/assets/']) {
      const res = await request(app.getHttpServer()).get(path).expect(404);
      expect(res.body).toEqual({ isSuccess: false, error: { code: 'NOT_FOUND', message: 'No such route' } });
    }
  });

  it('offers no demo key unless the built-in database generated one', async () => {
    const none = await request(app.getHttpServer()).get('/config.json').expect(200);
    expect(none.body).toEqual({ demoKey: null, mapStyleUrl: null });
    expect(none.headers['cache-control']).toBe('no-store');

    const other = await startApp();
    try {
      other.get(WebPageService).offerDemoKey('lis_demo-key-for-this-test-only-000000000000');
      const res = await request(other.getHttpServer()).get('/config.json').expect(200);
      expect(res.body).toEqual({ demoKey: 'lis_demo-key-for-this-test-only-000000000000', mapStyleUrl: null });
    } finally {
      await other.close();
    }
  });

  it("stops offering the demo key once the catalogue holds records other than the demo's", async () => {
    const demoKey = 'lis_demo-key-for-this-test-only-000000000000';
    const other = await startApp();
    const prisma = prismaClient();
    // The page's key as the service answers at a given moment (one look at the catalogue lasts a while).
    const offeredAt = async (at: number) => {
      const clock = jest.spyOn(Date, 'now').mockReturnValue(at);
      try {
        return (await request(other.getHttpServer()).get('/config.json').expect(200)).body.demoKey;
      } finally {
        clock.mockRestore();
      }
    };
    try {
      other.get(WebPageService).offerDemoKey(demoKey);
      expect((await importFixture([feature('Herrengasse 35, 9490 Vaduz')], DEMO_SOURCE)).inserted).toBe(1);
      let t = Date.now();
      expect(await offeredAt(t)).toBe(demoKey);

      expect((await importFixture([feature('Städtle 1, 9490 Vaduz')], 'partner')).inserted).toBe(1);
      expect(await offeredAt(t + DEMO_KEY_RECHECK_MS - 1)).toBe(demoKey); // the last look still holds
      t += DEMO_KEY_RECHECK_MS;
      expect(await offeredAt(t)).toBeNull();

      // A record without a source is not the demo's either; sources sorting before and after it too.
      await prisma.imagery.deleteMany({ where: { source: 'partner' } });
      expect((await importFixture([feature('Städtle 2, 9490 Vaduz')], null)).inserted).toBe(1);
      expect(await offeredAt((t += DEMO_KEY_RECHECK_MS))).toBeNull();
      await prisma.imagery.deleteMany({ where: { source: null } });
      expect(await offeredAt((t += DEMO_KEY_RECHECK_MS))).toBe(demoKey);
      expect((await importFixture([feature('Städtle 3, 9490 Vaduz')], 'aaa')).inserted).toBe(1);
      expect(await offeredAt((t += DEMO_KEY_RECHECK_MS))).toBeNull();
    } finally {
      await prisma.imagery.deleteMany({});
      await prisma.$disconnect();
      await other.close();
    }
  });

  it('decides it with probes of imagery_source_idx, however many demo records there are', async () => {
    const prisma: PrismaClient = prismaClient();
    try {
      await prisma.$executeRawUnsafe(`
        INSERT INTO imagery (id, address, captured_at, heading, interactive, image_url, location, source)
        SELECT gen_random_uuid(), 'Herrengasse ' || g || ', 9490 Vaduz', DATE '2020-01-01', 0, false,
               'https://img.test/' || g || '.jpg', ST_SetSRID(ST_MakePoint(9.52, 47.14), 4326), '${DEMO_SOURCE}'
        FROM generate_series(1, 5000) g`);
      await prisma.$executeRawUnsafe('ANALYZE imagery');
      const plan = await explain(prisma, recordsOutsideSql(DEMO_SOURCE));
      expect(plan).not.toMatch(/Seq Scan/);
      expect(plan.match(/Index Only Scan using imagery_source_idx|Index Scan using imagery_source_idx/g)).toHaveLength(
        3,
      );
    } finally {
      await prisma.imagery.deleteMany({});
      await prisma.$disconnect();
    }
  });

  it('points the page at MAP_STYLE_URL, and lets the page fetch from that origin only', async () => {
    const styled = await startApp({ mapStyleUrl: 'https://tiles.example.com/styles/streets/style.json' });
    try {
      const config = await request(styled.getHttpServer()).get('/config.json').expect(200);
      expect(config.body).toEqual({
        demoKey: null,
        mapStyleUrl: 'https://tiles.example.com/styles/streets/style.json',
      });
      const csp = (await request(styled.getHttpServer()).get('/').expect(200)).headers['content-security-policy'];
      expect(csp).toContain("connect-src 'self' https://tiles.example.com;");
      expect(csp).toContain("default-src 'self'");
    } finally {
      await styled.close();
    }
    // Without it, fetches stay on this service.
    expect((await request(app.getHttpServer()).get('/').expect(200)).headers['content-security-policy']).toContain(
      "connect-src 'self';",
    );
  });
});
