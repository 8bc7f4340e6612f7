import { Test, TestingModule } from '@nestjs/testing';
import { DatabaseModule } from '../../src/database/database.module';
import { ImageryModule } from '../../src/imagery/imagery.module';
import { ImageryPlaceLinker } from '../../src/imagery/address-recovery/imagery-place-linker.service';
import { GAZETTEER_SOURCE } from '../../src/places/gazetteer/gazetteer-place';
import { buildWorldGazetteer } from '../../src/places/gazetteer/world-gazetteer';
import { PlaceRepository } from '../../src/places/place.repository';
import { PlacesModule } from '../../src/places/places.module';
import { SearchResponseDto } from '../../src/search/dto/search-response.dto';
import { resetPlaces } from '../helpers/places';
import { startSearchService } from '../helpers/search-service';
import { feature, importFixture, resetImagery, testConfig } from '../helpers/test-app';

// A region's name that is also a town's, on the real world gazetteer: the region, unless the town is
// as important as a region (a city of about a million). Virginia and Wyoming are US states and towns
// of 12,000 to 76,000 people (Virginia, Minnesota; Wyoming, Michigan); São Paulo is a state and a city
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
    const loader = await Test.createTestingModule({
      imports: [DatabaseModule.forRoot(testConfig()), ImageryModule, PlacesModule],
    }).compile();
    await loader.init();
    try {
      const session = await loader.get(PlaceRepository).openImportSession({ source: GAZETTEER_SOURCE, dryRun: false });
      try {
        await session.writeBatch(places);
      } finally {
        await session.close();
      }
      const features = named.map((p) => feature(`${p.name} ${p.kind} record, ${p.label}`, {}, [p.lon, p.lat]));
      named.forEach((p, i) => recordOf.set(p.label, features[i].id));
      expect((await importFixture(features)).rejected).toBe(0);
      await loader.get(ImageryPlaceLinker).relinkAfterPlaceImport();
    } finally {
      await loader.close();
    }
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
