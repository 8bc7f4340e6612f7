import request from 'supertest';
import { NestExpressApplication } from '@nestjs/platform-express';
import { createKey, feature, importFixture, resetImagery, startApp } from '../helpers/test-app';

// A query is folded in TypeScript (foldText) and an address in the database (lis_normalize); a query
// typed as the address is stored, or in other case or without its accents, must find that address
// first. Each record has a twin spelt as TypeScript once folded the record's words ("й" to "и", Hangul
// split into jamo (as stored in decomposed form), the vowel signs of Devanagari dropped, a capital
// sigma made final): the query found the twin instead, as an exact match, and never the record.
const CASES: Array<{ address: string; twin: string; queries: string[] }> = [
  {
    address: 'Piotrkowska 12, 90-001 Łódź',
    twin: 'Piotrkowska 12, 90-001 Lodx',
    queries: ['ŁÓDŹ Piotrkowska', 'lodz'],
  },
  {
    address: 'Ørstedsvej 4, 8600 Silkeborg',
    twin: 'Orstedvej 4, 8600 Silkeborg',
    queries: ['Ørstedsvej', 'ORSTEDSVEJ'],
  },
  {
    address: 'Hauptstraße 7, 10827 Berlin',
    twin: 'Hauptstrase 7, 10827 Berlin',
    queries: ['HAUPTSTRASSE 7', 'hauptstraße'],
  },
  {
    address: 'Нижний переулок 5, Новгород',
    twin: 'Нижнии переулок 5, Новгород',
    queries: ['Нижний переулок', 'НИЖНИЙ'],
  },
  { address: 'Їжакова вулиця 3, Київ', twin: 'Іжакова вулиця 3, Киів', queries: ['Їжакова вулиця', 'київ'] },
  {
    address: '서울특별시 종로구 세종대로 1',
    twin: '서울특별시 종로구 세종대로 1'.normalize('NFD'),
    queries: ['서울특별시 세종대로', '종로구'],
  },
  { address: 'हिन्दी मार्ग 9, दिल्ली', twin: 'हनद मरग 9, दलल', queries: ['हिन्दी मार्ग', 'दिल्ली'] },
  { address: 'ΟΔΟΣ ΑΙΟΛΟΥ 3, ΑΘΗΝΑ', twin: 'Οδος Αιολου 3, Αθηνα', queries: ['ΟΔΟΣ ΑΙΟΛΟΥ', 'ΟΔΟΣ'] },
];

describe('POST /search folds a query as the database folds an address', () => {
  let app: NestExpressApplication;
  let key: string;

  beforeAll(async () => {
    await resetImagery();
    const records = CASES.flatMap((c) => [c.address, c.twin]);
    await importFixture(records.map((address, i) => feature(address, {}, [10 + i / 10, 50])));
    app = await startApp({ rateLimitPerMinute: 100_000 });
    key = await createKey(app);
  });
  afterAll(() => app.close());

  const queries = CASES.flatMap(({ address, queries }) => queries.map((q) => [q, address] as const));
  it.each(queries)('"%s" finds "%s" first', async (query, address) => {
    const res = await request(app.getHttpServer()).post('/search').set('x-api-key', key).send({ query }).expect(200);
    expect(res.body.data[0]?.address).toBe(address);
  });
});
