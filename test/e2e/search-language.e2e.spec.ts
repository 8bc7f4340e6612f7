import { join } from 'node:path';
import request from 'supertest';
import { NestExpressApplication } from '@nestjs/platform-express';
import { Test } from '@nestjs/testing';
import { DatabaseModule } from '../../src/database/database.module';
import { ImageryPlaceLinker } from '../../src/imagery/address-recovery/imagery-place-linker.service';
import { ImageryModule } from '../../src/imagery/imagery.module';
import { PlaceRepository } from '../../src/places/place.repository';
import { OsmNode, OsmWay, writeOsmPbf } from '../helpers/place-files';
import { placeImporterTools, startPlaceImporter } from '../helpers/place-importer';
import { insertUnlinkedImagery, offset, resetPlaces } from '../helpers/places';
import { createKey, resetImagery, startApp, testConfig } from '../helpers/test-app';

// `lang` and Accept-Language, end to end: an OpenStreetMap file whose town, street and restaurant carry
// name:xx tags (as Vaduz's node does in OpenStreetMap), imported by the place import, imagery without
// addresses recovered by the linker, then POST /search in several languages. Invented, Vaduz-like data.
let nextNode = 5000;
const BOUNDARY = (() => {
  const corners = [
    [9.4, 47.0],
    [9.7, 47.0],
    [9.7, 47.3],
    [9.4, 47.3],
  ].map(([lon, lat]) => ({ id: nextNode++, lon, lat }));
  const way: OsmWay = {
    id: 950,
    nodes: [...corners.map((c) => c.id), corners[0].id],
    tags: { boundary: 'administrative', admin_level: '2', name: 'Liechtenstein', 'ISO3166-1': 'LI' },
  };
  return { nodes: corners, way };
})();
const HOUSE: [number, number] = [9.5212, 47.1392];
const NODES: OsmNode[] = [
  {
    id: 1,
    lon: 9.5215,
    lat: 47.1395,
    tags: { place: 'town', name: 'Vaduz', 'name:ru': 'Вадуц', 'name:ja': 'ファドゥーツ', 'name:prefix': 'Gemeinde' },
  },
  {
    id: 2,
    lon: HOUSE[0],
    lat: HOUSE[1],
    tags: { 'addr:housenumber': '35', 'addr:street': 'Herrengasse', 'addr:postcode': '9490', 'addr:city': 'Vaduz' },
  },
  {
    id: 3,
    lon: 9.5225,
    lat: 47.1398,
    tags: { amenity: 'restaurant', name: 'Adler', 'name:ru': 'Адлер', 'addr:city': 'Vaduz' },
  },
  { id: 11, lon: 9.5205, lat: 47.139 },
  { id: 12, lon: 9.5211, lat: 47.1391 },
  { id: 13, lon: 9.522, lat: 47.1393 },
  ...BOUNDARY.nodes,
];
const WAYS: OsmWay[] = [
  { id: 100, nodes: [11, 12, 13], tags: { highway: 'residential', name: 'Herrengasse', 'name:ru': 'Херренгассе' } },
  BOUNDARY.way,
];
const IDS = {
  atHouse: '00000000-0000-4000-8000-00000000a001',
  onStreet: '00000000-0000-4000-8000-00000000a002',
  own: '00000000-0000-4000-8000-00000000a003',
};

describe('POST /search in a language (lang, Accept-Language)', () => {
  let app: NestExpressApplication;
  let key: string;
  const place = {} as Awaited<ReturnType<typeof startPlaceImporter>>;
  const { dir, importFile, removeFiles } = placeImporterTools(() => place);

  const search = (body: object, headers: Record<string, string> = {}) =>
    request(app.getHttpServer())
      .post('/search')
      .set({ 'x-api-key': key, ...headers })
      .send({ limit: 10, page: 1, ...body });
  const addressOf = (body: { data: Array<{ id: string; address: string }> }, id: string) =>
    body.data.find((r) => r.id === id)?.address;

  beforeAll(async () => {
    await resetImagery();
    await resetPlaces();
    Object.assign(place, await startPlaceImporter());
    const pbf = writeOsmPbf(join(dir, 'names.osm.pbf'), NODES, WAYS);
    const areas = await place.moduleRef.get(PlaceRepository).openAreaSession();
    try {
      await importFile(pbf, 'osm', { source: 'osm-language-test' }, areas);
    } finally {
      await areas.close();
    }
    await insertUnlinkedImagery(IDS.atHouse, HOUSE, null);
    await insertUnlinkedImagery(IDS.onStreet, offset([9.5205, 47.139], 0, -30), null);
    await insertUnlinkedImagery(IDS.own, offset(HOUSE, 5, 5), 'Herrengasse 35, 9490 Vaduz, Hinterhaus');
    const linking = await Test.createTestingModule({
      imports: [DatabaseModule.forRoot(testConfig()), ImageryModule],
    }).compile();
    await linking.init();
    try {
      await linking.get(ImageryPlaceLinker).linkRecords(Object.values(IDS));
    } finally {
      await linking.close();
    }
    app = await startApp();
    key = await createKey(app);
  });

  afterAll(async () => {
    await app.close();
    await place.db.end();
    await place.moduleRef.close();
    removeFiles();
    await resetImagery();
    await resetPlaces();
  });

  it('imports name:xx tags as the place names by language, leaving out tags that name no language', async () => {
    const { rows } = await place.db.query<{ kind: string; names: Record<string, string> | null }>(
      "SELECT kind, names FROM places WHERE source = 'osm-language-test' ORDER BY kind, name",
    );
    expect(rows).toEqual([
      { kind: 'address', names: null },
      { kind: 'locality', names: { ru: 'Вадуц', ja: 'ファドゥーツ' } },
      { kind: 'poi', names: { ru: 'Адлер' } },
      { kind: 'street', names: { ru: 'Херренгассе' } },
    ]);
  });

  it('without a language, every address and label is as stored', async () => {
    const res = await search({ query: 'Herrengasse 35 Vaduz', include: ['place'] }).expect(200);
    expect(addressOf(res.body, IDS.atHouse)).toBe('Herrengasse 35, 9490 Vaduz');
    expect(addressOf(res.body, IDS.own)).toBe('Herrengasse 35, 9490 Vaduz, Hinterhaus');
  });

  it('lang writes recovered addresses and place labels in it, part by part; an own address stays', async () => {
    const res = await search({ query: 'Herrengasse 35 Vaduz', lang: 'ru', include: ['place'] }).expect(200);
    expect(addressOf(res.body, IDS.atHouse)).toBe('Херренгассе 35, 9490 Вадуц');
    expect(addressOf(res.body, IDS.own)).toBe('Herrengasse 35, 9490 Vaduz, Hinterhaus');
    const atHouse = res.body.data.find((r: { id: string }) => r.id === IDS.atHouse);
    expect(atHouse.place.label).toBe('Херренгассе 35, 9490 Вадуц');
    expect(Object.keys(atHouse)).toEqual([
      'id',
      'address',
      'date',
      'compass',
      'interactive',
      'geometry',
      'image',
      'place',
    ]);
  });

  it('a part the language has no name for stays as stored; a region name comes from CLDR', async () => {
    const res = await search({ query: 'Herrengasse Vaduz', lang: 'ja', region: 'LI' }).expect(200);
    expect(addressOf(res.body, IDS.onStreet)).toBe('Herrengasse, 9490 ファドゥーツ');
    expect(res.body.region).toBe('リヒテンシュタイン');
    expect(res.body.region_id).toBe('LI');
  });

  it('Accept-Language decides without lang: its first language that names a part, never two in one address', async () => {
    const header = { 'Accept-Language': 'tlh;q=0.9, ja;q=0.8, ru;q=0.5' };
    const byHeader = await search({ query: 'Herrengasse 35 Vaduz' }, header).expect(200);
    expect(addressOf(byHeader.body, IDS.atHouse)).toBe('Herrengasse 35, 9490 ファドゥーツ');
    const both = await search({ query: 'Herrengasse 35 Vaduz', lang: 'ru-RU' }, header).expect(200);
    expect(addressOf(both.body, IDS.atHouse)).toBe('Херренгассе 35, 9490 Вадуц');
  });

  it('a town is found by its name in another language', async () => {
    const res = await search({ query: 'Вадуц', include: ['interpretation'] }).expect(200);
    expect(res.body.interpretation.place).toMatchObject({ kind: 'locality', label: 'Vaduz, Liechtenstein' });
    expect(res.body.data.length).toBeGreaterThan(0);
  });

  it('a POI name is written in the language, and found by its name in it', async () => {
    const res = await search({ query: 'Адлер', lang: 'ru', include: ['interpretation'] }).expect(200);
    expect(res.body.interpretation.place).toMatchObject({ kind: 'poi', label: expect.stringMatching(/^Адлер/) });
  });

  it('a lang that is no language tag is a 400 naming lang', async () => {
    for (const lang of ['deutsch!', 'x', 42, 'a'.repeat(36)]) {
      const res = await search({ query: 'Vaduz', lang }).expect(400);
      expect(JSON.stringify(res.body)).toContain('lang');
      expect(res.body).not.toHaveProperty('stack');
    }
  });
});
