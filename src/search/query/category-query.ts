import categoryTerms from './poi-category-terms.json';
import { LatLon, parseCoordinates } from './coordinates';
import { chunkWords, tokenize } from './tokenize';
import { leadingConnector } from './connecting-words';

// A query that names a category of place ("restaurant", "hotel in Vaduz", "Apotheke Vaduz",
// "pharmacy near 47.14,9.52"): the category's tags and what the rest of the query says.
// The words of a category are the English and German names and search terms of the iD editor's
// presets (poi-category-terms.json, written by `npm run gazetteer:categories`).
//
// How a category word is told from an address word ("Restaurantweg 5", "Bank Street"): the
// category phrase must be the whole query, or its first or last words with the rest either
// introduced by a connecting word ("in", "near", "bei", ...) or, without one, naming a place
// (decided by the named-category step: the rest must be all a town's or region's name). A phrase
// is whole words: "restaurantweg" is no category.

export interface CategoryQuery {
  /** The categories meant, as OSM tags ("amenity=pharmacy"). */
  tags: string[];
  /** The query's words that are not the category phrase or its connector (raw text; empty: the whole query). */
  rest: string;
  /** A connecting word joined the rest ("in", "near"): the rest is where, whatever it names. */
  connected: boolean;
  /** The rest is coordinates. */
  point: LatLon | null;
}

interface TermsFile {
  categories: Array<{ tag: string; en: { name: string; terms: string[] }; de: { name: string; terms: string[] } }>;
}

// The longest category phrase looked for, in words ("chemist's shop" is two).
const MAX_PHRASE_WORDS = 4;

// Folded phrase -> the tags it names: as a name (the presets' names, and the tag's value:
// "pharmacy" for amenity=pharmacy, whose English name is "Pharmacy Counter"), or as a search term.
interface Named {
  byName: string[];
  byTerm: string[];
}

function termIndex(file: TermsFile): Map<string, Named> {
  const index = new Map<string, Named>();
  const add = (phrase: string, tag: string, as: keyof Named) => {
    const key = tokenize(phrase).join(' ');
    if (!key) return;
    const entry = index.get(key) ?? { byName: [], byTerm: [] };
    if (!entry[as].includes(tag)) entry[as].push(tag);
    index.set(key, entry);
  };
  for (const { tag, en, de } of file.categories) {
    for (const name of [en.name, de.name, tag.split('=')[1].replace(/_/g, ' ')]) add(name, tag, 'byName');
    for (const term of [...en.terms, ...de.terms]) add(term, tag, 'byTerm');
  }
  return index;
}

const TERMS = termIndex(categoryTerms as TermsFile);

// English and German plurals of the phrase's last word: hotels, pharmacies, churches, Apotheken, Bäckereien.
const PLURAL_ENDINGS: Array<[string, string]> = [
  ['ies', 'y'],
  ['es', ''],
  ['s', ''],
  ['en', ''],
  ['n', ''],
];

/**
 * The tags a phrase of folded words names, singular or plural; null when none. A category named so
 * ("hotels": tourism=hotel) wins over those that merely list the phrase among their search terms
 * (shop=travel_agency lists "hotels"; amenity=bench lists German "Bank").
 */
export function categoryTags(words: readonly string[], terms: ReadonlyMap<string, Named> = TERMS): string[] | null {
  const key = words.join(' ');
  const forms = [key];
  for (const [ending, singular] of PLURAL_ENDINGS) {
    if (key.length > ending.length + 2 && key.endsWith(ending)) forms.push(key.slice(0, -ending.length) + singular);
  }
  const found = forms.map((f) => terms.get(f)).filter((e): e is Named => e !== undefined);
  const byName = found.find((e) => e.byName.length > 0);
  if (byName) return byName.byName;
  return found.find((e) => e.byTerm.length > 0)?.byTerm ?? null;
}

/** What the query says about a category, or null when it names none (see the top of this file). */
export function readCategoryQuery(query: string): CategoryQuery | null {
  const chunks = query.trim().split(/\s+/u).filter(Boolean);
  // A chunk counts as one word of a phrase when it is exactly one word.
  const words = chunkWords(chunks);
  const n = chunks.length;
  for (let k = Math.min(MAX_PHRASE_WORDS, n); k >= 1; k--) {
    for (const leading of [true, false]) {
      const span = leading ? words.slice(0, k) : words.slice(n - k);
      if (span.some((w) => w === null)) continue;
      const tags = categoryTags(span as string[]);
      if (!tags) continue;
      let rest = leading ? chunks.slice(k) : chunks.slice(0, n - k);
      const connector = leading ? leadingConnector(words.slice(k)) : 0;
      rest = rest.slice(connector);
      if (connector > 0 && rest.length === 0) continue;
      const restText = rest.join(' ').replace(/^[\s,;]+|[\s,;]+$/gu, '');
      if (rest.length > 0 && tokenize(restText).length === 0) continue;
      const coordinates = restText ? parseCoordinates(restText) : null;
      return {
        tags,
        rest: restText,
        connected: connector > 0,
        point: coordinates?.ok ? coordinates.point : null,
      };
    }
  }
  return null;
}
