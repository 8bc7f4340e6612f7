import { loadConfig } from '../../src/config/app-config';
import { ANSWER_STEPS, AnswerDeps, answerWith, SearchAnswer } from '../../src/search/answer/answer-steps';
import type { IncludeName } from '../../src/search/dto/search-filters.dto';
import { SearchRequestDto } from '../../src/search/dto/search-request.dto';
import type { SearchResponseDto } from '../../src/search/dto/search-response.dto';
import { planSearch } from '../../src/search/planning/search-planner';
import { interpretQuery } from '../../src/search/query/query-interpretation';
import type { SearchPage } from '../../src/search/search.repository';
import { searchRow } from '../helpers/search-rows';

// The answer's post-processing (src/search/answer/answer-steps.ts): one named list, each step under its
// condition, run over the response's first fields. Which steps run for which request, and what they set.
const config = loadConfig({ IMAGE_BASE_URL: 'https://img.example.com/' });

function answerFor(query: string, include: IncludeName[], found: SearchPage, languages: string[] = []): SearchAnswer {
  const request = Object.assign(new SearchRequestDto(), { query, limit: 10, page: 1, include });
  const interpretation = interpretQuery(query);
  const { plan } = planSearch(request, interpretation);
  return { request, include: new Set(include), interpretation, plan, found, result: null, languages };
}

function recorded() {
  const calls: string[] = [];
  const deps: AnswerDeps = {
    config,
    recordPlaces: {
      placesOf: async (rows) => {
        calls.push('placesOf');
        return rows.map(() => ({ id: 'p', kind: 'locality', label: 'Vaduz', lat: 47.14, lon: 9.52, distance_m: 3 }));
      },
    },
    history: { attach: async () => void calls.push('history') },
    photoIncludes: { attach: async () => void calls.push('photos') },
    repository: {
      nearestRecord: async () => {
        calls.push('nearestRecord');
        return { distance: 1234.56, lat: 47.2, lon: 9.6 };
      },
    },
    localizedNames: {
      places: async () => {
        calls.push('localizedNames');
        return [];
      },
    },
  };
  return { calls, deps };
}

const first = (): SearchResponseDto => ({
  isSuccess: true,
  page: 1,
  pageTotal: 1,
  data: [],
  result_id: 'id',
  region: 'global',
  region_id: null,
});
const onePage: SearchPage = { total: 1, totalExact: true, codeMatched: false, rows: [searchRow({ distance: 4 })] };
const nothing: SearchPage = { total: 0, totalExact: true, codeMatched: false, rows: [] };

describe('the answer steps', () => {
  it('are one named list, in the order the response writes its fields', () => {
    expect(ANSWER_STEPS.map((s) => s.name)).toEqual([
      'records',
      'record-matches',
      'places-attached',
      'history',
      'photo-details',
      'total',
      'interpretation',
      'ignored-words',
      'nearest-outside',
      'localized-labels',
    ]);
  });

  it('without include: the records alone, the default response, nothing else asked of anyone', async () => {
    const { calls, deps } = recorded();
    const response = await answerWith(ANSWER_STEPS, answerFor('47.14, 9.52', [], onePage), first(), deps);
    expect(Object.keys(response)).toEqual([
      'isSuccess',
      'page',
      'pageTotal',
      'data',
      'result_id',
      'region',
      'region_id',
    ]);
    expect(Object.keys(response.data[0])).toEqual([
      'id',
      'address',
      'date',
      'compass',
      'interactive',
      'geometry',
      'image',
    ]);
    expect(calls).toEqual([]);
  });

  it('each include runs its step, and the record fields follow in their order', async () => {
    const { calls, deps } = recorded();
    const include: IncludeName[] = ['match', 'place', 'camera', 'total', 'interpretation'];
    const response = await answerWith(ANSWER_STEPS, answerFor('47.14, 9.52', include, onePage), first(), deps);
    expect(calls).toEqual(['placesOf', 'photos']);
    expect(response.data[0]).toMatchObject({ match: { kind: 'nearby', distance_m: 4 }, place: { label: 'Vaduz' } });
    expect(Object.keys(response.data[0]).slice(-2)).toEqual(['match', 'place']);
    expect(response).toMatchObject({ total: 1, total_exact: true, interpretation: { kind: 'coordinates' } });
    expect(response.interpretation).not.toHaveProperty('nearest');
  });

  it('nothing within the radius of a point: the nearest record outside it, with interpretation only', async () => {
    const asked = recorded();
    const response = await answerWith(
      ANSWER_STEPS,
      answerFor('47.14, 9.52', ['interpretation'], nothing),
      first(),
      asked.deps,
    );
    expect(response.interpretation?.nearest).toEqual({ distance_m: 1234.6, lat: 47.2, lon: 9.6 });
    expect(asked.calls).toEqual(['nearestRecord']);
    const notAsked = recorded();
    await answerWith(ANSWER_STEPS, answerFor('47.14, 9.52', ['total'], nothing), first(), notAsked.deps);
    expect(notAsked.calls).toEqual([]);
  });

  it('a language asked for: the labels are read in it once, after every other step; none asked: never', async () => {
    const asked = recorded();
    const answer = answerFor('47.14, 9.52', ['place'], onePage, ['de-ch', 'de']);
    await answerWith(ANSWER_STEPS, answer, first(), asked.deps);
    expect(asked.calls).toEqual(['placesOf', 'localizedNames']);
    const notAsked = recorded();
    await answerWith(ANSWER_STEPS, answerFor('47.14, 9.52', ['place'], onePage), first(), notAsked.deps);
    expect(notAsked.calls).toEqual(['placesOf']);
  });
});
