import { NestExpressApplication } from '@nestjs/platform-express';
import { ContractProxy, startContractProxy } from '../helpers/contract';
import { BASE, GAZETTEER, insertPlaces, offset, resetPlaces } from '../helpers/places';
import { createKey, feature, importFixture, resetImagery, startApp } from '../helpers/test-app';

// include history: every date at a spot. A corner photographed looking east in 2015, 2017 and 2019
// (a few metres apart, as GPS puts the same spot), looking 25 degrees further round in 2014, by
// panoramas in 2016 and 2020; beside them what is not the same view: looking 35 degrees round, looking
// south-west, and looking east 25 m down the street.
const SPOT = offset(BASE, 300, 300);
const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
interface Spotted {
  id: string;
  date: string;
  heading: number;
  interactive?: boolean;
  at: [number, number];
}
const RECORDS: Spotted[] = [
  { id: id(2019), date: '2019-06-05', heading: 90, at: offset(SPOT, 0, 0) },
  { id: id(2017), date: '2017-03-01', heading: 95, at: offset(SPOT, 3, 1) },
  { id: id(2015), date: '2015-09-10', heading: 85, at: offset(SPOT, -2, -3) },
  { id: id(2014), date: '2014-05-01', heading: 115, at: offset(SPOT, 1, 2) },
  { id: id(2016), date: '2016-07-04', heading: 10, interactive: true, at: offset(SPOT, 2, 0) },
  { id: id(2020), date: '2020-01-20', heading: 200, interactive: true, at: offset(SPOT, -1, 4) },
  { id: id(2013), date: '2013-05-01', heading: 125, at: offset(SPOT, 0, 1) },
  { id: id(2018), date: '2018-05-01', heading: 225, at: offset(SPOT, 1, 1) },
  { id: id(2012), date: '2012-05-01', heading: 90, at: offset(SPOT, 25, 0) },
];
// A spot of flat images only, 100 m on: two looking east (10 degrees apart), two looking south-south-west.
const SPOT2 = offset(SPOT, 0, 100);
const FLATS: Spotted[] = [
  { id: id(2010), date: '2010-05-01', heading: 90, at: offset(SPOT2, 0, 0) },
  { id: id(2011), date: '2011-05-01', heading: 100, at: offset(SPOT2, 2, 0) },
  { id: id(2009), date: '2009-05-01', heading: 200, at: offset(SPOT2, 0, 2) },
  { id: id(2008), date: '2008-05-01', heading: 180, at: offset(SPOT2, 1, 1) },
];

describe('include: history', () => {
  let app: NestExpressApplication;
  let contract: ContractProxy;
  let key: string;

  beforeAll(async () => {
    await resetImagery();
    await resetPlaces();
    await insertPlaces(GAZETTEER);
    await importFixture(
      [...RECORDS, ...FLATS].map((r) =>
        feature(
          `Corner ${r.date}`,
          { id: r.id, captured_at: r.date, heading: r.heading, interactive: r.interactive ?? false },
          r.at,
        ),
      ),
    );
    app = await startApp();
    key = await createKey(app);
    contract = await startContractProxy(app);
  });
  afterEach(() => expect(contract.takeViolations()).toEqual([]));
  afterAll(async () => {
    await contract?.close();
  });

  const historyOf = async (recordId: string) => {
    const res = await contract.http.get(`/images/${recordId}?include=history`).set('x-api-key', key).expect(200);
    return res.body.history as Array<{ id: string; date: string; image: string }>;
  };

  it("gives a flat image the flat images looking its way at its spot and the spot's panoramas, newest first", async () => {
    const history = await historyOf(id(2019));
    expect(history.map((h) => h.id)).toEqual([id(2020), id(2017), id(2016), id(2015), id(2014)]);
    expect(history[1]).toEqual({ id: id(2017), date: 'March 1, 2017', image: expect.stringMatching(/^https:\/\//) });
  });

  it("gives a panorama the spot's other panoramas only", async () => {
    expect((await historyOf(id(2016))).map((h) => h.id)).toEqual([id(2020)]);
  });

  it('gives an image with no other date at its spot an empty history', async () => {
    expect(await historyOf(id(2012))).toEqual([]);
  });

  it('attaches it to every record of a search page, and nothing unless asked for', async () => {
    const body = { near: { lat: SPOT[1], lon: SPOT[0], radius_m: 50 }, limit: 20 };
    const res = await contract.http
      .post('/search')
      .set('x-api-key', key)
      .send({ ...body, include: ['history'] })
      .expect(200);
    expect(res.body.data).toHaveLength(RECORDS.length);
    for (const record of res.body.data) expect(record.history).toEqual(await historyOf(record.id));
    const byId = new Map(res.body.data.map((r: any) => [r.id, r.history.map((h: any) => h.id)]));
    expect(byId.get(id(2018))).toEqual([id(2020), id(2016)]);
    const plain = await contract.http.post('/search').set('x-api-key', key).send(body).expect(200);
    for (const record of plain.body.data) expect(record).not.toHaveProperty('history');
  });

  it('newest_per_spot keeps the newest record of each spot and direction, and counts only those', async () => {
    const newest = async (point: [number, number]) => {
      const res = await contract.http
        .post('/search')
        .set('x-api-key', key)
        .send({ near: { lat: point[1], lon: point[0], radius_m: 50 }, newest_per_spot: true, include: ['total'] })
        .expect(200);
      return { ids: res.body.data.map((r: any) => r.id).sort(), total: res.body.total };
    };
    // The 2020 panorama looks every way: it is newer than everything else at the first spot.
    expect(await newest(SPOT)).toEqual({ ids: [id(2012), id(2020)], total: 2 });
    expect(await newest(SPOT2)).toEqual({ ids: [id(2009), id(2011)], total: 2 });
    const text = await contract.http
      .post('/search')
      .set('x-api-key', key)
      .send({ query: 'Corner', newest_per_spot: true, limit: 50 })
      .expect(200);
    expect(text.body.data.map((r: any) => r.id).sort()).toEqual([id(2009), id(2011), id(2012), id(2020)]);
  });

  it('refuses newest_per_spot that is not a boolean, naming it', async () => {
    const res = await contract.http
      .post('/search')
      .set('x-api-key', key)
      .send({ query: 'Corner', newest_per_spot: 'yes' })
      .expect(400);
    expect(JSON.stringify(res.body.error)).toContain('newest_per_spot');
  });
});
