import { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { createKey, feature, importFixture, prismaClient, resetImagery, startApp } from '../helpers/test-app';
import { itemCollectionErrors } from '../helpers/stac-schemas';

// The STAC item search's pages both ways: every page's `prev` link leads to the page the `next` link
// came from, by GET and by POST, in either sort order, and a walk back stays whole while records change.
const PUBLIC = 'https://imagery.example.test';
// 11 records a day apart, two of them on one day (the id breaks the tie).
const RECORDS = Array.from({ length: 11 }, (_, i) =>
  feature(`Städtle ${i + 1}, Vaduz`, { captured_at: `2021-05-${String(Math.min(i, 9) + 1).padStart(2, '0')}` }, [
    9.52 + i * 0.0001,
    47.14,
  ]),
);
const idsOf = (body: any): string[] => body.features.map((f: any) => f.id);
const linkOf = (body: any, rel: string) => body.links.find((l: any) => l.rel === rel);

describe('STAC paging: next and prev links', () => {
  let app: NestExpressApplication;
  let key: string;
  const db = prismaClient();
  const get = (path: string) => request(app.getHttpServer()).get(path).set('x-api-key', key).expect(200);
  const post = (body: object) => request(app.getHttpServer()).post('/stac/search').set('x-api-key', key).send(body);
  const relative = (href: string) => href.slice(PUBLIC.length);

  beforeAll(async () => {
    await resetImagery();
    await importFixture(RECORDS, 'survey');
    app = await startApp({ publicUrl: PUBLIC });
    key = await createKey(app);
  });
  afterAll(async () => {
    await app.close();
    await db.$disconnect();
  });

  // Every page of a GET walk from `start`, forward by `next` and then back by `prev` from the last.
  async function walkBothWays(start: string) {
    const forward: string[][] = [];
    let body = (await get(start)).body;
    expect(linkOf(body, 'prev')).toBeUndefined(); // the first page has none
    for (;;) {
      expect(itemCollectionErrors(body)).toEqual([]);
      forward.push(idsOf(body));
      const next = linkOf(body, 'next');
      if (!next) break;
      expect(next.method).toBe('GET');
      body = (await get(relative(next.href))).body;
    }
    const backward: string[][] = [idsOf(body)];
    for (let prev = linkOf(body, 'prev'); prev; prev = linkOf(body, 'prev')) {
      body = (await get(relative(prev.href))).body;
      backward.unshift(idsOf(body));
      expect(linkOf(body, 'next')).toBeDefined(); // a page reached backwards has one after it
    }
    return { forward, backward };
  }

  it.each([
    ['newest first', '/stac/search?limit=3'],
    ['oldest first', '/stac/search?limit=3&sortby=%2Bdatetime'],
    ["a collection's items", '/stac/collections/survey/items?limit=4'],
  ])('walks back over the same pages it walked forward (%s)', async (_, start) => {
    const { forward, backward } = await walkBothWays(start);
    expect(forward.flat()).toHaveLength(RECORDS.length);
    expect(new Set(forward.flat()).size).toBe(RECORDS.length);
    expect(backward).toEqual(forward);
  });

  it('gives a POST search prev links to merge into the body, as its next links are', async () => {
    let res = await post({ limit: 4 }).expect(200);
    const first = idsOf(res.body);
    res = await post({ limit: 4, ...linkOf(res.body, 'next').body }).expect(200);
    const prev = linkOf(res.body, 'prev');
    expect([prev.method, prev.merge, relative(prev.href)]).toEqual(['POST', true, '/stac/search']);
    res = await post({ limit: 4, ...prev.body }).expect(200);
    expect(idsOf(res.body)).toEqual(first);
  });

  it('keeps a walk back whole while records are imported and deleted between its pages', async () => {
    const present = new Set(idsOf((await get('/stac/search?limit=100')).body));
    let body = (await get('/stac/search?limit=3')).body;
    while (linkOf(body, 'next')) body = (await get(relative(linkOf(body, 'next').href))).body;
    const seen = idsOf(body);
    for (let round = 0; linkOf(body, 'prev'); round++) {
      const arrivals = ['2021-05-30', '2021-01-01', body.features[0].properties.datetime.slice(0, 10)].map((d) =>
        feature(`Arrival ${round} ${d}, Vaduz`, { captured_at: d }, [9.53, 47.14]),
      );
      await importFixture(arrivals, 'survey');
      await db.$executeRawUnsafe(`DELETE FROM imagery WHERE address LIKE 'Arrival ${round - 1} %'`);
      body = (await get(relative(linkOf(body, 'prev').href))).body;
      seen.push(...idsOf(body));
    }
    await db.$executeRawUnsafe(`DELETE FROM imagery WHERE address LIKE 'Arrival %'`);
    expect(new Set(seen).size).toBe(seen.length);
    for (const id of present) expect(seen).toContain(id);
  });

  it('refuses a prev token in a search sorted the other way, naming token', async () => {
    const second = (await get(relative(linkOf((await get('/stac/search?limit=3')).body, 'next').href))).body;
    const token = new URL(linkOf(second, 'prev').href).searchParams.get('token');
    const res = await request(app.getHttpServer())
      .get(`/stac/search?limit=3&sortby=%2Bdatetime&token=${token}`)
      .set('x-api-key', key)
      .expect(400);
    expect(res.body.parameter).toBe('token');
  });
});
