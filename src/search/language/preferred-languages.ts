import Negotiator from 'negotiator';
import { languageTagOf } from '../../places/place-names';

// The languages a search's answer is written in, best first: its `lang` (one BCP 47 tag), else its
// Accept-Language header (in the header's order of preference, read by negotiator, express's own
// reader). Each tag is followed by the tags it falls back to ("de-ch" then "de"). Empty when the request
// names none: labels and addresses are then written as stored.

/** How many languages of an Accept-Language header are read (the rest are ignored). */
export const MAX_ACCEPTED_LANGUAGES = 8;

export function preferredLanguages(lang: string | undefined, acceptLanguage: string | undefined): string[] {
  const given =
    lang !== undefined
      ? [lang]
      : acceptLanguage
        ? new Negotiator({ headers: { 'accept-language': acceptLanguage } }).languages()
        : [];
  const out: string[] = [];
  for (const raw of given.slice(0, MAX_ACCEPTED_LANGUAGES)) {
    const tag = languageTagOf(raw);
    if (tag === null) continue;
    for (const fallback of fallbacksOf(tag)) if (!out.includes(fallback)) out.push(fallback);
  }
  return out;
}

// "zh-hant-tw" -> zh-hant-tw, zh-hant, zh.
function fallbacksOf(tag: string): string[] {
  const parts = tag.split('-');
  return parts.map((_, i) => parts.slice(0, parts.length - i).join('-'));
}

/** The first of the languages that `names` has a name in. */
export function nameIn(names: Readonly<Record<string, string>> | null | undefined, languages: readonly string[]) {
  if (!names) return undefined;
  for (const language of languages) if (names[language]) return names[language];
  return undefined;
}
