import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { ContractProxy, startContractProxy } from '../helpers/contract';
import { itemErrors } from '../helpers/stac-schemas';
import { importPhotoFolder } from '../helpers/photo-importer';
import { cameraTags, jpegBytes, writeTagsOf } from '../helpers/photo-files';
import { BASE, GAZETTEER, insertPlaces, offset, resetPlaces } from '../helpers/places';
import { createKey, feature, importFixture, resetImagery, startApp } from '../helpers/test-app';

// `include: ["sequence"]`: walking along the street. A drive of five photos 8 m and 5 s apart, whose
// third does not decode (refused after the sequence was cut, so its index is missing), and a photo
// taken alone an hour later: each record says its sequence, its place in it, and the records before
// and after it in capture order.

const SURVEYED = '6f1d3c2a-8e4b-4c1d-9a7e-2b5c8d9e0f11';

describe('include: sequence', () => {
  const root = mkdtempSync(join(tmpdir(), 'lis-sequences-'));
  const folder = join(root, 'drive');
  let app: NestExpressApplication;
  let contract: ContractProxy;
  let key: string;

  beforeAll(async () => {
    await resetImagery();
    await resetPlaces();
    await insertPlaces(GAZETTEER);
    mkdirSync(folder);
    const files: Array<[string, ReturnType<typeof cameraTags>]> = [];
    for (let i = 0; i < 5; i++) {
      const path = join(folder, `drive-${i}.jpg`);
      writeFileSync(path, await jpegBytes(320, 240));
      const [lon, lat] = offset(BASE, 0, i * 8);
      files.push([path, cameraTags({ lat, lon, time: `2024:05:01 10:00:${10 + i * 5}`, offset: '+02:00' })]);
    }
    const alone = join(folder, 'alone.jpg');
    writeFileSync(alone, await jpegBytes(320, 240));
    const [lon, lat] = offset(BASE, 30, 0);
    files.push([alone, cameraTags({ lat, lon, time: '2024:05:01 11:00:00', offset: '+02:00', direction: 90 })]);
    writeTagsOf(files);
    const broken = join(folder, 'drive-2.jpg');
    const whole = readFileSync(broken);
    writeFileSync(broken, whole.subarray(0, Math.floor(whole.length / 2)));
    const summary = await importPhotoFolder(folder, join(root, 'store'));
    expect(summary.refused).toBe(1);
    await importFixture([feature('Städtle 1, 9490 Vaduz', { id: SURVEYED }, offset(BASE, 10, 10))], 'survey');

    app = await startApp({ imageStoreDir: join(root, 'store') });
    key = await createKey(app);
    contract = await startContractProxy(app);
  });
  afterEach(() => expect(contract.takeViolations()).toEqual([]));
  afterAll(async () => {
    await contract?.close();
    rmSync(root, { recursive: true, force: true });
  });

  const nearBase = (include: string[]) =>
    contract.http
      .post('/search')
      .set('x-api-key', key)
      .send({ near: { lat: BASE[1], lon: BASE[0], radius_m: 200 }, limit: 20, include })
      .expect(200);

  it('links each photo to the ones before and after it in capture order, over the one refused', async () => {
    const res = await nearBase(['sequence', 'captured_at']);
    const records: any[] = res.body.data;
    expect(records).toHaveLength(6);
    const byTime = (a: any, b: any) => a.captured_at.localeCompare(b.captured_at);
    const drive = records.filter((r) => r.captured_at?.startsWith('2024-05-01T10:')).sort(byTime);
    expect(drive.map((r) => r.captured_at)).toEqual([
      '2024-05-01T10:00:10+02:00',
      '2024-05-01T10:00:15+02:00',
      '2024-05-01T10:00:25+02:00',
      '2024-05-01T10:00:30+02:00',
    ]);
    const sequenceId = drive[0].sequence.id;
    expect(drive.map((r) => r.sequence)).toEqual([
      { id: sequenceId, index: 0, previous: null, next: drive[1].id },
      { id: sequenceId, index: 1, previous: drive[0].id, next: drive[2].id },
      { id: sequenceId, index: 3, previous: drive[1].id, next: drive[3].id },
      { id: sequenceId, index: 4, previous: drive[2].id, next: null },
    ]);

    const alone = records.find((r) => r.captured_at === '2024-05-01T11:00:00+02:00');
    expect(alone.sequence).toEqual({ id: expect.any(String), index: 0, previous: null, next: null });
    expect(alone.sequence.id).not.toBe(sequenceId);
    // A record that was not made from a photo has no sequence.
    expect(records.find((r) => r.id === SURVEYED).sequence).toBeNull();
  });

  it('adds nothing unless asked for', async () => {
    const res = await nearBase([]);
    for (const record of res.body.data) expect(record).not.toHaveProperty('sequence');
  });

  describe('GET /images/:id', () => {
    const get = (path: string) => contract.http.get(path).set('x-api-key', key);

    it('walks a sequence from its first record to its last by next, and back by previous', async () => {
      const res = await nearBase(['sequence', 'captured_at']);
      const first = res.body.data.find((r: any) => r.captured_at === '2024-05-01T10:00:10+02:00');
      const forward: string[] = [];
      let at: string | null = first.id;
      while (at) {
        const step: any = (await get(`/images/${at}?include=sequence`).expect(200)).body;
        forward.push(step.id);
        at = step.sequence.next;
      }
      expect(forward).toHaveLength(4);
      const back: string[] = [];
      at = forward[3];
      while (at) {
        const step: any = (await get(`/images/${at}?include=sequence,camera`).expect(200)).body;
        expect(step.camera).toMatchObject({ projection: 'perspective', heading_origin: 'sequence' });
        back.push(step.id);
        at = step.sequence.previous;
      }
      expect(back).toEqual([...forward].reverse());
    });

    it("answers a record as a search's page does, with the contract's fields alone by default", async () => {
      const [fromSearch] = (await nearBase([])).body.data.filter((r: any) => r.id === SURVEYED);
      const res = await get(`/images/${SURVEYED}`).expect(200);
      expect(res.body).toEqual(fromSearch);
      expect(res.headers['cache-control']).toBe('private, no-cache');
      expect(Object.keys(res.body).sort()).toEqual([
        'address',
        'compass',
        'date',
        'geometry',
        'id',
        'image',
        'interactive',
      ]);
      const withPlace = await get(`/images/${SURVEYED.toUpperCase()}?include=place,heading,sequence`).expect(200);
      expect(withPlace.body).toMatchObject({ id: SURVEYED, sequence: null, heading: expect.any(Number) });
      expect(withPlace.body).toHaveProperty('place');
    });

    it('answers 404 for an unknown or malformed id, 400 naming include for an unknown name, 401 without a key', async () => {
      const unknown = await get('/images/00000000-0000-4000-8000-000000000000').expect(404);
      expect(unknown.body).toMatchObject({ isSuccess: false, error: { code: 'NOT_FOUND' } });
      await get('/images/not-an-id').expect(404);
      const bad = await get(`/images/${SURVEYED}?include=sequence,score`).expect(400);
      expect(bad.body.error).toMatchObject({ code: 'INVALID_REQUEST', details: [{ field: 'include' }] });
      expect(bad.body.error.message).toContain('"score"');
      await get(`/images/${SURVEYED}?include=camera&include=sequence`).expect(400);
      await request(app.getHttpServer()).get(`/images/${SURVEYED}`).expect(401);
    });
  });

  it("links a photo's STAC item to the items taken before and after it (rel prev and next)", async () => {
    const res = await nearBase(['sequence', 'captured_at']);
    const drive = res.body.data
      .filter((r: any) => r.captured_at?.startsWith('2024-05-01T10:'))
      .sort((a: any, b: any) => a.captured_at.localeCompare(b.captured_at));
    const stac = (path: string) => request(app.getHttpServer()).get(path).set('x-api-key', key).expect(200);
    const walk = (item: any) =>
      Object.fromEntries(
        item.links.filter((l: any) => l.rel === 'prev' || l.rel === 'next').map((l: any) => [l.rel, l.href]),
      );
    const itemUrl = (recordId: string) =>
      expect.stringMatching(new RegExp(`/stac/collections/unsourced/items/${recordId}$`));
    const first = (await stac(`/stac/collections/unsourced/items/${drive[0].id}`)).body;
    expect(itemErrors(first)).toEqual([]);
    expect(walk(first)).toEqual({ next: itemUrl(drive[1].id) });
    const middle = (await stac(`/stac/collections/unsourced/items/${drive[2].id}`)).body;
    expect(walk(middle)).toEqual({ prev: itemUrl(drive[1].id), next: itemUrl(drive[3].id) });
    // In a page of items too; a record not made from a photo has neither.
    const page = (await stac(`/stac/search?ids=${drive[3].id},${SURVEYED}`)).body;
    const byId = new Map(page.features.map((f: any) => [f.id, walk(f)]));
    expect(byId.get(drive[3].id)).toEqual({ prev: itemUrl(drive[2].id) });
    expect(byId.get(SURVEYED)).toEqual({});
  });
});
