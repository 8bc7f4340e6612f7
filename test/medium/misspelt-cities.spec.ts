import { TestingModule } from '@nestjs/testing';
import { buildWorldGazetteer } from '../../src/places/gazetteer/world-gazetteer';
import { tokenize } from '../../src/search/query/tokenize';
import { SearchResponseDto } from '../../src/search/dto/search-response.dto';
import { demoFeatures } from '../../src/seed/demo-dataset';
import { resetPlaces } from '../helpers/places';
import { startSearchService } from '../helpers/search-service';
import { loadGazetteerRecords } from '../helpers/gazetteer-records';
import { resetImagery } from '../helpers/test-app';

// Famous cities misspelt as people type them, on the real data: the world gazetteer's places and the
// demo seed's records whose names hold the cities' words. A misspelling names its city through the
// gazetteer's other names ("Londn", "Sydny", "Dalas", "San Fransisco" are GeoNames alternate names)
// or through the vocabulary's nearest word ("Lonodn", "Chicgao", "Bostn"); either way the answer is
// the right spelling's, every record `corrected` with the word it was taken for.
// With the towns whose names are as near to a misspelling as the city's (Bostic, NC to "Bostn").
const CITY_WORDS = ['london', 'sydney', 'dallas', 'francisco', 'chicago', 'boston', 'bostic', 'chicacao'];
const THROUGH_OTHER_NAMES: Array<[string, string, Array<{ from: string; to: string }>]> = [
  ['Londn', 'London', [{ from: 'londn', to: 'london' }]],
  ['Sydny', 'Sydney', [{ from: 'sydny', to: 'sydney' }]],
  ['Dalas', 'Dallas', [{ from: 'dalas', to: 'dallas' }]],
  ['San Fransisco', 'San Francisco', [{ from: 'fransisco', to: 'francisco' }]],
];
const THROUGH_VOCABULARY: Array<[string, string, Array<{ from: string; to: string }>]> = [
  ['Lonodn', 'London', [{ from: 'lonodn', to: 'london' }]],
  ['Chicgao', 'Chicago', [{ from: 'chicgao', to: 'chicago' }]],
  ['Chicao', 'Chicago', [{ from: 'chicao', to: 'chicago' }]],
  ['Bostn', 'Boston', [{ from: 'bostn', to: 'boston' }]],
];

const holdsCityWord = (text: string) => tokenize(text).some((w) => CITY_WORDS.includes(w));

async function loadRealData(): Promise<void> {
  await resetImagery();
  await resetPlaces();
  const features: object[] = [];
  for await (const item of demoFeatures()) {
    const feature = item.feature as { properties: { address: string } };
    if (holdsCityWord(feature.properties.address)) features.push(feature);
  }
  const places = buildWorldGazetteer().filter((p) => p.kind !== 'locality' || holdsCityWord(p.label));
  await loadGazetteerRecords(places, features, 'demo-seed');
}

describe('misspelt famous cities on the real gazetteer and demo records', () => {
  let moduleRef: TestingModule;
  let search: (body: object) => Promise<SearchResponseDto>;
  const ask = async (query: string) => (await search({ query, limit: 100, include: ['match'] })).data;

  beforeAll(async () => {
    await loadRealData();
    ({ moduleRef, search } = await startSearchService());
  }, 180_000);

  afterAll(async () => {
    await moduleRef.close();
    await resetImagery();
    await resetPlaces();
  });

  it.each(THROUGH_OTHER_NAMES)(
    '%s (another name of the city) answers what %s answers, every record corrected',
    async (typo, right, corrections) => {
      const [typed, spelt] = [await ask(typo), await ask(right)];
      expect(spelt.length).toBeGreaterThan(1);
      expect(typed.map((d) => d.id)).toEqual(spelt.map((d) => d.id));
      for (const d of typed) expect(d.match).toEqual({ kind: 'corrected', corrections });
    },
  );

  it.each(THROUGH_VOCABULARY)(
    "%s answers the records %s answers first, the city's first, every record corrected",
    async (typo, right, corrections) => {
      const [typed, spelt] = [await ask(typo), await ask(right)];
      expect(spelt.length).toBeGreaterThan(1);
      expect(typed[0].id).toBe(spelt[0].id);
      // Chicago has more than a page: the right spelling's first records are on the typo's page.
      expect(typed.map((d) => d.id)).toEqual(expect.arrayContaining(spelt.slice(0, 20).map((d) => d.id)));
      for (const d of typed) expect(d.match).toEqual({ kind: 'corrected', corrections });
    },
  );
});
