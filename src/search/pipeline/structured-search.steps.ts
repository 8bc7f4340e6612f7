import { METRES_PER_DEGREE } from '../../common/earth';
import { RankedPlace, streetPinsOf } from '../place-matching/place-ranking';
import { tokenize } from '../query/tokenize';
import { buildTextQuery, TextQuery } from '../query/text-query';
import { answerWith, fallbackRegion, streetOrItsAddresses } from './fallback-by-parts.step';
import { namedRegionAlone, queryIsRegion } from './named-region-alone.step';
import { boundRegion } from '../query/named-region';
import { placesNamed } from './place-name';
import { placeNamesQuery } from './query-believability';
import { always } from './text-search.predicates';
import { SearchSteps, TEXT_SEARCH_STEPS, TextSearchStep } from './text-search.steps';
import { EMPTY_PAGE, StepAnswer, StepLearnt, TextSearchState } from './text-search-state';

// The steps of a structured query (`address`, query/structured-address.ts): the text search's own,
// with the region bound from the address instead of read from the end of the text, the city matched
// only as a locality and the postcode only as a postcode, and the fallback by parts read from the
// parts themselves (number -> street -> postcode -> locality -> region or country).

// A street of another town's label (a village inside a municipality is labelled with the
// municipality: Malbun in Triesenberg) is the town's when it lies this near the town's place (the
// radius Nominatim gives a village's place node: half of reverse_place_diameter, 0.02 degrees).
const STREET_NEAR_TOWN_M = 2_000;

const part = (s: TextSearchState, ...names: Array<'street' | 'city' | 'postcode' | 'housenumber'>) =>
  names.some((n) => s.structured!.parts[n] !== undefined);

const query = (text: string | undefined): TextQuery | null => (text === undefined ? null : buildTextQuery(text));

// The places of that kind the words name exactly, in the region searched (none when no words).
async function namedAs(
  words: TextQuery | null,
  kind: string,
  s: TextSearchState,
  deps: SearchSteps,
): Promise<RankedPlace[]> {
  if (!words) return [];
  const places = await placesNamed(words, s.region, s, deps);
  return places.filter((p) => p.kind === kind && placeNamesQuery(words, p));
}

const towns = (s: TextSearchState, deps: SearchSteps) => namedAs(query(s.structured!.parts.city), 'locality', s, deps);
const postcodes = (s: TextSearchState, deps: SearchSteps) =>
  namedAs(query(s.structured!.parts.postcode), 'postcode', s, deps);

// The region (or country) the address gives binds every step, as a region named at the end of a text
// query does; one outside the request's region is a conflict (region-conflict: nothing found).
async function structuredRegion(s: TextSearchState): Promise<StepLearnt> {
  const named = s.structured!.region!;
  const region = boundRegion(s.plan.filters.region, named);
  if (region === null) return { learnt: { namedRegion: named, regionConflict: true } };
  return { learnt: { namedRegion: named, region, plan: { ...s.plan, filters: { ...s.plan.filters, region } } } };
}

/** Only the town's parts are given (city, postcode): the places named are of their levels only. */
const onlyTown = (s: TextSearchState): boolean => part(s, 'city', 'postcode') && !part(s, 'street', 'housenumber');

// A city is a locality, a postcode a postcode: a street or shop named like the town is not it.
async function townPlaces(s: TextSearchState, deps: SearchSteps): Promise<StepLearnt> {
  const [city, postcode] = [await towns(s, deps), await postcodes(s, deps)];
  return { learnt: { places: [...city, ...postcode].sort((a, b) => b.rank - a.rank) } };
}

/** Only a region or country is given: the region itself (named-region-alone). */
async function onlyRegion(s: TextSearchState, deps: SearchSteps): Promise<boolean> {
  return !part(s, 'street', 'city', 'postcode', 'housenumber') && (await queryIsRegion(s, deps));
}

async function nothingThere(): Promise<StepAnswer> {
  return { page: EMPTY_PAGE, match: 'fallback', places: [], corrections: [] };
}

const wordsOf = (s: TextSearchState, ...names: Array<'street' | 'housenumber'>) =>
  names.flatMap((n) => query(s.structured!.parts[n])?.words ?? []);

// The street without its house number: the streets of that name whose label names the town (its
// name or postcode), else those near the town's place, else (no town given) every one in the region;
// its addresses that name the town instead where no street is spelt as typed (streetOrItsAddresses).
// Their records that name the town as well come first; when none does, the street's own.
async function structuredStreet(s: TextSearchState, deps: SearchSteps): Promise<StepAnswer | void> {
  const { parts } = s.structured!;
  const street = query(parts.street)!;
  const streets = await namedAs(street, 'street', s, deps);
  const townQuery = query([parts.postcode, parts.city].filter(Boolean).join(' ') || undefined);
  const townWords = townQuery?.words ?? [];
  const town = [...(await towns(s, deps)), ...(await postcodes(s, deps))];
  const labelled = streets.filter((p) => labelHolds(p, townWords));
  const near = labelled.length > 0 ? labelled : streets.filter((p) => nearAny(p, town));
  const inTown = townQuery ? await streetOrItsAddresses(near, street, townQuery, s, deps) : streets;
  if (inTown.length === 0) return;
  const unmatched = wordsOf(s, 'housenumber');
  if (townWords.length > 0) {
    const withTown = buildTextQuery([parts.street, parts.postcode, parts.city].filter(Boolean).join(' '))!;
    const page = await deps.repository.searchFullText(withTown, s.window, s.plan, streetPinsOf(inTown));
    const fallback = { level: 'street' as const, unmatched };
    if (page.total > 0) return { page, match: 'text', searched: withTown, places: inTown, corrections: [], fallback };
  }
  return answerWith('street', street, inTown, s, deps, unmatched);
}

// Whether the place's label holds every one of the words (a town's name or postcode).
const labelHolds = (place: RankedPlace, words: string[]) => {
  const label = new Set(tokenize(place.label));
  return words.length > 0 && words.every((w) => label.has(w));
};

function nearAny(street: RankedPlace, towns: RankedPlace[]): boolean {
  return towns.some((t) => {
    const dy = (street.lat - t.lat) * METRES_PER_DEGREE;
    const dx = (street.lon - t.lon) * METRES_PER_DEGREE * Math.cos((t.lat * Math.PI) / 180);
    return Math.hypot(dx, dy) <= STREET_NEAR_TOWN_M;
  });
}

async function structuredPostcode(s: TextSearchState, deps: SearchSteps): Promise<StepAnswer | void> {
  const places = await postcodes(s, deps);
  if (places.length === 0) return;
  return answerWith(
    'postcode',
    query(s.structured!.parts.postcode)!,
    places,
    s,
    deps,
    wordsOf(s, 'street', 'housenumber'),
  );
}

async function structuredLocality(s: TextSearchState, deps: SearchSteps): Promise<StepAnswer | void> {
  const places = await towns(s, deps);
  if (places.length === 0) return;
  return answerWith('locality', query(s.structured!.parts.city)!, places, s, deps, wordsOf(s, 'street', 'housenumber'));
}

const TEXT_STEPS_LEFT_OUT = new Set([
  // The address binds the region; its words are no region's name to read off the end.
  'named-region',
  'named-region-alone',
  // Unbound from the region: never, the address gives it.
  'whole-query-places',
  'region-in-address',
  // Read from the parts instead (below).
  'fallback-street',
  'fallback-locality',
  'fallback-region',
  'nothing-found',
]);

const textSteps = (from: string, to?: string) => {
  const steps = TEXT_SEARCH_STEPS.filter((step) => !TEXT_STEPS_LEFT_OUT.has(step.name));
  const start = steps.findIndex((step) => step.name === from);
  const end = to === undefined ? steps.length : steps.findIndex((step) => step.name === to);
  return steps.slice(start, end);
};

export const STRUCTURED_SEARCH_STEPS: readonly TextSearchStep[] = [
  { name: 'structured-region', when: (s) => s.structured!.region !== null, run: structuredRegion },
  ...textSteps('region-conflict', 'named-category'),
  { name: 'named-region-alone', when: onlyRegion, run: namedRegionAlone, final: true },
  ...textSteps('named-category', 'full-text'),
  { name: 'structured-town-places', when: onlyTown, run: townPlaces },
  ...textSteps('full-text'),
  { name: 'structured-fallback-street', when: (s) => part(s, 'street'), run: structuredStreet },
  { name: 'structured-fallback-postcode', when: (s) => part(s, 'postcode'), run: structuredPostcode },
  { name: 'structured-fallback-locality', when: (s) => part(s, 'city'), run: structuredLocality },
  {
    name: 'structured-fallback-region',
    when: (s) => s.namedRegion !== null && !s.regionConflict && !part(s, 'city', 'postcode'),
    run: fallbackRegion,
  },
  { name: 'nothing-found', when: always, run: nothingThere, final: true },
];
