import countries from 'i18n-iso-countries';
import { v5 as uuidv5 } from 'uuid';
import { buildWorldGazetteer } from '../../src/places/gazetteer/world-gazetteer';
import { buildLocalities, labelLocalities } from '../../src/places/gazetteer/gazetteer-localities';
import { geoNamesCities } from '../../src/places/gazetteer/gazetteer-sources';
import { ALT_NAME_SEPARATOR, PlaceRecord } from '../../src/places/place-record';
import { isLatin, spellingVariants } from '../../src/places/gazetteer/name-variants';
import { foldText } from '../../src/search/text-fold/text-fold';
import type { FixtureRecord } from './relevance-catalogue';
import { sample } from './relevance-catalogue';
import type { Category } from './relevance-fixture';

// Countries, territories and first-level regions named alone, and towns by a name in another
// language, over the built-in world gazetteer (every place of it with its town at the same point, so
// a record there is linked to the country and region it lies in, as an import does):
// - country_name_en, country_name_own, country_alpha2, country_alpha3: every ISO 3166-1 entity that
//   has a place (i18n-iso-countries' list) by its English name, by its name in the language its
//   people write (CLDR's likely language of the country, Intl.Locale; asked where i18n-iso-countries
//   has a name in it), by its alpha-2 and by its alpha-3 code;
// - region_name: every ISO 3166-2 region that has a place, by its name;
// - town_other_language: towns of 300,000 people or more by one of their other names (GeoNames'
//   alternate names: "Cologne" for Köln; no spelling variant of the name) that no other place has.
// Each place gets one imagery record at its point (one record a point: a country and its largest
// region or town share it, and a record of another category there is that record); so do the towns whose name a country or region shares (the lookalikes:
// Greenland, New Hampshire). The answer is the record of the most important place of the name asked
// (a country before a region before a town of under ~1 million people); places of the same name and
// importance are each right, and so is a town of a region's name in that region.
const NAMESPACE = '9b1f3e27-6c4d-4a8b-8e2f-5d7a1c0b3e69';
const OTHER_LANGUAGE_TOWNS = 60;
const OTHER_LANGUAGE_MIN_POPULATION = 300_000;

export interface RegionFixture {
  places: PlaceRecord[];
  records: FixtureRecord[];
  queries: Array<{ category: Category; query: string; expected: string; alsoRight: string[]; from: string }>;
}

const key = (name: string) =>
  foldText(name)
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
const pointOf = (p: { lon: number; lat: number }) => `${p.lon.toFixed(5)},${p.lat.toFixed(5)}`;

/** The name of the country in the language its people most likely write, where the data has one. */
export function ownName(countryCode: string): { lang: string; name: string } | null {
  const lang = new Intl.Locale(`und-${countryCode}`).maximize().language;
  const name = countries.getName(countryCode, lang);
  return name ? { lang, name } : null;
}

/** `existing`: the other categories' records; `perCategory`: ask only that many queries of each category (a seeded sample); every one without it. */
export function regionFixture(existing: readonly FixtureRecord[], perCategory?: number): RegionFixture {
  const gazetteer = buildWorldGazetteer().filter((p) => p.kind !== 'postcode');
  const byName = new Map<string, PlaceRecord[]>();
  const addName = (name: string, p: PlaceRecord) => {
    const list = byName.get(key(name)) ?? [];
    if (!list.includes(p)) byName.set(key(name), [...list, p]);
  };
  for (const p of gazetteer) addName(p.name, p);
  const localityAt = new Map<string, PlaceRecord>();
  for (const p of gazetteer) if (p.kind === 'locality' && !localityAt.has(pointOf(p))) localityAt.set(pointOf(p), p);

  const asked: Array<{ category: Category; query: string; place: PlaceRecord }> = [];
  for (const p of gazetteer.filter((g) => g.kind === 'country')) {
    const code = p.countryCode!;
    asked.push({ category: 'country_name_en', query: p.name, place: p });
    const own = ownName(code);
    if (own) asked.push({ category: 'country_name_own', query: own.name, place: p });
    asked.push({ category: 'country_alpha2', query: code, place: p });
    asked.push({ category: 'country_alpha3', query: countries.alpha2ToAlpha3(code)!, place: p });
  }
  for (const p of gazetteer.filter((g) => g.kind === 'region'))
    asked.push({ category: 'region_name', query: p.name, place: p });
  asked.push(...otherLanguageTowns(gazetteer, byName));
  if (perCategory !== undefined) {
    const all = asked.splice(0);
    for (const category of new Set(all.map((q) => q.category)))
      asked.push(
        ...sample(
          all.filter((q) => q.category === category),
          perCategory,
          (q) => `${category}:${q.query}`,
        ),
      );
  }

  // The places a query's answer may be: the most important of its name (for codes: the place asked).
  const meant = (q: { category: Category; query: string; place: PlaceRecord }) => {
    if (q.category === 'country_alpha2' || q.category === 'country_alpha3') return [q.place];
    const same = byName.get(key(q.query)) ?? [q.place];
    const top = Math.max(...same.map((s) => s.importance), q.place.importance);
    // A town of the region's name in the region is imagery of the region too (Salzburg in Salzburg).
    const inRegion = (s: PlaceRecord) => q.place.kind === 'region' && s.regionCode === q.place.regionCode;
    return [q.place, ...same].filter((s, i, all) => (s.importance === top || inRegion(s)) && all.indexOf(s) === i);
  };
  const withRecords = new Set<PlaceRecord>();
  for (const q of asked) {
    for (const p of meant(q)) withRecords.add(p);
    for (const p of byName.get(key(q.query)) ?? []) withRecords.add(p);
  }
  // Towns too small for the gazetteer (the largest place of a small territory) are made from GeoNames too.
  const without = new Set([...withRecords].map(pointOf).filter((point) => !localityAt.has(point)));
  const small = geoNamesCities().filter((c) =>
    without.has(pointOf({ lon: c.loc.coordinates[0], lat: c.loc.coordinates[1] })),
  );
  for (const town of buildLocalities(labelLocalities(small, 0, new Set()))) localityAt.set(pointOf(town), town);

  // Records of the other categories at a point are its imagery too; a new record only where none is.
  const idsAt = new Map<string, string[]>();
  for (const r of existing) idsAt.set(pointOf(r), [...(idsAt.get(pointOf(r)) ?? []), r.id]);
  const records: FixtureRecord[] = [];
  const places = new Map<string, PlaceRecord>();
  for (const p of withRecords) {
    places.set(p.id, p);
    const town = localityAt.get(pointOf(p));
    if (town) places.set(town.id, town);
    if (idsAt.has(pointOf(p))) continue;
    const record = { id: uuidv5(pointOf(p), NAMESPACE), address: town?.label ?? p.label, lat: p.lat, lon: p.lon };
    records.push(record);
    idsAt.set(pointOf(p), [record.id]);
  }
  const queries = asked.map((q) => {
    const [first, ...others] = [...new Set(meant(q).flatMap((p) => idsAt.get(pointOf(p))!))];
    return { category: q.category, query: q.query, expected: first, alsoRight: others, from: q.place.label };
  });
  return { places: [...places.values()], records, queries };
}

// Large towns asked by an alternate name that no other place has as its name or alternate name, and
// that is no country's or region's name.
function otherLanguageTowns(
  gazetteer: readonly PlaceRecord[],
  byName: ReadonlyMap<string, PlaceRecord[]>,
): Array<{ category: Category; query: string; place: PlaceRecord }> {
  const holders = new Map<string, number>();
  const altsOf = (p: PlaceRecord) => (p.altNames ? p.altNames.split(ALT_NAME_SEPARATOR) : []).filter((n) => n);
  for (const p of gazetteer)
    for (const n of new Set([key(p.name), ...altsOf(p).map(key)])) holders.set(n, (holders.get(n) ?? 0) + 1);
  const candidates = gazetteer.flatMap((p) => {
    if (p.kind !== 'locality' || (p.population ?? 0) < OTHER_LANGUAGE_MIN_POPULATION || !isLatin(p.name)) return [];
    const other = altsOf(p).find((n) => {
      const k = key(n);
      const plain = k.replace(/ /gu, '');
      return (
        k.length >= 4 &&
        plain !== key(p.name).replace(/ /gu, '') &&
        !/\d/u.test(k) &&
        holders.get(k) === 1 &&
        !byName.has(k) &&
        !key(p.name).includes(k) &&
        !k.includes(key(p.name)) &&
        !spellingVariants(p.name).some((v) => key(v) === k)
      );
    });
    return other ? [{ category: 'town_other_language' as Category, query: other, place: p }] : [];
  });
  return sample(candidates, OTHER_LANGUAGE_TOWNS, (c) => `other-language:${c.place.id}`);
}
