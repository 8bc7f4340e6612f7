// Sample arguments for the search statements' declarations (@GenerateSql): rendered into
// src/queries/ by `npm run sql`, never used to serve a request.
import { SAMPLE_UUID, SAMPLE_UUID_2 } from '../../database/generate-sql';
import { interpretQuery } from '../query/query-interpretation';
import { planSearch, SearchPlan } from '../planning/search-planner';
import { SearchRequestDto } from '../dto/search-request.dto';
import { buildTextQuery, TextQuery } from '../query/text-query';
import type { PlacePins } from './place-pins.sql';

export const SAMPLE_PAGE = { limit: 10, offset: 0 };
export const SAMPLE_NEAR = { near: { lat: 47.14, lon: 9.52, radius_m: 500 } };

export function samplePlan(body: Partial<SearchRequestDto>): SearchPlan {
  const request = Object.assign(new SearchRequestDto(), { limit: 10, page: 1, ...body });
  return planSearch(request, request.query === undefined ? null : interpretQuery(request.query, request.near)).plan;
}

export const sampleText = (q: string): TextQuery => buildTextQuery(q)!;

export const samplePins = (view: { lon: number; lat: number } | null): PlacePins => ({
  ids: [SAMPLE_UUID_2, SAMPLE_UUID],
  scores: [40, 30],
  names: ["'springfield'", "'herrengasse' & '35'"],
  nameWords: ['springfield'],
  views: view ? [{ id: SAMPLE_UUID_2, ...view, score: 40 }] : [],
  // Without a named address, the first place is a town ("Springfield"): its centre.
  centre: view ? null : { id: SAMPLE_UUID_2, lon: -89.65, lat: 39.78 },
});

/** What the vocabulary read answers for an empty vocabulary. */
export const NO_VOCABULARY = { words: [], docs: [], rows: 0 };
