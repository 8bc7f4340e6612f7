import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { foldText } from '../../src/search/text-fold/text-fold';

// The words of place names and addresses and their abbreviations ("Saint"/"St", "Mountain"/"Mtn",
// "Boulevard"/"Blvd", "Sainte"/"Ste", "Sankt"/"St"), from Mapbox's geocoder-abbreviations
// (@mapbox/geocoder-abbreviations, MIT: the token files its geocoder and OpenAddresses use), English,
// French and German. Kept: groups of single words of letters (folded as the search folds them),
// two or more spellings each. Left out: numbers and ordinals ("one"/"1": house numbers are
// digits), unit and post-box patterns, phrases ("Post Office"), groups for one country, single
// letters but the English compass points ("R" for River, "I" for Interstate), and the spellings in
// NOT_ABBREVIATIONS: words of their own in the languages searched, which would widen every query
// that holds them ("La" Lane is the article of "La Paz", "Via" Viaduct the Italian street).

export const PACKAGE = '@mapbox/geocoder-abbreviations';
const LANGUAGES = ['en', 'fr', 'de'];
const SKIPPED_TYPES = new Set(['number', 'ordinal', 'unit', 'box']);
const COMPASS = new Set(['n', 's', 'e', 'w']);
export const NOT_ABBREVIATIONS = new Set([
  'la',
  'is',
  'co',
  'ho',
  'un',
  'via',
  'est',
  'off',
  'rest',
  'form',
  'con',
  'ba',
  'ch',
  'feet',
  'res',
  'lot',
  'mal',
  'pas',
  'cour',
  'sent',
  'sen',
  'ven',
  'hop',
  'me',
  'an',
  'am',
  'in',
  'im',
  'der',
  'von',
  'zum',
  'auf',
  'ob',
  'lt',
]);

interface TokenEntry {
  tokens: string[];
  type?: string;
  regex?: boolean;
  spanBoundaries?: number;
  onlyCountries?: string[];
}

export function buildPlaceAbbreviations(): { source: string; groups: string[][] } {
  const dir = dirname(require.resolve(`${PACKAGE}/package.json`));
  const version = (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string }).version;
  const seen = new Set<string>();
  const groups: string[][] = [];
  for (const lang of LANGUAGES) {
    const entries = JSON.parse(readFileSync(join(dir, 'tokens', `${lang}.json`), 'utf8')) as TokenEntry[];
    for (const e of entries) {
      if (e.regex || e.spanBoundaries || e.onlyCountries || SKIPPED_TYPES.has(e.type ?? '')) continue;
      const words = [...new Set(e.tokens.map((t) => foldText(t.trim())))].filter(
        (w) =>
          /^\p{L}+$/u.test(w) && ([...w].length > 1 || (lang === 'en' && COMPASS.has(w))) && !NOT_ABBREVIATIONS.has(w),
      );
      if (words.length < 2) continue;
      words.sort();
      const key = words.join(' ');
      if (seen.has(key)) continue;
      seen.add(key);
      groups.push(words);
    }
  }
  groups.sort((a, b) => (a.join(' ') < b.join(' ') ? -1 : 1));
  return { source: `${PACKAGE} ${version}, tokens/{${LANGUAGES.join(',')}}.json`, groups };
}

export function renderPlaceAbbreviations(data: { source: string; groups: string[][] }): string {
  const lines = data.groups.map((g) => `    ${JSON.stringify(g)}`);
  return `{\n  "source": ${JSON.stringify(data.source)},\n  "groups": [\n${lines.join(',\n')}\n  ]\n}\n`;
}
