// A place's names by language ({"de": "Köln", "ru": "Кёльн"}): OpenStreetMap's `name:xx` tags, a GeoJSON
// place's `names`. Keys are BCP 47 language tags in their canonical form, lower case ("de", "zh-hant",
// "sr-latn"); a search's `lang` picks from them (src/search/language/). The bounds are documented in
// docs/places.md (names by language).
export type PlaceNames = Record<string, string>;

/** Languages kept per place (a country's OpenStreetMap node carries a few hundred). */
export const MAX_NAMES = 400;
/** Characters of one name in another language, as of the place's own name. */
export const MAX_LANGUAGE_NAME_LENGTH = 300;

// A primary language of two or three letters (ISO 639), then any subtags: `name:prefix`,
// `name:etymology` and the like are no languages.
const LANGUAGE_TAG = /^[a-z]{2,3}(-[a-z0-9]{1,8})*$/i;

/** The canonical lower-case form of a BCP 47 language tag ("zh-Hant-TW" -> "zh-hant-tw"), or null for one that is not. */
export function languageTagOf(tag: string): string | null {
  if (!LANGUAGE_TAG.test(tag)) return null;
  try {
    return Intl.getCanonicalLocales(tag)[0]?.toLowerCase() ?? null;
  } catch {
    return null;
  }
}

type NamesResult = { value: PlaceNames | null } | { problem: string };

/**
 * A GeoJSON place's `names`: an object of language tag -> name. Blank names are left out; anything
 * else that is not a language tag with a name of at most MAX_LANGUAGE_NAME_LENGTH is a problem.
 */
export function placeNamesOf(raw: unknown): NamesResult {
  if (raw === undefined || raw === null) return { value: null };
  if (typeof raw !== 'object' || Array.isArray(raw)) return { problem: 'must be an object of language tag to name' };
  const entries = Object.entries(raw as Record<string, unknown>);
  if (entries.length > MAX_NAMES) return { problem: `may name at most ${MAX_NAMES} languages` };
  const names: PlaceNames = {};
  for (const [key, value] of entries) {
    const tag = languageTagOf(key);
    if (tag === null) return { problem: `has ${JSON.stringify(key.slice(0, 40))}, which is no language tag` };
    if (typeof value !== 'string') return { problem: `.${tag} must be a string` };
    const name = cleanName(value);
    if (name.length > MAX_LANGUAGE_NAME_LENGTH) {
      return { problem: `.${tag} must be at most ${MAX_LANGUAGE_NAME_LENGTH} characters` };
    }
    if (name !== '') names[tag] = name;
  }
  return { value: Object.keys(names).length > 0 ? names : null };
}

/**
 * An OpenStreetMap object's `name:xx` tags as names (lenient, as the rest of its tags are read: a key
 * that is no language, a blank or an over-long name is left out, never a reason to drop the object).
 */
export function osmNames(tags: Record<string, string | undefined>): PlaceNames | undefined {
  const names: PlaceNames = {};
  let count = 0;
  for (const [key, value] of Object.entries(tags)) {
    if (!key.startsWith('name:') || value === undefined || count >= MAX_NAMES) continue;
    const tag = languageTagOf(key.slice('name:'.length));
    const name = cleanName(value);
    if (tag === null || name === '' || name.length > MAX_LANGUAGE_NAME_LENGTH || tag in names) continue;
    names[tag] = name;
    count += 1;
  }
  return count > 0 ? names : undefined;
}

// eslint-disable-next-line no-control-regex
const CONTROL_CHARS = /[\u0000-\u001f\u007f]/g;

function cleanName(value: string): string {
  return value.replace(CONTROL_CHARS, '').replace(/\s+/g, ' ').trim();
}
