import type { SearchInterpretationDto } from '../dto/search-interpretation.dto';
import type { TextSearchResult } from '../pipeline/text-search.pipeline';
import type { SearchPlan } from '../planning/search-planner';
import type { QueryInterpretation } from '../query/query-interpretation';

// `interpretation`: how the query was read, and for text, how the search answered (the step, its page
// strategy, whether the answer is approximate, the region, categories, corrections, fallback and place).
// The words that shaped nothing and the nearest record outside the radius are the answer steps after
// it (answer-steps.ts).
export function interpretationOf(
  interpretation: QueryInterpretation | null,
  result: TextSearchResult | null,
  plan: SearchPlan,
): SearchInterpretationDto | null {
  if (interpretation === null) return null;
  if (interpretation.kind !== 'text') {
    const { lat, lon } = interpretation.point;
    return {
      kind: interpretation.kind,
      normalized: interpretation.normalized,
      lat,
      lon,
      radius_m: plan.anchor!.radiusM,
    };
  }
  if (result === null) return { kind: 'text', normalized: interpretation.normalized };
  const { answer, step, state } = result;
  const strategy = result.pageStrategy === undefined ? {} : { page_strategy: result.pageStrategy };
  if (answer.page.codeMatched && answer.searched?.code) {
    const normalized = answer.searched.code.toUpperCase();
    return { kind: 'location_code', normalized, step, ...strategy, approximate: false };
  }
  const corrected = answer.corrections.length > 0 && answer.searched !== undefined;
  const described: SearchInterpretationDto = {
    kind: 'text',
    normalized: corrected ? answer.searched!.text : interpretation.normalized,
    step,
    ...strategy,
    approximate: answer.match !== 'text' || answer.fallback !== undefined,
  };
  if (interpretation.near) {
    const { lat, lon, radiusM } = interpretation.near;
    Object.assign(described, { lat, lon, radius_m: radiusM });
  }
  if (answer.fallback) described.fallback = { level: answer.fallback.level, unmatched: answer.fallback.unmatched };
  if (state.namedRegion) described.named_region = { code: state.namedRegion.code, name: state.namedRegion.name };
  if (answer.categories) described.categories = answer.categories;
  if (answer.corrections.length > 0) described.corrections = answer.corrections;
  const place = answer.places[0];
  if (place) described.place = { id: place.id, kind: place.kind, label: place.label };
  return described;
}
