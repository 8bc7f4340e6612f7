import type { SearchPlan } from '../search-planner';
import { tokenize } from '../search-query';
import type { SearchRow } from '../search.repository';
import type { StepAnswer } from './text-search-state';

export type MatchKind = 'exact' | 'prefix' | 'partial' | 'corrected' | 'nearby' | 'fallback' | 'filter';

export interface RecordMatch {
  kind: MatchKind;
  corrections?: Array<{ from: string; to: string }>;
  /** Query words the record's address does not hold (partial, fallback). */
  unmatched?: string[];
  /** The place the record was found near (nearby after a named place). */
  place?: string;
  /** Metres from the place or the searched point (nearby). */
  distance_m?: number;
}

// How one record of a text answer matched: the answering step says how the search was made (as
// typed, corrected, around a place, by similarity); the record's address says which words it holds.
// Words count as held when any spelling of their group is an address word (abbreviations: "st" for
// "street"); the last word also as the start of one, since it may still be being typed.
export function textMatchOf(row: SearchRow, answer: StepAnswer): RecordMatch {
  if (answer.match === 'nearby') {
    const place = answer.places.find((p) => p.id === row.nearPlaceId) ?? answer.places[0];
    return { kind: 'nearby', place: place?.label, ...distance(row) };
  }
  if (answer.match === 'corrected') return { kind: 'corrected', corrections: answer.corrections };
  const groups = answer.searched?.groups ?? [];
  const words = new Set(tokenize(row.address));
  const last = groups.length - 1;
  const unmatched: string[] = [];
  let prefix = false;
  groups.forEach((group, i) => {
    if (group.some((w) => words.has(w))) return;
    if (i === last && group.some((w) => [...words].some((a) => a.startsWith(w)))) prefix = true;
    else unmatched.push(group[0]);
  });
  if (answer.match === 'fallback') return { kind: 'fallback', unmatched };
  // A location code equal to the query is held by the record, not by its address.
  if (answer.page.codeMatched && unmatched.length === groups.length) return { kind: 'exact' };
  if (unmatched.length > 0) return { kind: 'partial', unmatched };
  return { kind: prefix ? 'prefix' : 'exact' };
}

// Searches without text: records near the query's point, or records the filters let through.
export function pointMatchOf(row: SearchRow, plan: SearchPlan): RecordMatch {
  return plan.anchor === null ? { kind: 'filter' } : { kind: 'nearby', ...distance(row) };
}

function distance(row: SearchRow): { distance_m?: number } {
  return row.distance === null ? {} : { distance_m: Math.round(row.distance * 10) / 10 };
}
