import request from 'supertest';
import { NestExpressApplication } from '@nestjs/platform-express';
import { createKey, feature, importFixture, resetImagery, startApp } from '../helpers/test-app';

// A query is split into words in TypeScript (tokenize) and an address in the database (lis_search_text):
// punctuation inside a word splits it on both sides ("35/1" is 35 and 1, "D.C." d and c, "12-14" 12 and
// 14), so an address is found by its own text, as words, first. A twin spelt with spaces where the
// record has punctuation holds the same words: the exact text ranks the record above it. Before, the
// index held 35/1, d.c, biel/bienne and -14 as single words: a query of the record's text found the twin,
// or the record only as an approximate answer.
const CASES: Array<{ address: string; twin?: string; queries: string[] }> = [
  {
    address: 'Herrengasse 35/1, 9490 Vaduz',
    twin: 'Herrengasse 35 1, 9490 Vaduz',
    queries: ['Herrengasse 35/1, 9490 Vaduz'],
  },
  { address: 'Äulestrasse 20/3, 9490 Vaduz', queries: ['Äulestrasse 20/3', 'aulestrasse 20/3, vaduz'] },
  {
    address: '1600 Pennsylvania Avenue NW, Washington, D.C. 20500',
    twin: '1600 Pennsylvania Avenue NW, Washington, D C 20500',
    queries: ['1600 Pennsylvania Avenue NW, Washington, D.C. 20500'],
  },
  {
    address: 'Jefferson Drive SW 1000, Washington, D.C. 20560',
    queries: ['Jefferson Drive SW 1000, Washington, D.C.', 'jefferson drive washington d.c.'],
  },
  { address: 'Bahnhofplatz 4, 2502 Biel/Bienne', queries: ['Bahnhofplatz 4, 2502 Biel/Bienne', 'bienne bahnhofplatz'] },
  { address: 'Fürst-Franz-Josef-Strasse 12-14, 9490 Vaduz', queries: ['Fürst-Franz-Josef-Strasse 12-14'] },
];

describe('POST /search splits a query into words as the database splits an address', () => {
  let app: NestExpressApplication;
  let key: string;

  beforeAll(async () => {
    await resetImagery();
    const records = CASES.flatMap((c) => (c.twin ? [c.address, c.twin] : [c.address]));
    await importFixture(records.map((address, i) => feature(address, {}, [9.5 + i / 100, 47.1])));
    app = await startApp({ rateLimitPerMinute: 100_000 });
    key = await createKey(app);
  });
  afterAll(() => app.close());

  const queries = CASES.flatMap(({ address, queries }) => queries.map((q) => [q, address] as const));
  it.each(queries)('"%s" finds "%s" first, by its words', async (query, address) => {
    const res = await request(app.getHttpServer())
      .post('/search')
      .set('x-api-key', key)
      .send({ query, include: ['interpretation'] })
      .expect(200);
    expect({ first: res.body.data[0]?.address, approximate: res.body.interpretation?.approximate }).toEqual({
      first: address,
      approximate: false,
    });
  });
});
