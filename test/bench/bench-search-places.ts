// The bench's places: the built-in world gazetteer (countries, regions, cities and towns, US ZIP
// codes), loaded as `npx prisma db seed` loads it, and the dataset's own streets and addresses, written
// as GeoJSON (one Feature per line) for `npm run import:places`. Loaded before the imagery, so the
// imagery importer links every record to its locality, region and country as it stores it.
import { loadConfig } from '../../src/config/app-config';
import { PrismaService } from '../../src/database/prisma.service';
import { GazetteerSeedService } from '../../src/places/gazetteer/gazetteer-seed.service';
import { PlaceRepository } from '../../src/places/place.repository';
import { BenchDataset, BenchStreet, benchStreets } from './bench-dataset';

export const BENCH_PLACE_SOURCE = 'bench';

function placeFeature(id: string, lon: number, lat: number, properties: Record<string, string | null>): object {
  const props = Object.fromEntries(Object.entries(properties).filter(([, v]) => v !== null));
  return { type: 'Feature', id, geometry: { type: 'Point', coordinates: [lon, lat] }, properties: props };
}

// A street place (at its middle house) and one address place per house, for every street of the
// dataset: the address places are what `address_view` queries name.
export function* streetPlaces(seed: number, street: BenchStreet): Generator<object> {
  const p = street.place;
  const common = {
    street: street.name,
    locality: p.city,
    postcode: p.postcode,
    region_code: p.regionCode,
    country_code: p.countryCode,
  };
  const middle = street.houses[Math.floor(street.houses.length / 2)];
  yield placeFeature(`${seed}:${street.index}`, middle.lon, middle.lat, {
    kind: 'street',
    name: street.name,
    ...common,
  });
  for (const h of street.houses) {
    yield placeFeature(`${seed}:${street.index}:${h.number}`, h.lon, h.lat, {
      kind: 'address',
      housenumber: String(h.number),
      ...common,
    });
  }
}

export function* benchPlaceFeatures(
  seed: number,
  records: number,
  dataset: BenchDataset = 'sparse',
): Generator<object> {
  for (const street of benchStreets(seed, records, dataset)) yield* streetPlaces(seed, street);
}

// The world gazetteer through the seed's own service (idempotent: a second load writes nothing).
export async function seedWorldGazetteer(url: string): Promise<{ places: number; seconds: number }> {
  const config = loadConfig({ DATABASE_URL: url, DB_POOL_SIZE: '1' });
  const prisma = new PrismaService(config);
  try {
    const s = await new GazetteerSeedService(new PlaceRepository(prisma)).seed();
    return { places: s.inserted + s.updated + s.unchanged, seconds: s.seconds };
  } finally {
    await prisma.onModuleDestroy();
  }
}
