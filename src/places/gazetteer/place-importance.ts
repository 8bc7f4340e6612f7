// How much a gazetteer place matters when names collide (places.importance, 0..1). The one place
// these numbers live; docs/places.md "Built-in world gazetteer" explains them.

/** Countries outrank everything of the same name ("Georgia" the country before the US state). */
export const COUNTRY_IMPORTANCE = 1;
/** First-level regions: above towns, below cities of over ~1 million (10^6 people give 0.8). */
export const REGION_IMPORTANCE = 0.8;
/** A ZIP code matters less than the town it lies in (a town of 1,000 people gets 0.4). */
export const POSTCODE_IMPORTANCE = 0.2;

/**
 * Localities by population: min(1, log10(population + 1) / 7.5). Logarithmic, so a city ten times
 * larger gains 0.13: London GB (8.9 M) 0.93, London CA (0.35 M) 0.74, a town of 15,000 0.56; places
 * of 10^7.5 (31.6 M) or more get 1.
 */
export function importanceFromPopulation(population: number): number {
  return Math.min(1, Math.log10(Math.max(0, population) + 1) / 7.5);
}

/** Places of other kinds without a population (imported files: OSM, OpenAddresses, GeoJSON). */
export const LOCALITY_IMPORTANCE = 0.3;
export const STREET_IMPORTANCE = 0.1;
export const POI_IMPORTANCE = 0.05;
export const ADDRESS_IMPORTANCE = 0.02;

/** OpenStreetMap localities without a population tag, by their place=* type. */
export const OSM_PLACE_TYPE_IMPORTANCE: Readonly<Record<string, number>> = {
  city: 0.6,
  town: 0.45,
  borough: 0.35,
  village: 0.3,
  suburb: 0.3,
  quarter: 0.2,
  hamlet: 0.15,
  neighbourhood: 0.12,
  isolated_dwelling: 0.08,
};
