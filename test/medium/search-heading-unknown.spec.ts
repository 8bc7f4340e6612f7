import { TestingModule } from '@nestjs/testing';
import { SearchResponseDto } from '../../src/search/dto/search-response.dto';
import { photoDetails } from '../helpers/photo-details';
import { ADDRESS, LOCALITIES } from '../helpers/place-search-gazetteer';
import { destination } from '../relevance/relevance-catalogue';
import { insertPlaces, linkRecord, resetPlaces, testPlaceId } from '../helpers/places';
import { startSearchService } from '../helpers/search-service';
import { feature, importFixture, prismaClient, resetImagery } from '../helpers/test-app';

// A record without a heading (a photo that gave no direction: photo.headingOrigin 'none') faces
// nothing: no named address counts it as a view, no heading filter and no looking_at from a distance
// matches it; its compass is the contract's placeholder and its heading null.

const NEIGHBOUR = 'Herrengasse 37, 9490 Vaduz';
const south = (metres: number) => destination(ADDRESS, 180, metres);
// South of the address: a heading of 0 would face it.
const RECORDS = {
  facing: { where: south(10), heading: 0, date: '2018-05-01', own: true },
  away: { where: south(10), heading: 180, date: '2024-05-01', own: true },
  headingless: { where: south(10), heading: null, date: '2026-05-01', own: true },
  neighbourFacing: { where: south(30), heading: 0, date: '2020-05-01', own: false },
  neighbourHeadingless: { where: south(30), heading: null, date: '2020-05-01', own: false },
};
type Key = keyof typeof RECORDS;

// What the photo import makes of a photo with no direction at all.
const directionless = (date: string) =>
  photoDetails({ capturedTime: `${date}T10:00:00+02:00`, headingOrigin: 'none', headingReference: null });

describe('a record without a heading faces nothing', () => {
  let moduleRef: TestingModule;
  let search: (body: object) => Promise<SearchResponseDto>;
  const prisma = prismaClient();
  const idOf = new Map<Key, string>();
  const keyOf = (id: string) => [...idOf].find(([, v]) => v === id)?.[0] ?? id;
  const keys = async (body: object) => (await search({ limit: 10, ...body })).data.map((d) => keyOf(d.id));

  beforeAll(async () => {
    await resetImagery();
    await resetPlaces();
    await insertPlaces([...LOCALITIES, ADDRESS]);
    const features = Object.entries(RECORDS).map(([key, r]) => {
      const f = feature(
        r.own ? ADDRESS.label : NEIGHBOUR,
        { heading: r.heading, captured_at: r.date, ...(r.heading === null ? { photo: directionless(r.date) } : {}) },
        [r.where.lon, r.where.lat],
      );
      idOf.set(key as Key, f.id);
      return f;
    });
    expect((await importFixture(features)).rejected).toBe(0);
    for (const [key, r] of Object.entries(RECORDS)) {
      const link = r.own ? { locality: 'vaduz', place: ADDRESS.key, origin: 'address' } : { locality: 'vaduz' };
      await linkRecord(idOf.get(key as Key)!, link);
    }
    ({ moduleRef, search } = await startSearchService());
  });

  afterAll(async () => {
    await moduleRef?.close();
    await prisma.$executeRaw`DELETE FROM photos WHERE id = ANY(${[...idOf.values()]}::uuid[])`;
    await prisma.$disconnect();
    await resetImagery();
    await resetPlaces();
  });

  it('is stored with heading NULL', async () => {
    const rows = await prisma.$queryRaw<Array<{ id: string }>>`SELECT id::text FROM imagery WHERE heading IS NULL`;
    expect(rows.map((r) => keyOf(r.id)).sort()).toEqual(['headingless', 'neighbourHeadingless']);
  });

  it('does not show a named address: ranked with the records that do not, and never a view of a neighbour', async () => {
    const got = await keys({ query: 'Herrengasse 35 Vaduz' });
    // Own records that show it first, then the rest of its own (nearest, then newest), then neighbours facing it.
    expect(got).toEqual(['facing', 'headingless', 'away', 'neighbourFacing']);
  });

  it('comes back with the compass placeholder, heading null, and no bearing offset to its address', async () => {
    const got = await search({ query: 'Herrengasse 35 Vaduz', include: ['heading', 'place', 'camera'] });
    const record = got.data.find((d) => d.id === idOf.get('headingless'))!;
    expect(record).toMatchObject({ compass: 'Facing North (N)', heading: null, camera: { heading_origin: 'none' } });
    expect(record.compass).toMatch(/^Facing [A-Za-z]+ \([A-Z]{1,2}\)$/);
    expect(record.place).toMatchObject({ id: testPlaceId(ADDRESS.key), kind: 'address' });
    expect(record.place).not.toHaveProperty('bearing_offset_deg');
    const facing = got.data.find((d) => d.id === idOf.get('facing'))!;
    expect(facing).toMatchObject({ compass: 'Facing North (N)', heading: 0 });
    expect(facing.place!.bearing_offset_deg).toBeLessThan(1);
  });

  it('matches no heading range and no facing sector, wrapping through north or not', async () => {
    const near = { ...south(10), radius_m: 1 };
    expect((await keys({ near })).sort()).toEqual(['away', 'facing', 'headingless']);
    expect(await keys({ near, heading: { min: 350, max: 10 } })).toEqual(['facing']);
    expect(await keys({ near, heading: { min: 0, max: 0 } })).toEqual(['facing']);
    expect((await keys({ near, heading: { min: 0, max: 360 } })).sort()).toEqual(['away', 'facing']);
    expect((await keys({ near, heading: { min: 90, max: 45 } })).sort()).toEqual(['away', 'facing']);
    expect(await keys({ near, facing: 'N' })).toEqual(['facing']);
  });

  it('looks at nothing from a distance, and counts as looking at the point it stands on', async () => {
    const target = { lat: ADDRESS.lat, lon: ADDRESS.lon };
    expect((await keys({ looking_at: { ...target, fov_deg: 90, radius_m: 40 } })).sort()).toEqual([
      'facing',
      'neighbourFacing',
    ]);
    const own = { ...south(10), radius_m: 1 };
    expect((await keys({ looking_at: own })).sort()).toEqual(['away', 'facing', 'headingless']);
  });
});
