import { countryName, regionEntry } from '../../src/places/regions';
import type { PlaceRecord } from '../../src/places/place-record';
import countries from 'i18n-iso-countries';
import type { RelevanceQuery } from './relevance-fixture';
import { misspelt } from './world-fixture';

// The qualified category: the world category's names with the country or state they are in, as
// people write them ("London, Canada", "Springfield, IL", "Cambridge GBR"), misspelt by one swap
// ("Londno, Canada"), and with a country that has no place of that name ("Springfield, Kenya"),
// which must find nothing: a country named in the query binds the answer to it.
const WRONG_COUNTRIES = ['KE', 'PL', 'JP', 'NO', 'PE'];
const PER_NAME = 3;

export function qualifiedQueries(names: PlaceRecord[][], recordOf: ReadonlyMap<string, string>): RelevanceQuery[] {
  const queries: RelevanceQuery[] = [];
  const add = (query: string, place: PlaceRecord | null, from: string) =>
    queries.push({ category: 'qualified', query, expected: place && recordOf.get(place.id)!, from });
  for (const list of names) {
    const inCountry = (code: string) => list.filter((p) => p.countryCode === code);
    for (const place of list.slice(0, PER_NAME)) {
      const country = place.countryCode;
      if (!country || inCountry(country).length !== 1) continue;
      const from = `${place.label} (the only ${place.name} of its country)`;
      add(`${place.name}, ${countryName(country)}`, place, from);
      add(`${place.name} ${countries.alpha2ToAlpha3(country)}`, place, from);
      const typo = misspelt(place.name);
      if (typo) add(`${typo}, ${countryName(country)}`, place, `${from}, misspelt`);
      const region = place.regionCode ? regionEntry(place.regionCode) : undefined;
      const sameRegion = list.filter((p) => p.regionCode === place.regionCode);
      if (country === 'US' && region && sameRegion.length === 1) add(`${place.name}, ${region.shortCode}`, place, from);
    }
    const wrong = WRONG_COUNTRIES.find((code) => inCountry(code).length === 0)!;
    add(`${list[0].name}, ${countryName(wrong)}`, null, `no ${list[0].name} in ${countryName(wrong)}`);
  }
  return queries;
}
