import { RankedPlace } from '../../src/search/place-matching/place-ranking';
import type { AddressTown } from '../../src/search/place-matching/place-matching.repository';
import { runTextSearch } from '../../src/search/pipeline/text-search.pipeline';
import { SearchSteps, TEXT_SEARCH_STEPS, TextSearchStep } from '../../src/search/pipeline/text-search.steps';
import { initialState } from '../../src/search/pipeline/text-search-state';
import { SearchPlan } from '../../src/search/planning/search-planner';
import { buildTextQuery, TextQuery } from '../../src/search/query/text-query';
import { SearchPage, SearchRow } from '../../src/search/search.repository';
import { Vocabulary } from '../../src/search/vocabulary/vocabulary-lookup';

// The text search's steps on a scripted repository and place matcher (test/unit/search-pipeline/
// text-search-steps*.spec.ts): they answer from lists and record the calls made.
export const plan: SearchPlan = { filters: { circles: [] }, sort: 'relevance', anchor: null } as unknown as SearchPlan;
export const window = { limit: 10, offset: 0 };
const page = (total: number): SearchPage => ({ total, totalExact: true, codeMatched: false, rows: [] });
export const place = (name: string, over: Partial<RankedPlace> = {}): RankedPlace => ({
  id: `id-${name}`,
  kind: 'locality',
  name,
  label: `${name}, Liechtenstein`,
  altNames: '',
  importance: 0.5,
  lon: 9.52,
  lat: 47.14,
  similarity: null,
  rank: 1,
  ...over,
});

export interface Script {
  fullText?: number[];
  /** Matches of a full-text search of these words (folded, space-separated), before `fullText`'s queue. */
  fullTextBy?: Record<string, number>;
  area?: number;
  fuzzy?: number;
  /** The address of the best similar record. */
  fuzzyAddress?: string;
  named?: RankedPlace[][];
  /** The places of these words (folded, space-separated), before `named`'s queue. */
  namedBy?: Record<string, RankedPlace[]>;
  /** A country's or region's own place, by code. */
  regionPlaces?: Record<string, RankedPlace>;
  /** Towns only addresses name, by their folded words. */
  addressTowns?: Record<string, AddressTown>;
  misspelt?: RankedPlace[];
  candidates?: Record<string, string[]>;
  words?: Array<[string, number]>;
  /** Records at the pois of a category. */
  category?: number;
  /** The addresses of a street in a town, by the street's and the town's words (folded, space-separated). */
  streetAddresses?: Record<string, Array<RankedPlace & { street: string }>>;
}

export function scripted(script: Script) {
  const calls: string[] = [];
  const fullText = [...(script.fullText ?? [])];
  const named = [...(script.named ?? [])];
  const vocabulary = new Vocabulary(
    script.words ?? [
      ['herrengasse', 40],
      ['vaduz', 900],
    ],
    1_000,
  );
  const log = <T>(call: string, result: T): T => {
    calls.push(call);
    return result;
  };
  const deps: SearchSteps = {
    repository: {
      vocabulary: async () => vocabulary,
      searchFullText: async (q: TextQuery) =>
        log(`fullText:${q.words.join(' ')}`, page(script.fullTextBy?.[q.words.join(' ')] ?? fullText.shift() ?? 0)),
      searchArea: async () => log('area', page(script.area ?? 0)),
      searchFuzzy: async () =>
        log('fuzzy', {
          ...page(script.fuzzy ?? 0),
          rows: script.fuzzy ? [{ address: script.fuzzyAddress ?? '' } as SearchRow] : [],
        }),
      wordCandidates: async (words: string[]) =>
        log(`candidates:${words.join(',')}`, new Map(Object.entries(script.candidates ?? {}))),
    } as unknown as SearchSteps['repository'],
    placeMatcher: {
      named: async (q: TextQuery) =>
        log(`named:${q.words.join(' ')}`, script.namedBy?.[q.words.join(' ')] ?? named.shift() ?? []),
      regionPlace: async (code: string) => log(`regionPlace:${code}`, script.regionPlaces?.[code] ?? null),
      misspelt: async () => log('misspelt', script.misspelt ?? []),
      addressTown: async (q: TextQuery) =>
        log(`addressTown:${q.words.join(' ')}`, script.addressTowns?.[q.words.join(' ')] ?? null),
      streetAddresses: async (street: TextQuery, town: TextQuery) =>
        script.streetAddresses?.[`${street.words.join(' ')} ${town.words.join(' ')}`] ?? [],
      atCategory: async (tags: string[], area: { around: { radiusM: number } | null }) =>
        log(`category:${tags.join(',')}@${area.around?.radiusM ?? 'anywhere'}`, {
          page: page(script.category ?? 0),
          pois: [],
        }),
    } as unknown as SearchSteps['placeMatcher'],
  };
  return { calls, deps };
}

export const run = (query: string, script: Script, steps: readonly TextSearchStep[] = TEXT_SEARCH_STEPS) => {
  const { calls, deps } = scripted(script);
  return deps.repository
    .vocabulary()
    .then((vocabulary) => runTextSearch(steps, initialState(buildTextQuery(query)!, window, plan, vocabulary), deps))
    .then((r) => ({ ...r, calls }));
};
