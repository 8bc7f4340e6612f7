import { ALT_NAME_SEPARATOR } from '../../places/place-record';
import type { RankedPlace } from '../place-matching/place-ranking';
import type { SearchPlan } from '../planning/search-planner';
import { regionNamedAlone } from '../query/region-named-alone';
import { tokenize } from '../query/tokenize';
import type { SearchRow } from '../search.repository';
import type { FallbackLevel, StepAnswer } from '../pipeline/text-search-state';

export type MatchKind =
  'exact' | 'prefix' | 'partial' | 'corrected' | 'nearby' | 'fallback' | 'filter' | `fallback_${FallbackLevel}`;

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
// Words count as held when any spelling of their group is a word of the record's address
// (abbreviations: "st" for "street") or of a name of its own place that the answer was found through
// (the locality it lies in or its address is from: "Cologne", another name of Köln); the last word
// also as the start of one, since it may still be being typed.
export function textMatchOf(row: SearchRow, answer: StepAnswer): RecordMatch {
  if (answer.fallback) {
    const place = answer.places.find((p) => p.id === row.nearPlaceId) ?? answer.places[0];
    return {
      kind: `fallback_${answer.fallback.level}`,
      unmatched: answer.fallback.unmatched,
      place: place?.label,
      ...(answer.match === 'nearby' ? distance(row) : {}),
    };
  }
  if (answer.match === 'nearby') {
    const place = answer.places.find((p) => p.id === row.nearPlaceId) ?? answer.places[0];
    return { kind: 'nearby', place: place?.label, ...distance(row) };
  }
  if (answer.match === 'corrected') return { kind: 'corrected', corrections: answer.corrections };
  const groups = answer.searched?.groups ?? [];
  const words = new Set([...tokenize(row.address), ...namesOfOwnPlace(row, answer)]);
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

const placeWords = new WeakMap<RankedPlace, string[]>();

// The words of every name (and other name) of the answer's places that are the record's own.
function namesOfOwnPlace(row: SearchRow, answer: StepAnswer): string[] {
  const own = answer.places.filter((p) => p.id === row.localityId || p.id === row.placeId);
  return own.flatMap((p) => {
    let held = placeWords.get(p);
    if (!held) {
      // Its region's and country's names and codes, which a town's other names hold too, stay out.
      const names = p.altNames.split(ALT_NAME_SEPARATOR).filter((n) => n.trim().length > 3 && !regionNamedAlone(n));
      held = tokenize(`${p.name} ${names.join(' ')}`);
      placeWords.set(p, held);
    }
    return held;
  });
}

// Searches without text: records near the query's point, or records the filters let through.
export function pointMatchOf(row: SearchRow, plan: SearchPlan): RecordMatch {
  return plan.anchor === null ? { kind: 'filter' } : { kind: 'nearby', ...distance(row) };
}

function distance(row: SearchRow): { distance_m?: number } {
  return row.distance === null ? {} : { distance_m: Math.round(row.distance * 10) / 10 };
}
