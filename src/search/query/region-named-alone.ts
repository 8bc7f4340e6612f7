import { Region, regionByCode } from '../../places/regions';
import { foldText } from '../text-fold/text-fold';
import { regionKey, regionOrAmbiguity } from './named-region';
import regionAloneNames from './region-alone-names.json';
import { dropsNoise } from './tokenize';

// The country or first-level region that a whole query names: two letters alone are the country
// of that ISO 3166-1 code ("DE" is Germany, not Delaware); else what regionNamedBy reads (names in the
// languages a place's words are read in, codes); else a name only this reading knows: a country's name
// in any language i18n-iso-countries has ("Shqipëri", "日本") and every ISO 3166-2 region's names
// ("Bayern", "Île-de-France"). A whole query can take the wider lists: no street or town words beside
// it can be misread as a region. A name two of them share means neither.

// The wide lists, keyed and committed (region-alone-names.json, written by `npm run
// gazetteer:region-names`): one text of sorted "key\tcode" lines, searched by bisection; an empty
// code where two places share the name.
const NAMES: string = regionAloneNames.names;

/** A name as the wide lists key it: as the query's words are read; names in other scripts ("日本") whole, folded. */
export const aloneKey = (text: string) => regionKey(text) || foldText(text).trim();

function wideListCode(key: string): string | undefined {
  let lo = 0;
  let hi = NAMES.length;
  while (lo < hi) {
    const start = NAMES.lastIndexOf('\n', ((lo + hi) >> 1) - 1) + 1;
    const newline = NAMES.indexOf('\n', start);
    const end = newline < 0 ? NAMES.length : newline;
    const tab = NAMES.indexOf('\t', start);
    const lineKey = NAMES.slice(start, tab);
    if (lineKey === key) return NAMES.slice(tab + 1, end);
    if (lineKey < key) lo = end + 1;
    else hi = start;
  }
  return undefined;
}

function wideListRegion(text: string): Region | undefined {
  const key = aloneKey(text);
  const code = key ? wideListCode(key) : undefined;
  return code ? regionByCode(code) : undefined;
}

/** The country or region the whole text names, by any of its names or codes; undefined for none or two. */
export function regionNamedAlone(text: string): Region | undefined {
  const trimmed = text.trim();
  // Two letters alone are the country of that ISO 3166-1 code ("DE" is Germany, not Delaware).
  if (/^[A-Za-z]{2}$/u.test(trimmed)) {
    const country = regionByCode(trimmed);
    if (country) return country;
  }
  const known = regionOrAmbiguity(trimmed);
  if (known !== undefined) return known ?? undefined;
  if (dropsNoise(trimmed)) return undefined;
  return wideListRegion(trimmed);
}
