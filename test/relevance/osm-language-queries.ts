import type { SearchResponseDto } from '../../src/search/dto/search-response.dto';
import { sample } from './relevance-catalogue';
import { recordId } from './osm-queries';
import { hasWords as has, OsmObject, OsmTruth, textWords as words } from './osm-truth';
import { CategoryResult, runRelevance, ScoredQuery } from './relevance-suite';

// Names in other languages, with the truth from the objects' own name:xx tags (nothing from src/):
// - a recovered address in a language: the record at an address whose town (the place=* node its
//   addr:city names) has a name:xx other than its name, asked for by its point with `lang: xx` (one
//   language per address, by its hash among the town's), must come first and name its number, its
//   street (the street's name:xx where a highway of that name has one, else addr:street) and the
//   town's name:xx;
// - a place, poi or natural feature by one of its name:xx (other than its name): its record first.
export const LANGUAGE_CATEGORIES = ['language: recovered address in lang', 'language: a name in another language'];
type LanguageCategory = (typeof LANGUAGE_CATEGORIES)[number];

const LANGUAGE_KEY = /^name:([a-z]{2,3})$/;

// An object's names by language, other than its own name.
function otherNames(o: OsmObject): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(o.tags)) {
    const language = LANGUAGE_KEY.exec(key)?.[1];
    if (language && value.trim() && words(value) !== words(o.tags.name ?? '')) out.set(language, value.trim());
  }
  return out;
}

const pickBy = <T>(items: T[], key: string): T => items[hashOf(key) % items.length];
function hashOf(s: string): number {
  let h = 2166136261;
  for (const c of s) h = Math.imul(h ^ c.codePointAt(0)!, 16777619) >>> 0;
  return h;
}

type Search = (body: object) => Promise<SearchResponseDto>;

export async function measureLanguages(search: Search, truth: OsmTruth, limit: number) {
  const reverse = await recoveredInLanguage(search, truth, limit);
  const forward = await runRelevance<LanguageCategory>(search, namesInLanguages(truth, limit), [
    LANGUAGE_CATEGORIES[1],
  ]);
  return [reverse, ...forward];
}

async function recoveredInLanguage(search: Search, truth: OsmTruth, limit: number) {
  const towns = new Map(truth.places.map((p) => [p.tags.name, otherNames(p)]));
  const streetNames = new Map<string, Map<string, string>>();
  for (const s of truth.streets) for (const [l, n] of otherNames(s)) streetNames.set(s.tags.name, new Map([[l, n]]));
  const asked = sample(
    truth.addresses.filter((o) => o.address!.street && o.address!.city && (towns.get(o.address!.city)?.size ?? 0) > 0),
    limit,
    (o) => `language:${o.id}`,
  );
  const r: CategoryResult<LanguageCategory> = {
    category: LANGUAGE_CATEGORIES[0],
    queries: 0,
    top1: 0,
    top5: 0,
    misses: [],
  };
  for (const o of asked) {
    const a = o.address!;
    const names = towns.get(a.city!)!;
    const language = pickBy([...names.keys()].sort(), o.id);
    const street = streetNames.get(a.street!)?.get(language) ?? a.street!;
    const query = `${o.lat.toFixed(7)}, ${o.lon.toFixed(7)}`;
    const data = (await search({ query, lang: language, limit: 1 })).data;
    const got = data[0]?.address ?? '';
    const numbered = a.numbers.some((n) => has(got, `${street} ${n}`) || has(got, `${n} ${street}`));
    const ok = data[0]?.id === recordId(o) && numbered && has(got, names.get(language)!);
    r.queries++;
    if (ok) [r.top1, r.top5] = [r.top1 + 1, r.top5 + 1];
    else r.misses.push({ query: `${query} lang ${language}: "${got}"`, from: o.id, expected: recordId(o), got: [] });
  }
  return r;
}

function namesInLanguages(truth: OsmTruth, limit: number): ScoredQuery<LanguageCategory>[] {
  const named = [...truth.places, ...truth.pois, ...truth.naturals];
  const byName = new Map<string, OsmObject[]>();
  const made: Array<{ query: string; from: OsmObject }> = [];
  for (const o of named) {
    const names = otherNames(o);
    if (names.size === 0) continue;
    const query = names.get(pickBy([...names.keys()].sort(), o.id))!;
    made.push({ query, from: o });
  }
  // Every object one of whose names (in any language) is the query is as right as the first.
  for (const o of truth.objects)
    for (const n of [o.tags.name, ...otherNames(o).values()])
      if (n) byName.set(words(n), [...(byName.get(words(n)) ?? []), o]);
  return sample(made, limit, (m) => `language-name:${m.from.id}`).map(({ query, from }) => ({
    category: LANGUAGE_CATEGORIES[1],
    query,
    expected: recordId(from),
    alsoRight: (byName.get(words(query)) ?? []).map(recordId),
    from: from.id,
  }));
}
