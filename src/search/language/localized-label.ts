import type { PlaceKind } from '../../places/place-record';
import { countryName } from '../../places/place-label';
import { countryNameIn, regionNameIn } from '../../places/region-names-by-language';
import { sovereignOf } from '../../places/regions';
import { nameIn } from './preferred-languages';

type Names = Record<string, string> | null;

// A place as the answer shows it, with the names by language of it and of its label's parts
// (sql/localized-names.sql.ts).
export interface LocalizablePlace {
  id: string;
  kind: PlaceKind;
  name: string;
  label: string;
  street: string | null;
  locality: string | null;
  region: string | null;
  regionCode: string | null;
  countryCode: string | null;
  names: Names;
  streetNames: Names;
  localityNames: Names;
  regionNames: Names;
}

/** The place's own name in the first of the languages that has one; undefined where none has. */
export function localizedName(p: LocalizablePlace, languages: readonly string[]): string | undefined {
  return (
    nameIn(p.names, languages) ??
    (p.kind === 'country' && p.countryCode ? countryNameIn(p.countryCode, languages) : undefined) ??
    (p.kind === 'region' && p.regionCode ? regionNameIn(p.regionCode, languages) : undefined)
  );
}

/**
 * The place's label in one language: the first of the languages (with its own fallbacks, "de-ch" then
 * "de") that names any of its parts (its own name, street, locality, region and country); a part that
 * language has no name for stays as stored, never in a language less preferred ("Herrengasse 35, 9490
 * ファドゥーツ", not a street in Russian beside a town in Japanese). The stored label is kept as its
 * country's address format made it: each part is swapped where it stands as whole words, the longest
 * first, so "9490 Vaduz" becomes "9490 Вадуц" and a street named after its town is left whole.
 */
export function localizedLabel(p: LocalizablePlace, languages: readonly string[]): string {
  for (const group of languageGroups(languages)) {
    const swaps = labelSwaps(p, group);
    if ([...swaps].some(([original, localized]) => original !== localized)) return swapWholeWords(p.label, swaps);
  }
  return p.label;
}

// The languages by primary language, in order: [de-ch, de, en] -> [[de-ch, de], [en]].
export function languageGroups(languages: readonly string[]): string[][] {
  const groups = new Map<string, string[]>();
  for (const language of languages) {
    const primary = language.split('-')[0];
    groups.set(primary, [...(groups.get(primary) ?? []), language]);
  }
  return [...groups.values()];
}

// Each part's stored name -> its name in the languages, or itself where they have none: a part kept as
// stored is matched too, so a town's name inside it stays ("im Malbun 20, 9497 马尔邦").
function labelSwaps(p: LocalizablePlace, languages: readonly string[]): Map<string, string> {
  const swaps = new Map<string, string>();
  const swap = (original: string | null | undefined, localized: string | undefined) => {
    if (original && !swaps.has(original)) swaps.set(original, localized ?? original);
  };
  // An address's own name is its street and number, which the street's part covers.
  if (p.kind !== 'address') swap(p.name, localizedName(p, languages));
  swap(p.street, nameIn(p.streetNames, languages));
  swap(p.locality, nameIn(p.localityNames, languages));
  swap(
    p.region,
    nameIn(p.regionNames, languages) ?? (p.regionCode ? regionNameIn(p.regionCode, languages) : undefined),
  );
  if (p.countryCode) swap(countryName(p.countryCode), countryNameIn(p.countryCode, languages));
  // A territory's label names the country it belongs to ("Greenland, Denmark").
  const sovereign = p.countryCode ? sovereignOf(p.countryCode) : undefined;
  if (sovereign) swap(countryName(sovereign), countryNameIn(sovereign, languages));
  return swaps;
}

/** `text` with each key of `swaps` that stands as whole words replaced by its value, in one pass. */
export function swapWholeWords(text: string, swaps: ReadonlyMap<string, string>): string {
  if (swaps.size === 0) return text;
  const originals = [...swaps.keys()].sort((a, b) => b.length - a.length).map(escapeRegExp);
  const pattern = new RegExp(`(?<![\\p{L}\\p{N}])(?:${originals.join('|')})(?![\\p{L}\\p{N}])`, 'gu');
  return text.replace(pattern, (found) => swaps.get(found) ?? found);
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
