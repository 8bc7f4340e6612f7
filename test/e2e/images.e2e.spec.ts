import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NestExpressApplication } from '@nestjs/platform-express';
import sharp from 'sharp';
import request from 'supertest';
import { ContractProxy, startContractProxy } from '../helpers/contract';
import { importPhotoFolder } from '../helpers/photo-importer';
import { cameraTags, jpegBytes, writeTagsOf } from '../helpers/photo-files';
import { BASE, GAZETTEER, insertPlaces, resetPlaces } from '../helpers/places';
import { createKey, resetImagery, startApp } from '../helpers/test-app';

// A photo imported, then seen as a client sees it: its record's image is the service's own URL, and
// GET /images/{id}/{variant}.jpg serves the stored images with stable caching, ranges and JSON errors.

const binary = (r: request.Response, done: (e: Error | null, body: Buffer) => void) => {
  const chunks: Buffer[] = [];
  r.on('data', (c: Buffer) => chunks.push(c));
  r.on('end', () => done(null, Buffer.concat(chunks)));
};

describe('GET /images/:id/:file', () => {
  const root = mkdtempSync(join(tmpdir(), 'lis-images-'));
  const folder = join(root, 'camera');
  let app: NestExpressApplication;
  let contract: ContractProxy;
  let key: string;
  let id: string;
  let originalSize: number;

  beforeAll(async () => {
    await resetImagery();
    await resetPlaces();
    await insertPlaces(GAZETTEER);
    mkdirSync(folder);
    const path = join(folder, 'photo.jpg');
    writeFileSync(path, await jpegBytes(1400, 1050));
    const [lon, lat] = BASE;
    writeTagsOf([
      [
        path,
        cameraTags({
          lat,
          lon,
          time: '2024:05:01 10:00:00',
          offset: '+02:00',
          direction: 45,
          make: 'TestCam',
          model: 'One',
        }),
      ],
    ]);
    await importPhotoFolder(folder, join(root, 'store'));
    app = await startApp({ imageStoreDir: join(root, 'store') });
    key = await createKey(app);
    contract = await startContractProxy(app);
  });
  afterEach(() => expect(contract.takeViolations()).toEqual([]));
  afterAll(async () => {
    await contract?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it("gives a photo's record the service's own image URL, and its camera and instant on request", async () => {
    const res = await contract.http
      .post('/search')
      .set('x-api-key', key)
      .send({ query: 'Städtle 1, Vaduz', include: ['camera', 'captured_at'] })
      .expect(200);
    const [record] = res.body.data;
    id = record.id;
    expect(record).toMatchObject({
      address: 'Städtle 1, 9490 Vaduz',
      date: 'May 1, 2024',
      compass: 'Facing Northeast (NE)',
      interactive: false,
      image: `https://img.test/images/${id}/sd.jpg`,
      captured_at: '2024-05-01T10:00:00+02:00',
      camera: {
        make: 'TestCam',
        model: 'One',
        width: 1400,
        height: 1050,
        projection: 'perspective',
        heading_origin: 'exif',
        panorama: null,
      },
    });
    const plain = await contract.http
      .post('/search')
      .set('x-api-key', key)
      .send({ query: 'Städtle 1, Vaduz' })
      .expect(200);
    expect(Object.keys(plain.body.data[0]).sort()).toEqual([
      'address',
      'compass',
      'date',
      'geometry',
      'id',
      'image',
      'interactive',
    ]);
  });

  it('serves each size without a key, immutable, with a strong ETag, and 304 for it', async () => {
    for (const [variant, long] of [
      ['thumb', 256],
      ['sd', 1024],
      ['hd', 1400],
    ] as const) {
      await contract.http.get(`/images/${id}/${variant}.jpg`).expect(200);
      const res = await request(app.getHttpServer())
        .get(`/images/${id}/${variant}.jpg`)
        .buffer(true)
        .parse(binary)
        .expect(200);
      expect(res.headers['content-type']).toBe('image/jpeg');
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      const meta = await sharp(res.body as Buffer).metadata();
      expect(Math.max(meta.width!, meta.height!)).toBe(long);
      expect(meta.exif).toBeUndefined();
      await contract.http.get(`/images/${id}/${variant}.jpg`).set('If-None-Match', res.headers.etag).expect(304);
    }
    const original = await request(app.getHttpServer())
      .get(`/images/${id}/original.jpg`)
      .buffer(true)
      .parse(binary)
      .expect(200);
    originalSize = (original.body as Buffer).length;
    expect(Number(original.headers['content-length'])).toBe(originalSize);
    expect((await sharp(original.body as Buffer).metadata()).exif).toBeDefined();
  });

  it('answers byte ranges of the original, and 416 as JSON for one outside it', async () => {
    const part = await request(app.getHttpServer())
      .get(`/images/${id}/original.jpg`)
      .set('Range', 'bytes=0-99')
      .buffer(true)
      .parse(binary)
      .expect(206);
    expect(part.headers['content-range']).toBe(`bytes 0-99/${originalSize}`);
    expect((part.body as Buffer).length).toBe(100);
    expect((part.body as Buffer).subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
    const outside = await request(app.getHttpServer())
      .get(`/images/${id}/original.jpg`)
      .set('Range', `bytes=${originalSize + 10}-`)
      .expect(416);
    expect(outside.body).toEqual({
      isSuccess: false,
      error: { code: 'RANGE_NOT_SATISFIABLE', message: 'Range not satisfiable' },
    });
    expect(outside.headers['content-range']).toBe(`bytes */${originalSize}`);
  });

  it('answers 404 as JSON for an unknown id, a size it does not have, or no id at all', async () => {
    const notFound = { isSuccess: false, error: { code: 'NOT_FOUND', message: 'No such image' } };
    for (const path of [
      `/images/${id.replace(/^./, id[0] === 'f' ? 'e' : 'f')}/sd.jpg`,
      `/images/${id}/huge.jpg`,
      `/images/${id}/sd.png`,
      '/images/not-an-id/sd.jpg',
    ]) {
      const res = await contract.http.get(path).expect(404);
      expect(res.body).toEqual(notFound);
      expect(res.headers['cache-control'] ?? '').not.toMatch(/immutable/);
    }
  });

  it("gives a photo's STAC item every stored size as an asset", async () => {
    const res = await request(app.getHttpServer())
      .get(`/stac/collections/unsourced/items/${id}`)
      .set('x-api-key', key)
      .expect(200);
    const base = `https://img.test/images/${id}`;
    expect(res.body.assets).toEqual({
      thumbnail: { href: `${base}/thumb.jpg`, type: 'image/jpeg', title: 'Thumbnail (256 px)', roles: ['thumbnail'] },
      visual: { href: `${base}/sd.jpg`, type: 'image/jpeg', title: 'Image (1024 px)', roles: ['visual'] },
      hd: { href: `${base}/hd.jpg`, type: 'image/jpeg', title: 'Image (2048 px)', roles: ['visual'] },
      data: { href: `${base}/original.jpg`, type: 'image/jpeg', title: 'The camera file', roles: ['data'] },
    });
    expect(res.body.properties['view:azimuth']).toBe(45);
  });

  it('renders the view of a 360 photo that has no direction (its record has no heading)', async () => {
    const pano = join(root, 'pano');
    mkdirSync(pano);
    writeFileSync(join(pano, 'p.jpg'), await jpegBytes(720, 360));
    const [lon, lat] = BASE;
    writeTagsOf([
      [
        join(pano, 'p.jpg'),
        {
          ...cameraTags({
            lat: lat + 0.01,
            lon,
            time: '2024:05:02 10:00:00',
            offset: '+02:00',
            make: 'Any',
            model: 'Pano',
          }),
          'XMP-GPano:ProjectionType': 'equirectangular',
        },
      ],
    ]);
    await importPhotoFolder(pano, join(root, 'store'));
    const res = await request(app.getHttpServer())
      .post('/search')
      .set('x-api-key', key)
      .send({ query: `${lat + 0.01},${lon}`, include: ['heading', 'camera'] })
      .expect(200);
    const record = res.body.data.find(
      (r: { camera: { heading_origin: string } | null }) => r.camera?.heading_origin === 'none',
    );
    expect(record).toMatchObject({ heading: null, interactive: true, compass: 'Facing North (N)' });
    // No GPano geometry: the whole sphere, its centre column facing nothing known.
    expect(record.camera.panorama).toEqual({
      pose_heading: null,
      full_width: 720,
      full_height: 360,
      cropped_left: 0,
      cropped_top: 0,
      cropped_width: 720,
      cropped_height: 360,
    });
    const view = await request(app.getHttpServer()).get(`/images/${record.id}/view.jpg?width=64&height=48`).expect(200);
    expect(view.headers['content-type']).toBe('image/jpeg');
  });

  describe('with IMAGE_URL_SECRET: private URLs', () => {
    let privateApp: NestExpressApplication;
    beforeAll(async () => {
      privateApp = await startApp({ imageStoreDir: join(root, 'store'), imageUrlSecret: 's'.repeat(40) });
    });
    afterAll(() => privateApp?.close());

    it('signs the URLs a search returns, serves them privately, and answers 404 to any other', async () => {
      const res = await request(privateApp.getHttpServer())
        .post('/search')
        .set('x-api-key', await createKey(privateApp))
        .send({ query: 'Städtle 1, Vaduz' })
        .expect(200);
      const url = new URL(res.body.data[0].image);
      expect(url.pathname).toBe(`/images/${id}/sd.jpg`);
      const sig = url.searchParams.get('sig')!;
      expect(sig).toMatch(/^[A-Za-z0-9_-]{32}$/);
      const signed = await request(privateApp.getHttpServer()).get(`${url.pathname}?sig=${sig}`).expect(200);
      expect(signed.headers['cache-control']).toBe('private, max-age=31536000, immutable');
      // The record's signature opens its other sizes too, and nothing else.
      await request(privateApp.getHttpServer()).get(`/images/${id}/thumb.jpg?sig=${sig}`).expect(200);
      for (const path of [
        `/images/${id}/sd.jpg`,
        `/images/${id}/sd.jpg?sig=${'A'.repeat(32)}`,
        `/images/${id}/sd.jpg?sig=short`,
      ]) {
        const refused = await request(privateApp.getHttpServer()).get(path).expect(404);
        expect(refused.body).toEqual({ isSuccess: false, error: { code: 'NOT_FOUND', message: 'No such image' } });
      }
    });
  });
});
