import { TestingModule } from '@nestjs/testing';
import { buildWorldGazetteer } from '../../src/places/gazetteer/world-gazetteer';
import { SearchResponseDto } from '../../src/search/dto/search-response.dto';
import { resetPlaces } from '../helpers/places';
import { startSearchService } from '../helpers/search-service';
import { loadGazetteerRecords } from '../helpers/gazetteer-records';
import { feature, resetImagery } from '../helpers/test-app';

// A region's name that is also a town's, on the real world gazetteer: the region, unless the town is
// as important as a region (a city of about a million). Virginia and Wyoming are US states and towns
// of about 9,000 and 76,000 people (Virginia, Minnesota; Wyoming, Michigan); São Paulo is a state and a city
// of twelve million. One record at each place's point (a region's is its most populous town's).
const NAMES = ['Virginia', 'Wyoming', 'São Paulo'];

describe('a region named alone whose name a town shares', () => {
  let moduleRef: TestingModule;
  let search: (body: object) => Promise<SearchResponseDto>;
  const recordOf = new Map<string, string>(); // the place's label -> its record's id

  beforeAll(async () => {
    await resetImagery();
    await resetPlaces();
    // With the towns at the regions' points, which a record there is linked to (and so to their region).
    const gazetteer = buildWorldGazetteer();
    const named = gazetteer.filter((p) => NAMES.includes(p.name) && p.kind !== 'postcode');
    const at = new Set(named.map((p) => `${p.lon},${p.lat}`));
    const places = gazetteer.filter((p) => named.includes(p) || (p.kind === 'locality' && at.has(`${p.lon},${p.lat}`)));
    const features = named.map((p) => feature(`${p.name} ${p.kind} record, ${p.label}`, {}, [p.lon, p.lat]));
    named.forEach((p, i) => recordOf.set(p.label, features[i].id));
    await loadGazetteerRecords(places, features);
    ({ moduleRef, search } = await startSearchService());
  }, 120_000);

  afterAll(async () => {
    await moduleRef?.close();
    await resetImagery();
    await resetPlaces();
  });

  it.each([
    ['Virginia', 'Virginia, United States', 'Virginia, Minnesota, United States'],
    ['Wyoming', 'Wyoming, United States', 'Wyoming, Michigan, United States'],
  ])('%s is the state, not the town of its name', async (query, region, town) => {
    const found = await search({ query, limit: 10, include: ['interpretation'] });
    expect(found.interpretation?.step).toBe('named-region-alone');
    expect(found.data[0].id).toBe(recordOf.get(region));
    expect(found.data.map((d) => d.id)).not.toContain(recordOf.get(town));
  });

  it('São Paulo, a city as important as a region, is a place search', async () => {
    const found = await search({ query: 'São Paulo', limit: 10, include: ['interpretation'] });
    expect(found.interpretation?.step).not.toBe('named-region-alone');
    expect(found.interpretation?.place?.kind).toBe('locality');
  });
});
