import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { NestExpressApplication } from '@nestjs/platform-express';
import sharp from 'sharp';
import request from 'supertest';
import { ContractProxy, startContractProxy } from '../helpers/contract';
import { importPhotoFolder } from '../helpers/photo-importer';
import { cameraTags, jpegBytes, writeTagsOf } from '../helpers/photo-files';
import { BASE, GAZETTEER, insertPlaces, offset, resetPlaces } from '../helpers/places';
import { createKey, resetImagery, startApp } from '../helpers/test-app';

// GET /images/{id}/view.jpg on imported photos: a 360 image with coloured marks at known headings (its
// pose heading turns it), and a flat photo with a known focal length, as a client fetches them; and
// the view of the place as a 360 record's image in a search: the 360 image is 10 m from Städtle 1
// (BASE), which is at heading 120 from it, where its red mark is.

const binary = (r: request.Response, done: (e: Error | null, body: Buffer) => void) => {
  const chunks: Buffer[] = [];
  r.on('data', (c: Buffer) => chunks.push(c));
  r.on('end', () => done(null, Buffer.concat(chunks)));
};

/** 1440 x 720, blue, with a red mark at longitude -80 and a green one at +100 (pitch -1.25 to 6.25). */
async function markedPanorama(): Promise<Buffer> {
  const mark = (r: number, g: number) => ({
    input: { create: { width: 24, height: 30, channels: 3 as const, background: { r, g, b: 0 } } },
    top: 335,
  });
  return sharp({ create: { width: 1440, height: 720, channels: 3, background: { r: 0, g: 0, b: 255 } } })
    .composite([
      { ...mark(255, 0), left: 400 - 12 },
      { ...mark(0, 255), left: 1120 - 12 },
    ])
    .jpeg({ quality: 90 })
    .toBuffer();
}

describe('GET /images/:id/view.jpg', () => {
  const root = mkdtempSync(join(tmpdir(), 'lis-views-'));
  const folder = join(root, 'camera');
  const store = join(root, 'store');
  let app: NestExpressApplication;
  let contract: ContractProxy;
  let pano: string;
  let flat: string;
  let key: string;

  const view = (id: string, query: string) =>
    request(app.getHttpServer()).get(`/images/${id}/view.jpg?${query}`).buffer(true).parse(binary);
  const centre = async (jpeg: Buffer) => {
    const { data, info } = await sharp(jpeg).raw().toBuffer({ resolveWithObject: true });
    const at = (Math.floor(info.height / 2) * info.width + Math.floor(info.width / 2)) * info.channels;
    return [...data.subarray(at, at + 3)];
  };
  const colour = ([r, g, b]: number[]) =>
    r > 180 && g < 80 ? 'red' : g > 180 && r < 80 ? 'green' : b > 180 ? 'blue' : 'other';

  beforeAll(async () => {
    await resetImagery();
    await resetPlaces();
    await insertPlaces(GAZETTEER);
    mkdirSync(folder);
    const [lon, lat] = offset(BASE, -10 * Math.sin((120 * Math.PI) / 180), -10 * Math.cos((120 * Math.PI) / 180));
    writeFileSync(join(folder, 'pano.jpg'), await markedPanorama());
    writeFileSync(join(folder, 'flat.jpg'), await jpegBytes(800, 600));
    writeTagsOf([
      [
        join(folder, 'pano.jpg'),
        {
          ...cameraTags({ lat, lon, time: '2024:05:01 10:00:00', offset: '+02:00', make: 'TestCam', model: 'Sphere' }),
          'XMP-GPano:ProjectionType': 'equirectangular',
          'XMP-GPano:PoseHeadingDegrees': 200,
        },
      ],
      [
        join(folder, 'flat.jpg'),
        {
          ...cameraTags({ lat: lat + 0.0001, lon, time: '2024:05:01 10:01:00', offset: '+02:00', direction: 45 }),
          FocalLengthIn35mmFormat: 28,
        },
      ],
    ]);
    await importPhotoFolder(folder, store);
    app = await startApp({ imageStoreDir: store });
    contract = await startContractProxy(app);
    key = await createKey(app);
    const found = await request(app.getHttpServer())
      .post('/search')
      .set('x-api-key', key)
      .send({ query: `${BASE[1]}, ${BASE[0]}`, include: ['camera'] })
      .expect(200);
    const byProjection = (p: string) =>
      found.body.data.find((r: { camera: { projection: string } }) => r.camera.projection === p).id;
    pano = byProjection('equirectangular');
    flat = byProjection('perspective');
  });
  afterEach(() => expect(contract.takeViolations()).toEqual([]));
  afterAll(async () => {
    await contract?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('faces the heading asked for: the marks at their headings, the pose heading at the centre column', async () => {
    // The red mark is 80 degrees left of the centre column (pose heading 200): heading 120; green 300.
    const cases: [string, string][] = [
      ['heading=120&pitch=2.5&fov=30', 'red'],
      ['heading=300&pitch=2.5&fov=30', 'green'],
      ['heading=140&pitch=2.5&fov=30', 'blue'],
      ['pitch=2.5&fov=30', 'blue'],
    ];
    for (const [query, expected] of cases) {
      const res = await view(pano, query).expect(200);
      expect(res.headers['content-type']).toBe('image/jpeg');
      const meta = await sharp(res.body as Buffer).metadata();
      expect([meta.width, meta.height]).toEqual([640, 480]);
      expect(colour(await centre(res.body as Buffer))).toBe(expected);
    }
    const small = await view(pano, 'heading=120&pitch=2.5&fov=30&width=101&height=51').expect(200);
    expect((await sharp(small.body as Buffer).metadata()).width).toBe(101);
    await contract.http.get(`/images/${pano}/view.jpg?heading=300&pitch=2.5&fov=30`).expect(200);
  });

  it('is immutable with a strong ETag of its normal parameters, answers 304, and is cached on disk', async () => {
    const first = await view(pano, 'heading=45&pitch=-10&fov=75&width=320&height=200').expect(200);
    expect(first.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(first.headers.etag).toMatch(/^"[0-9a-f]{32}-view-[0-9a-f]{20}"$/);
    // The same view written otherwise: the same ETag and bytes, from the cache.
    const again = await view(pano, 'heading=45.00&pitch=-10.04&fov=75&width=320&height=200').expect(200);
    expect(again.headers.etag).toBe(first.headers.etag);
    expect((again.body as Buffer).equals(first.body as Buffer)).toBe(true);
    const other = await view(pano, 'heading=45.1&pitch=-10&fov=75&width=320&height=200').expect(200);
    expect(other.headers.etag).not.toBe(first.headers.etag);
    await contract.http
      .get(`/images/${pano}/view.jpg?heading=45&pitch=-10&fov=75&width=320&height=200`)
      .set('If-None-Match', first.headers.etag)
      .expect(304);
    const cached = readdirSync(join(store, 'views')).filter((d) => d !== 'tmp');
    expect(cached.length).toBeGreaterThan(0);
  });

  it('shows a flat photo within its field of view, and says why not beyond it', async () => {
    // 28 mm equivalent on a 4:3 photo: 63.4 degrees wide, around its heading of 45.
    const inside = await view(flat, 'heading=70&fov=20').expect(200);
    expect(Math.max(...(await centre(inside.body as Buffer)))).toBeGreaterThan(40);
    // Facing 15 with fov 90: the photo's left edge (13.3) is near the centre, black beyond it.
    const edge = await sharp((await view(flat, 'heading=15&width=200&height=100').expect(200)).body as Buffer)
      .raw()
      .toBuffer({ resolveWithObject: true });
    const at = (i: number) => [...edge.data.subarray((50 * 200 + i) * 3, (50 * 200 + i) * 3 + 3)];
    expect(Math.max(...at(20))).toBeLessThan(16);
    expect(Math.max(...at(180))).toBeGreaterThan(40);
    const outside = await contract.http.get(`/images/${flat}/view.jpg?heading=80`).expect(404);
    expect(outside.body).toEqual({
      isSuccess: false,
      error: {
        code: 'NOT_FOUND',
        message:
          'The photo does not show heading 80, pitch 0: it covers headings 13.3 to 76.7 and pitches -24.9 to 24.9 (a flat photo)',
      },
    });
    await contract.http.get(`/images/${flat}/view.jpg?heading=45&pitch=30`).expect(404);
  });

  it("makes a 360 record's image the view from its camera towards the place searched", async () => {
    for (const query of ['Städtle 1, Vaduz', `${BASE[1]}, ${BASE[0]}`]) {
      const res = await contract.http.post('/search').set('x-api-key', key).send({ query }).expect(200);
      const image = (id: string) => res.body.data.find((r: { id: string }) => r.id === id)?.image as string;
      const url = new URL(image(pano));
      expect(url.origin + url.pathname).toBe(`https://img.test/images/${pano}/view.jpg`);
      expect(Math.abs(Number(url.searchParams.get('heading')) - 120)).toBeLessThan(0.5);
      expect(url.searchParams.get('fov')).toBe('90');
      expect(image(flat)).toBe(`https://img.test/images/${flat}/sd.jpg`);
      // The view it names faces the address: the red mark at its centre.
      const jpeg = (await view(pano, url.search.slice(1)).expect(200)).body as Buffer;
      expect(colour(await centre(jpeg))).toBe('red');
    }
    // A query that names no address, POI or point: the image as stored.
    const town = await contract.http.post('/search').set('x-api-key', key).send({ query: 'Vaduz' }).expect(200);
    const record = town.body.data.find((r: { id: string }) => r.id === pano);
    expect(record.image).toBe(`https://img.test/images/${pano}/sd.jpg`);
  });

  it('answers 400 naming the parameter, and 404 for no such photo', async () => {
    const cases: [string, string][] = [
      ['fov=5', 'fov'],
      ['fov=121', 'fov'],
      ['heading=360.1', 'heading'],
      ['heading=north', 'heading'],
      ['pitch=-91', 'pitch'],
      ['width=15', 'width'],
      ['height=2049', 'height'],
      ['width=100.5', 'width'],
      ['width=1e3', 'width'],
      ['heading=1&heading=2', 'heading'],
      ['zoom=2', 'zoom'],
    ];
    for (const [query, field] of cases) {
      const res = await contract.http.get(`/images/${pano}/view.jpg?${query}`).expect(400);
      expect(res.body.error.code).toBe('INVALID_REQUEST');
      expect(res.body.error.details[0].field).toBe(field);
      expect(res.body.error.message).toContain(field);
    }
    const unknown = await contract.http
      .get(`/images/${pano.replace(/^./, pano[0] === 'f' ? 'e' : 'f')}/view.jpg`)
      .expect(404);
    expect(unknown.body).toEqual({ isSuccess: false, error: { code: 'NOT_FOUND', message: 'No such image' } });
    await contract.http.get('/images/not-an-id/view.jpg').expect(404);
    expect(existsSync(join(store, 'views'))).toBe(true);
  });

  it('a stored image gone or damaged on disk: 503 IMAGE_UNREADABLE, never a 500, and the next view still drawn', async () => {
    // The flat photo's original cut short and its derivatives deleted, as a failing disk leaves them;
    // a new server, so nothing of it is in memory.
    const originals = readdirSync(join(store, 'originals'), { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => join(e.parentPath, e.name));
    const widths = await Promise.all(originals.map(async (f) => (await sharp(f).metadata()).width));
    const original = originals[widths.indexOf(800)];
    const hash = basename(original, '.jpg');
    writeFileSync(original, readFileSync(original).subarray(0, 2000));
    for (const e of readdirSync(join(store, 'derivatives'), { recursive: true, withFileTypes: true }))
      if (e.isFile() && e.name.startsWith(hash)) rmSync(join(e.parentPath, e.name));
    const second = await startApp({ imageStoreDir: store });
    try {
      const broken = await request(second.getHttpServer())
        .get(`/images/${flat}/view.jpg?heading=50&fov=40`)
        .expect(503);
      expect(broken.body).toEqual({
        isSuccess: false,
        error: { code: 'IMAGE_UNREADABLE', message: 'The stored image of this record cannot be read' },
      });
      await request(second.getHttpServer()).get(`/images/${pano}/view.jpg?heading=120&pitch=2.5&fov=31`).expect(200);
    } finally {
      await second.close();
    }
  });
});
