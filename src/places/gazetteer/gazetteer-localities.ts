import { PlaceRecord } from '../place-record';
import { RegionEntry, countryName, regionByAdmin1 } from '../regions';
import { countryNames, gazetteerPlace, regionNames } from './gazetteer-place';
import { GeoNamesCity, geoNamesAlternateNames } from './gazetteer-sources';
import { isLatin, joinAltNames, spellingVariants } from './name-variants';
import { importanceFromPopulation } from './place-importance';

// GeoNames lists up to hundreds of other names for a big city: its names in other languages
// ("München", "Monaco di Baviera"). For small places they are mostly former names and neighbouring
// hamlets ("Limerick" for London, Ohio) that would find the wrong town, so only cities of at least
// ALTERNATE_NAMES_MIN_POPULATION get them, and only plausible ones (Latin script, a few words, not an
// all-capitals code such as the airport "MUC"), at most MAX_ALTERNATE_NAMES.
const ALTERNATE_NAMES_MIN_POPULATION = 100_000;
const MAX_ALTERNATE_NAMES = 40;

export interface Locality {
  city: GeoNamesCity;
  region: RegionEntry | undefined;
  country: string;
  label: string;
}

const baseLabel = (name: string, region: RegionEntry | undefined, country: string) =>
  region ? `${name}, ${region.name}, ${country}` : `${name}, ${country}`;

/**
 * Cities and towns of at least `minPopulation` people, largest first, each with its label "Name,
 * Region, Country". Labels are unique across the gazetteer (`taken` holds the labels of its
 * countries and regions): of places that would share one, the most populous keeps it and the
 * others are told apart by the nearest larger place, "Springfield (near Dayton), Ohio, United States".
 */
export function labelLocalities(cities: GeoNamesCity[], minPopulation: number, taken: ReadonlySet<string>): Locality[] {
  const localities: Locality[] = cities
    .filter((c) => c.population >= minPopulation)
    .sort((a, b) => b.population - a.population || a.cityId - b.cityId)
    .map((city) => {
      const region = regionByAdmin1(city.country, city.adminCode);
      const country = countryName(city.country);
      return { city, region, country, label: baseLabel(city.name, region, country) };
    });
  disambiguate(localities, taken);
  return localities;
}

/** The places of labelled localities, with their other names. */
export function buildLocalities(localities: Locality[]): PlaceRecord[] {
  const alternates = geoNamesAlternateNames(
    new Set(localities.filter((l) => l.city.population >= ALTERNATE_NAMES_MIN_POPULATION).map((l) => l.city.cityId)),
  );
  return localities.map(({ city, region, label }) => {
    const [lon, lat] = city.loc.coordinates;
    const others = plausibleAlternates(city.name, alternates.get(city.cityId) ?? []);
    return gazetteerPlace(`geonames:${city.cityId}`, {
      kind: 'locality',
      name: city.name,
      locality: city.name,
      region: region?.name ?? null,
      regionCode: region?.code ?? null,
      countryCode: city.country,
      label,
      altNames: joinAltNames(label, [
        ...spellingVariants(city.name),
        ...others,
        ...others.flatMap(spellingVariants),
        ...(region ? regionNames(region) : []),
        ...countryNames(city.country),
      ]),
      lon,
      lat,
      importance: importanceFromPopulation(city.population),
      population: city.population,
    });
  });
}

function plausibleAlternates(name: string, alternates: string[]): string[] {
  const out: string[] = [];
  for (const a of alternates) {
    if (out.length >= MAX_ALTERNATE_NAMES) break;
    if (a.length >= 3 && a !== name && a !== a.toUpperCase() && a.split(' ').length <= 3 && isLatin(a)) out.push(a);
  }
  return out;
}

// `localities` is sorted by population, largest first, so the first of each label keeps it.
function disambiguate(localities: Locality[], taken: ReadonlySet<string>): void {
  const used = new Set(taken);
  const pending: Locality[] = [];
  for (const l of localities) {
    if (used.has(l.label)) pending.push(l);
    else used.add(l.label);
  }
  const byCountry = new Map<string, Locality[]>();
  for (const l of localities) {
    const list = byCountry.get(l.city.country);
    if (list) list.push(l);
    else byCountry.set(l.city.country, [l]);
  }
  for (const l of pending) {
    const near = nearestLarger(l, byCountry.get(l.city.country) ?? []);
    const [lon, lat] = l.city.loc.coordinates;
    const candidates = [
      ...(near ? [`${l.city.name} (near ${near.city.name})`] : []),
      `${l.city.name} (${lat.toFixed(3)}, ${lon.toFixed(3)})`,
    ].map((name) => baseLabel(name, l.region, l.country));
    // Coordinates to the metre-ish tell any two places apart; the id is the last resort.
    const label =
      candidates.find((c) => !used.has(c)) ??
      baseLabel(`${l.city.name} (GeoNames ${l.city.cityId})`, l.region, l.country);
    l.label = label;
    used.add(label);
  }
}

// The closest place of another name that is at least as large (else any other name), in the same country.
function nearestLarger(l: Locality, sameCountry: Locality[]): Locality | undefined {
  const [lon, lat] = l.city.loc.coordinates;
  const cosLat = Math.cos((lat * Math.PI) / 180);
  let best: Locality | undefined;
  let bestScore = Infinity;
  for (const o of sameCountry) {
    if (o.city.name === l.city.name) continue;
    const [olon, olat] = o.city.loc.coordinates;
    const d = ((olon - lon) * cosLat) ** 2 + (olat - lat) ** 2;
    // Smaller places count only when no larger one exists: they rank after every larger one.
    const score = o.city.population >= l.city.population ? d : d + 1e6;
    if (score < bestScore) {
      bestScore = score;
      best = o;
    }
  }
  return best;
}
