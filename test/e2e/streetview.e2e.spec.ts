import { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { createKey, feature, importFixture, resetImagery, startApp } from '../helpers/test-app';

// GET /maps/api/streetview/metadata against Google's documented answers: every outcome is HTTP 200
// with a status in the body (OK with copyright, date "YYYY-MM", location {lat, lng} and pano_id;
// ZERO_RESULTS, NOT_FOUND, REQUEST_DENIED, INVALID_REQUEST).
const TARGET = { lat: 47.14, lng: 9.52 };
const M = 1 / 111_320; // a metre of latitude in degrees
// 10 m south of the target looking north, at it; 5 m north of it looking north, away from it.
const FACING = feature('Städtle 5, Vaduz', { captured_at: '2021-07-09', heading: 0 }, [
  TARGET.lng,
  TARGET.lat - 10 * M,
]);
const AWAY = feature('Städtle 7, Vaduz', { captured_at: '2022-03-01', heading: 0 }, [TARGET.lng, TARGET.lat + 5 * M]);
// 200 m away, alone: found within radius=300, not within the default 50.
const FAR = feature('Aeulestrasse 2, Vaduz', { captured_at: '2020-01-20', heading: 90 }, [9.52, 47.15]);

describe('GET /maps/api/streetview/metadata', () => {
  let app: NestExpressApplication;
  let key: string;
  const metadata = async (query: Record<string, string | string[]>) => {
    const res = await request(app.getHttpServer())
      .get('/maps/api/streetview/metadata')
      .query({ key, ...query })
      .expect(200)
      .expect('content-type', /application\/json/);
    return res.body;
  };

  beforeAll(async () => {
    await resetImagery();
    await importFixture([FACING, AWAY, FAR]);
    app = await startApp();
    key = await createKey(app);
  });
  afterAll(() => app.close());

  it("OK: the image within the radius that faces the location, in Google's shape", async () => {
    expect(await metadata({ location: `${TARGET.lat},${TARGET.lng}` })).toEqual({
      copyright: '© Location Imagery Search',
      date: '2021-07',
      location: { lat: expect.closeTo(TARGET.lat - 10 * M, 7), lng: TARGET.lng },
      pano_id: FACING.id,
      status: 'OK',
    });
  });

  it('OK: the nearest image within the radius when none faces the location', async () => {
    const body = await metadata({ location: '47.148,9.5201', radius: '300', source: 'outdoor' });
    expect(body).toMatchObject({ status: 'OK', pano_id: FAR.id, date: '2020-01' });
  });

  it('OK: an address, read as POST /search reads it', async () => {
    expect(await metadata({ location: 'Städtle 7, Vaduz' })).toMatchObject({ status: 'OK', pano_id: AWAY.id });
  });

  it('ZERO_RESULTS: nothing within the radius of the point', async () => {
    expect(await metadata({ location: '47.148,9.5201' })).toEqual({ status: 'ZERO_RESULTS' });
    expect(await metadata({ location: '-33.9249,18.4241', radius: '1000' })).toEqual({ status: 'ZERO_RESULTS' });
  });

  it('NOT_FOUND: a location that names nothing this service knows', async () => {
    expect(await metadata({ location: 'Qxzvbnmplk Wrtzgh' })).toEqual({ status: 'NOT_FOUND' });
  });

  it('REQUEST_DENIED: no key or a wrong one (in key= or x-api-key)', async () => {
    const none = await request(app.getHttpServer())
      .get('/maps/api/streetview/metadata?location=47.14,9.52')
      .expect(200);
    expect(none.body).toEqual({ error_message: expect.any(String), status: 'REQUEST_DENIED' });
    const wrong = await request(app.getHttpServer())
      .get('/maps/api/streetview/metadata?location=47.14,9.52&key=lis_notakeyatallnotakeyatall')
      .expect(200);
    expect(wrong.body.status).toBe('REQUEST_DENIED');
    const header = await request(app.getHttpServer())
      .get('/maps/api/streetview/metadata?location=47.14,9.52')
      .set('x-api-key', key)
      .expect(200);
    expect(header.body.status).toBe('OK');
  });

  it.each([
    [{}, 'location'],
    [{ location: '' }, 'location'],
    [{ location: '47.14,9.52', radius: 'far' }, 'radius'],
    [{ location: '47.14,9.52', radius: '0' }, 'radius'],
    [{ location: '47.14,9.52', source: 'indoor' }, 'source'],
    [{ location: ['47.14,9.52', 'Vaduz'] }, 'location'],
  ])('INVALID_REQUEST: %j (naming %s)', async (query, parameter) => {
    const body = await metadata(query as Record<string, string | string[]>);
    expect(body).toEqual({ error_message: expect.stringContaining(parameter), status: 'INVALID_REQUEST' });
  });
});
