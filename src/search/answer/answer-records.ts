import type { AppConfig } from '../../config/app-config';
import type { LatLon } from '../../photos/metadata/geodesy';
import { placeViewPath } from '../../photos/serving/place-view';
import type { TextSearchResult } from '../pipeline/text-search.pipeline';
import type { SearchPlan } from '../planning/search-planner';
import type { QueryInterpretation } from '../query/query-interpretation';
import type { SearchRow } from '../search.repository';
import { recordImageUrl } from './capture-format';
import { pointMatchOf, RecordMatch, textMatchOf } from './record-match';

// What a search's answer adds to a row made a record (record-format.ts): its score, its match, and
// the image of a 360 record turned to face the place the query names.

/** The image of a 360 record that faces the place the query names, when there is one (photos/serving/place-view.ts). */
export function viewImageOf(
  row: SearchRow,
  interpretation: QueryInterpretation | null,
  result: TextSearchResult | null,
  config: AppConfig,
): string | null {
  const place = placePointOf(row, interpretation, result);
  const view = place && placeViewPath(row, place);
  return view ? recordImageUrl(view, row.id, config) : null;
}

// The point a 360 record's image faces: the coordinate or plus code the query is, or the address or
// POI it names (the record's own when the answer has several), else none.
function placePointOf(
  row: SearchRow,
  interpretation: QueryInterpretation | null,
  result: TextSearchResult | null,
): LatLon | null {
  if (interpretation && interpretation.kind !== 'text') return interpretation.point;
  const places = result?.answer.places ?? [];
  if (!places[0] || (places[0].kind !== 'address' && places[0].kind !== 'poi')) return null;
  return places.find((p) => p.id === row.nearPlaceId || p.id === row.placeId) ?? places[0];
}

// Text searches score by relevance; searches without text by closeness to the anchor point
// (1 at the point, 0 at the edge of its radius), or 0 when there is no point.
export function scoreOf(row: SearchRow, plan: SearchPlan, textSearch: boolean): number {
  if (textSearch) return row.score;
  if (row.distance === null || plan.anchor === null) return 0;
  return Math.max(0, 1 - row.distance / plan.anchor.radiusM);
}

export function matchOf(row: SearchRow, result: TextSearchResult | null, plan: SearchPlan): RecordMatch {
  return result === null ? pointMatchOf(row, plan) : textMatchOf(row, result.answer);
}

export function round(n: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}
