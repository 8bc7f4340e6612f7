import { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { createKey, feature, importFixture, prismaClient, resetImagery, startApp } from '../helpers/test-app';
import { itemCollectionErrors, itemErrors, schemaErrors } from '../helpers/stac-schemas';

// The STAC API over HTTP: every document validated against the STAC 1.0.0 and view extension schemas
// (test/fixtures/stac-schemas), the search's parameters, its cursor paging, its errors.
const PUBLIC = 'https://imagery.example.test';
const STAC = `${PUBLIC}/stac`;
// 12 records of survey-a along a street in Vaduz, one a month in 2019; 6 without a source in Schaan, 2020.
const SURVEY = Array.from({ length: 12 }, (_, i) =>
  feature(`Städtle ${i + 1}, Vaduz`, { captured_at: `2019-${String(i + 1).padStart(2, '0')}-15`, heading: i * 30 }, [
    9.52 + i * 0.0001,
    47.14,
  ]),
);
const SCHAAN = Array.from({ length: 6 }, (_, i) =>
  feature(`Landstrasse ${i + 1}, Schaan`, { captured_at: `2020-03-0${i + 1}`, interactive: i % 2 === 0 }, [
    9.51,
    47.165 + i * 0.0001,
  ]),
);
const idsOf = (body: any): string[] => body.features.map((f: any) => f.id);

describe('STAC API', () => {
  let app: NestExpressApplication;
  let key: string;
  const db = prismaClient();
  const get = (path: string) => request(app.getHttpServer()).get(path).set('x-api-key', key);
  const post = (path: string, body: object) => request(app.getHttpServer()).post(path).set('x-api-key', key).send(body);
  const relative = (href: string) => href.slice(PUBLIC.length);

  beforeAll(async () => {
    await resetImagery();
    await importFixture(SURVEY, 'survey-a');
    await importFixture(SCHAAN);
    app = await startApp({ publicUrl: PUBLIC });
    key = await createKey(app);
  });
  afterAll(async () => {
    await app.close();
    await db.$disconnect();
  });

  it('serves a landing page that is a valid STAC Catalog declaring what it implements', async () => {
    const { body } = await get('/stac')
      .expect(200)
      .expect('content-type', /application\/json/);
    expect(schemaErrors('catalog', body)).toEqual([]);
    expect(body.conformsTo).toEqual(
      expect.arrayContaining([
        'https://api.stacspec.org/v1.0.0/core',
        'https://api.stacspec.org/v1.0.0/item-search',
        'https://api.stacspec.org/v1.0.0/ogcapi-features',
        'http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/core',
        'http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/geojson',
      ]),
    );
    const rels = body.links.map((l: any) => `${l.rel} ${l.href}`);
    expect(rels).toEqual(
      expect.arrayContaining([
        `self ${STAC}`,
        `conformance ${STAC}/conformance`,
        `data ${STAC}/collections`,
        `search ${STAC}/search`,
        `child ${STAC}/collections/survey-a`,
        `child ${STAC}/collections/unsourced`,
        `service-desc ${PUBLIC}/openapi.json`,
        `service-doc ${PUBLIC}/docs`,
      ]),
    );
    expect((await get('/stac/conformance').expect(200)).body.conformsTo).toEqual(body.conformsTo);
  });

  it('lists one collection per source with its extent and count, each a valid STAC Collection', async () => {
    const { body } = await get('/stac/collections').expect(200);
    expect(body.collections.map((c: any) => [c.id, c.count])).toEqual([
      ['survey-a', 12],
      ['unsourced', 6],
    ]);
    for (const c of body.collections) expect(schemaErrors('collection', c)).toEqual([]);
    const survey = (await get('/stac/collections/survey-a').expect(200)).body;
    expect(schemaErrors('collection', survey)).toEqual([]);
    expect(survey.extent.spatial.bbox[0]).toEqual([9.52, 47.14, expect.closeTo(9.5211, 6), 47.14]);
    expect(survey.extent.temporal.interval).toEqual([['2019-01-15T00:00:00Z', '2019-12-15T23:59:59Z']]);
    expect(survey.links.find((l: any) => l.rel === 'items').href).toBe(`${STAC}/collections/survey-a/items`);
  });

  it("serves a collection's items and each item, valid STAC Items with the view extension", async () => {
    const res = await get('/stac/collections/unsourced/items?limit=100').expect(200);
    expect(res.headers['content-type']).toMatch(/application\/geo\+json/);
    expect(itemCollectionErrors(res.body)).toEqual([]);
    expect(res.body.numberMatched).toBe(6);
    expect(res.body.features.map((f: any) => f.properties.title)).toEqual(
      [6, 5, 4, 3, 2, 1].map((n) => `Landstrasse ${n}, Schaan`),
    );
    const first = res.body.features[0];
    const item = (await get(relative(first.links.find((l: any) => l.rel === 'self').href)).expect(200)).body;
    expect(itemErrors(item)).toEqual([]);
    expect(item).toMatchObject({
      id: SCHAAN[5].id,
      collection: 'unsourced',
      geometry: { type: 'Point', coordinates: [9.51, expect.closeTo(47.1655, 6)] },
      properties: { title: 'Landstrasse 6, Schaan', datetime: '2020-03-06T00:00:00Z', interactive: false },
      assets: { visual: { roles: ['visual'], href: SCHAAN[5].properties.image_url, type: 'image/jpeg' } },
    });
    expect(item.properties['view:azimuth']).toBe(SCHAAN[5].properties.heading);
    expect(item.links.map((l: any) => `${l.rel} ${l.href}`)).toEqual(
      expect.arrayContaining([
        `self ${STAC}/collections/unsourced/items/${SCHAAN[5].id}`,
        `parent ${STAC}/collections/unsourced`,
        `collection ${STAC}/collections/unsourced`,
        `root ${STAC}`,
      ]),
    );
    // An item is found only in its own collection.
    const wrong = await get(`/stac/collections/survey-a/items/${SCHAAN[5].id}`).expect(404);
    expect(wrong.body).toMatchObject({ code: 'ITEM_NOT_FOUND', description: expect.any(String) });
    expect((await get('/stac/collections/nope').expect(404)).body.code).toBe('COLLECTION_NOT_FOUND');
  });

  describe('item search', () => {
    const search = async (query: string) => {
      const { body } = await get(`/stac/search?${query}`).expect(200);
      expect(itemCollectionErrors(body)).toEqual([]);
      return body;
    };

    it('filters by bbox, intersects, datetime, ids and collections, by GET and POST alike', async () => {
      expect(idsOf(await search('bbox=9.5195,47.139,9.52015,47.141&limit=100'))).toEqual([SURVEY[1].id, SURVEY[0].id]);
      const polygon = {
        type: 'Polygon',
        coordinates: [
          [
            [9.5, 47.16],
            [9.52, 47.16],
            [9.52, 47.1652],
            [9.5, 47.1652],
            [9.5, 47.16],
          ],
        ],
      };
      const inPolygon = [SCHAAN[2].id, SCHAAN[1].id, SCHAAN[0].id];
      expect(idsOf(await search(`intersects=${encodeURIComponent(JSON.stringify(polygon))}`))).toEqual(inPolygon);
      expect(idsOf((await post('/stac/search', { intersects: polygon }).expect(200)).body)).toEqual(inPolygon);
      const point = { type: 'Point', coordinates: [9.51, 47.165] };
      expect(idsOf((await post('/stac/search', { intersects: point }).expect(200)).body)).toEqual([SCHAAN[0].id]);
      // An instant matches the items of its UTC day; intervals are inclusive, `..` open.
      expect(idsOf(await search('datetime=2019-03-15T18:30:00Z'))).toEqual([SURVEY[2].id]);
      expect(idsOf(await search('datetime=2019-03-15T23:30:00-02:00'))).toEqual([]);
      expect((await search('datetime=2019-11-15T00:00:00Z/..&limit=100')).numberMatched).toBe(8);
      expect((await search('datetime=../2019-02-15T00:00:00Z')).numberMatched).toBe(2);
      expect((await search('datetime=2019-02-01T00:00:00Z/2019-04-30T00:00:00Z')).numberMatched).toBe(3);
      const ids = [SURVEY[3].id, SCHAAN[3].id, 'not-a-uuid'];
      expect(idsOf(await search(`ids=${ids.join(',')}`)).sort()).toEqual(ids.slice(0, 2).sort());
      expect(idsOf((await post('/stac/search', { ids: ['not-a-uuid'] }).expect(200)).body)).toEqual([]);
      expect((await search('collections=unsourced')).numberMatched).toBe(6);
      expect((await search('collections=survey-a,unsourced')).numberMatched).toBe(18);
      expect(
        (await post('/stac/search', { collections: ['survey-a'], bbox: [9.5, 47.1, 9.6, 47.2] })).body,
      ).toMatchObject({ numberMatched: 12, numberReturned: 10 });
    });

    it("reads free text q as POST /search does, within the search's other filters", async () => {
      const street = await search(`q=${encodeURIComponent('Städtle 3, Vaduz')}&limit=100`);
      expect(idsOf(street)).toContain(SURVEY[2].id);
      expect(idsOf(await search(`q=${encodeURIComponent('Städtle 3, Vaduz')}&collections=unsourced`))).toEqual([]);
      const { body } = await post('/stac/search', { q: 'Landstrasse, Schaan', limit: 100 }).expect(200);
      expect(idsOf(body).sort()).toEqual(SCHAAN.map((f) => f.id).sort());
      expect((await get('/stac/search?q=%20%20').expect(400)).body.parameter).toBe('q');
    });

    it('returns only the members fields asks for (the fields extension)', async () => {
      const only = await get('/stac/search?ids=' + SURVEY[0].id + '&fields=properties.title,-links').expect(200);
      expect(only.body.features).toEqual([
        { type: 'Feature', id: SURVEY[0].id, properties: { title: 'Städtle 1, Vaduz' } },
      ]);
      const { body } = await post('/stac/search', {
        ids: [SURVEY[0].id],
        fields: { exclude: ['assets', 'properties.interactive'] },
      });
      expect(Object.keys(body.features[0]).sort()).toEqual([
        'bbox',
        'collection',
        'geometry',
        'id',
        'links',
        'properties',
        'stac_extensions',
        'stac_version',
        'type',
      ]);
      expect(body.features[0].properties).not.toHaveProperty('interactive');
      expect(body.features[0].properties['view:azimuth']).toBe(0);
      expect((await get('/stac/search?fields=properties.__proto__.x.y.z').expect(400)).body.parameter).toBe('fields');
      expect((await post('/stac/search', { fields: { only: ['id'] } }).expect(400)).body.parameter).toBe('fields');
    });

    it('filters by CQL2 text and CQL2 JSON over the queryables (the filter extension)', async () => {
      const text = async (filter: string) => idsOf(await search(`limit=100&filter=${encodeURIComponent(filter)}`));
      const schaan = (...i: number[]) => i.map((n) => SCHAAN[n].id).sort();
      expect((await text('interactive = true')).sort()).toEqual(schaan(0, 2, 4));
      expect(await text(`"view:azimuth" >= 90 AND "view:azimuth" < 180 AND collection = 'survey-a'`)).toEqual(
        [5, 4, 3].map((n) => SURVEY[n].id),
      );
      expect(await text("datetime >= TIMESTAMP('2019-11-15T12:00:00Z')")).toHaveLength(7);
      expect(await text("datetime < DATE('2019-03-15')")).toEqual([SURVEY[1].id, SURVEY[0].id]);
      expect(await text("datetime = TIMESTAMP('2019-03-15T00:00:00Z')")).toEqual([SURVEY[2].id]);
      expect((await text("NOT (collection = 'survey-a') OR interactive = TRUE")).sort()).toEqual(
        schaan(0, 1, 2, 3, 4, 5),
      );
      expect(await text("source = 'unsourced' AND source IS NOT NULL")).toHaveLength(6);
      const json = {
        op: 'and',
        args: [
          { op: '=', args: [{ property: 'interactive' }, false] },
          { op: '>', args: [{ property: 'datetime' }, { timestamp: '2020-03-03T00:00:00Z' }] },
        ],
      };
      const { body } = await post('/stac/search', { filter: json, 'filter-lang': 'cql2-json' }).expect(200);
      expect(idsOf(body).sort()).toEqual(schaan(3, 5));
      const byGet = await search(`filter-lang=cql2-json&filter=${encodeURIComponent(JSON.stringify(json))}`);
      expect(idsOf(byGet).sort()).toEqual(schaan(3, 5));
      const queryables = (
        await get('/stac/queryables')
          .expect(200)
          .expect('content-type', /schema\+json/)
      ).body;
      expect(Object.keys(queryables.properties).sort()).toEqual([
        'collection',
        'datetime',
        'interactive',
        'view:azimuth',
      ]);
    });

    it.each([
      ['colour = 1', 'filter'],
      ['interactive = 1', 'filter'],
      ['interactive > true', 'filter'],
      ["datetime > '2019'", 'filter'],
      ['"view:azimuth" >=', 'filter'],
      ['(interactive = true', 'filter'],
      ["datetime > TIMESTAMP('yesterday')", 'filter'],
    ])('refuses the filter %s with a 400 naming %s', async (filter, parameter) => {
      const { body } = await get(`/stac/search?filter=${encodeURIComponent(filter)}`).expect(400);
      expect(body.parameter).toBe(parameter);
    });

    it('reads a limit above the maximum as the maximum, and sorts by datetime either way', async () => {
      const body = await search('limit=5000');
      expect(body.numberReturned).toBe(18);
      const oldest = await search('sortby=%2Bdatetime&limit=2');
      expect(idsOf(oldest)).toEqual([SURVEY[0].id, SURVEY[1].id]);
      const sorted = await post('/stac/search', { sortby: [{ field: 'properties.datetime', direction: 'asc' }] });
      expect(idsOf(sorted.body).slice(0, 2)).toEqual([SURVEY[0].id, SURVEY[1].id]);
    });

    it('walks every match once through next links, by GET and by POST', async () => {
      const seen: string[] = [];
      let next: string | undefined = '/stac/search?limit=4';
      while (next) {
        const body = await search(next.replace('/stac/search?', ''));
        seen.push(...idsOf(body));
        const link = body.links.find((l: any) => l.rel === 'next');
        next = link && relative(link.href);
      }
      expect(seen).toHaveLength(18);
      expect(new Set(seen).size).toBe(18);
      const byPost: string[] = [];
      let body: object | undefined = { limit: 5, collections: ['survey-a'] };
      while (body) {
        const res: request.Response = await post('/stac/search', body).expect(200);
        byPost.push(...idsOf(res.body));
        const link = res.body.links.find((l: any) => l.rel === 'next');
        expect(link ? [link.method, link.merge, relative(link.href)] : null).toEqual(
          link ? ['POST', true, '/stac/search'] : null,
        );
        body = link && { ...body, ...link.body };
      }
      expect(byPost).toEqual([...SURVEY].reverse().map((f) => f.id));
    });

    it('keeps a walk whole while records are imported and deleted between its pages', async () => {
      const present = new Set(idsOf(await search('collections=survey-a&limit=100')));
      const seen: string[] = [];
      let next: string | undefined = '/stac/search?collections=survey-a&limit=3';
      let round = 0;
      while (next) {
        const body = await search(next.replace('/stac/search?', ''));
        seen.push(...idsOf(body));
        // Newer, older and same-day records arrive while the client pages.
        const day = [
          '2019-12-30',
          '2018-01-01',
          body.features.at(-1)?.properties.datetime.slice(0, 10) ?? '2019-06-01',
        ];
        const arrivals = day.map((d) => feature(`Arrival ${round} ${d}, Vaduz`, { captured_at: d }, [9.53, 47.14]));
        await importFixture(arrivals, 'survey-a');
        // And the previous round's arrivals leave again.
        await db.$executeRawUnsafe(`DELETE FROM imagery WHERE address LIKE 'Arrival ${round - 1} %'`);
        round++;
        const link = body.links.find((l: any) => l.rel === 'next');
        next = link && relative(link.href);
      }
      expect(new Set(seen).size).toBe(seen.length);
      for (const id of present) expect(seen).toContain(id);
    });

    it.each([
      ['bbox=1,2,3', 'bbox'],
      ['bbox=0,50,10,40', 'bbox'],
      ['bbox=0,0,200,10', 'bbox'],
      ['datetime=yesterday', 'datetime'],
      ['datetime=2019-02-30T00:00:00Z', 'datetime'],
      ['datetime=2020-01-01T00:00:00Z/2019-01-01T00:00:00Z', 'datetime'],
      ['limit=0', 'limit'],
      ['limit=ten', 'limit'],
      ['intersects=%7B%22type%22%3A%22Circle%22%7D', 'intersects'],
      ['intersects=not-json', 'intersects'],
      ['bbox=0,0,1,1&intersects=%7B%22type%22%3A%22Point%22%2C%22coordinates%22%3A%5B0%2C0%5D%7D', 'intersects'],
      ['token=garbage', 'token'],
      ['sortby=address', 'sortby'],
      ['colour=red', 'colour'],
      ['limit=1&limit=2', 'limit'],
      ['filter=interactive%3Dtrue&filter-lang=sql', 'filter-lang'],
      ['filter=interactive%3Dtrue&filter-crs=EPSG:3857', 'filter-crs'],
    ])('answers %s with a 400 naming %s', async (query, parameter) => {
      const { body } = await get(`/stac/search?${query}`).expect(400);
      expect(body).toEqual({ code: 'INVALID_PARAMETER', description: expect.stringContaining(parameter), parameter });
    });

    it('refuses a self-intersecting polygon and a bad body in the STAC error shape', async () => {
      const bowtie = {
        type: 'Polygon',
        coordinates: [
          [
            [0, 0],
            [1, 1],
            [1, 0],
            [0, 1],
            [0, 0],
          ],
        ],
      };
      const { body } = await post('/stac/search', { intersects: bowtie }).expect(400);
      expect(body).toMatchObject({ code: 'INVALID_PARAMETER', parameter: 'intersects' });
      expect(body.description).toMatch(/Self-intersection/);
      expect((await post('/stac/search', { limit: '5' }).expect(400)).body.parameter).toBe('limit');
      const malformed = await request(app.getHttpServer())
        .post('/stac/search')
        .set('x-api-key', key)
        .set('content-type', 'application/json')
        .send('{"limit":')
        .expect(400);
      expect(malformed.body).toEqual({ code: 'MALFORMED_JSON', description: expect.any(String) });
    });
  });

  it('asks for the key as /search does, answering in the STAC error shape', async () => {
    const missing = await request(app.getHttpServer()).get('/stac').expect(401);
    expect(missing.body).toEqual({ code: 'MISSING_API_KEY', description: expect.any(String) });
    await request(app.getHttpServer()).get('/stac/search').set('x-api-key', 'lis_wrong').expect(401);
  });
});
