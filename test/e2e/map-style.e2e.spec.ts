import { NestExpressApplication } from '@nestjs/platform-express';
import Pbf from 'pbf';
import request from 'supertest';
import { startApp } from '../helpers/test-app';

// GET /map/style.json and GET /map/fonts/{fontstack}/{range}.pbf: no key, the service's own origin only,
// glyphs MapLibre can read, and a clear 4xx for anything else.
interface Glyph {
  id: number;
  bitmap?: Buffer;
  width: number;
  height: number;
  left: number;
  top: number;
  advance: number;
}

// MapLibre's glyph protobuf, read as MapLibre reads it.
function readGlyphs(body: Buffer): { name: string; range: string; glyphs: Glyph[] } {
  const stack = { name: '', range: '', glyphs: [] as Glyph[] };
  new Pbf(body).readFields((tag, _, pbf) => {
    if (tag !== 1) return;
    pbf!.readMessage((t, __, p) => {
      if (t === 1) stack.name = p!.readString();
      else if (t === 2) stack.range = p!.readString();
      else if (t === 3) {
        const g = {} as Glyph;
        p!.readMessage((f, ___, q) => {
          if (f === 1) g.id = q!.readVarint();
          else if (f === 2) g.bitmap = Buffer.from(q!.readBytes());
          else if (f === 3) g.width = q!.readVarint();
          else if (f === 4) g.height = q!.readVarint();
          else if (f === 5) g.left = q!.readSVarint();
          else if (f === 6) g.top = q!.readSVarint();
          else if (f === 7) g.advance = q!.readVarint();
        }, g);
        stack.glyphs.push(g);
      }
    }, stack);
  }, stack);
  return stack;
}

const binary = (res: request.Response, callback: (err: Error | null, body: Buffer) => void) => {
  const chunks: Buffer[] = [];
  res.on('data', (c: Buffer) => chunks.push(c));
  res.on('end', () => callback(null, Buffer.concat(chunks)));
};

describe('the map style and its fonts', () => {
  let app: NestExpressApplication;
  beforeAll(async () => {
    app = await startApp();
  });
  afterAll(() => app.close());

  it("serves the style without a key, naming only the service's own paths", async () => {
    const res = await request(app.getHttpServer()).get('/map/style.json').expect(200);
    expect(res.headers['cache-control']).toBe('public, max-age=3600');
    expect(res.body).toMatchObject({ version: 8, name: 'Location Imagery Search' });
    expect(res.body.glyphs).toBe('/map/fonts/{fontstack}/{range}.pbf');
    expect(res.body.sources.tiles.tiles).toEqual(['/tiles/{z}/{x}/{y}.mvt']);
    const urls = JSON.stringify(res.body).match(/https?:\/\/[^"]*/g);
    expect(urls).toBeNull();
  });

  it('serves Noto Sans glyphs as MapLibre reads them', async () => {
    const res = await request(app.getHttpServer())
      .get('/map/fonts/Noto%20Sans%20Regular/0-255.pbf')
      .buffer(true)
      .parse(binary)
      .expect(200);
    expect(res.headers['content-type']).toBe('application/x-protobuf');
    expect(res.headers['cache-control']).toBe('public, max-age=86400');
    const stack = readGlyphs(res.body as Buffer);
    expect(stack.name).toBe('Noto Sans Regular');
    expect(stack.range).toBe('0-255');
    const byId = new Map(stack.glyphs.map((g) => [g.id, g]));
    expect(byId.size).toBeGreaterThan(180);
    // "A": a capital 24 px per em stands ~17 px tall on the baseline, its bitmap padded by 3 px a side;
    // the outline encodes as 192, so a stroke's middle (about 1 px inside) is above 200, its corners 0.
    const a = byId.get(65)!;
    expect(a.height).toBeGreaterThanOrEqual(16);
    expect(a.height).toBeLessThanOrEqual(18);
    expect(a.bitmap!.length).toBe((a.width + 6) * (a.height + 6));
    expect(a.bitmap![0]).toBe(0);
    expect(Math.max(...a.bitmap!)).toBeGreaterThan(200);
    // A space has an advance and no bitmap.
    expect(byId.get(32)).toMatchObject({ width: 0, height: 0 });
    expect(byId.get(32)!.advance).toBeGreaterThan(3);
    // Compressed for a client that asks: SDF bitmaps shrink to about 40%.
    const gzipped = await request(app.getHttpServer())
      .get('/map/fonts/Noto%20Sans%20Regular/0-255.pbf')
      .set('Accept-Encoding', 'gzip')
      .buffer(true)
      .parse(binary)
      .expect(200);
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(readGlyphs(gzipped.body as Buffer).glyphs).toHaveLength(stack.glyphs.length);
    // MapLibre joins a text-font list with commas: the first stack the service has answers.
    const medium = await request(app.getHttpServer())
      .get('/map/fonts/Noto%20Sans%20Medium,Arial%20Unicode%20MS%20Regular/256-511.pbf')
      .buffer(true)
      .parse(binary)
      .expect(200);
    expect(readGlyphs(medium.body as Buffer)).toMatchObject({ name: 'Noto Sans Medium', range: '256-511' });
  });

  it('answers a range the font does not cover with an empty range, not an error', async () => {
    const res = await request(app.getHttpServer())
      .get('/map/fonts/Noto%20Sans%20Regular/19968-20223.pbf')
      .buffer(true)
      .parse(binary)
      .expect(200);
    expect(readGlyphs(res.body as Buffer)).toEqual({ name: 'Noto Sans Regular', range: '19968-20223', glyphs: [] });
  });

  it('names the parameter of a bad glyph request', async () => {
    for (const range of ['1-256', '0-100', '65536-65791', 'abc']) {
      const res = await request(app.getHttpServer()).get(`/map/fonts/Noto%20Sans%20Regular/${range}.pbf`).expect(400);
      expect(res.body.error).toMatchObject({ code: 'INVALID_REQUEST', details: [{ field: 'range' }] });
    }
    const res = await request(app.getHttpServer()).get('/map/fonts/Comic%20Sans/0-255.pbf').expect(404);
    expect(res.body.error).toMatchObject({ code: 'NOT_FOUND', details: [{ field: 'fontstack' }] });
  });
});
