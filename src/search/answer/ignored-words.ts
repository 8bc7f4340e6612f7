import { ALT_NAME_SEPARATOR } from '../../places/place-record';
import { tokenize } from '../query/tokenize';
import type { SearchRow } from '../search.repository';
import type { StepAnswer, TextSearchState } from '../pipeline/text-search-state';

// `interpretation.ignored`: the query's words that shaped nothing of the answer. A word counts when
// a record of the page holds it in its address (the last word also as the start of one, as
// record-match.ts reads it), when it names the region, the category or a place the answer went
// through, or when it was corrected (`corrections` says to what). An empty page ignores nothing.
export function ignoredWords(answer: StepAnswer, state: TextSearchState, rows: readonly SearchRow[]): string[] {
  if (rows.length === 0 || answer.page.codeMatched) return [];
  if (answer.categories) return [];
  const held = new Set<string>();
  const add = (text: string) => tokenize(text).forEach((w) => held.add(w));
  rows.forEach((r) => add(r.address));
  answer.places.forEach((p) => [p.name, p.label, ...p.altNames.split(ALT_NAME_SEPARATOR)].forEach(add));
  answer.corrections.forEach((c) => held.add(c.from));
  // The words the named region took (named-region keeps the rest as the text searched).
  const searched = new Set(state.text.words);
  // Each typed word with the spellings searched for it (a corrected query widens its group).
  const spellings = new Map((answer.searched?.groups ?? []).map((g) => [g[0], g]));
  const groups = state.typed.groups;
  const last = groups.length - 1;
  return groups
    .filter((typed, i) => {
      if (!searched.has(typed[0])) return false;
      const group = [...typed, ...(spellings.get(typed[0]) ?? [])];
      if (group.some((w) => held.has(w))) return false;
      return !(i === last && group.some((w) => [...held].some((h) => h.startsWith(w))));
    })
    .map((group) => group[0]);
}
