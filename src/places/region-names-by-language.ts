import { readFileSync } from 'node:fs';

// Country and first-level region names in other languages: countries from CLDR through Node's own ICU
// (Intl.DisplayNames, every language it has), ISO 3166-2 regions from iso3166-2-db's translations (MIT;
// the languages below, each file read the first time a search asks for it).

// iso3166-2-db's files by BCP 47 language ("kr" is its name for Korean).
const REGION_FILES: Readonly<Record<string, string>> = {
  am: 'am',
  ar: 'ar',
  bi: 'bi',
  bn: 'bn',
  da: 'da',
  de: 'de',
  en: 'en',
  es: 'es',
  fr: 'fr',
  he: 'he',
  hi: 'hi',
  it: 'it',
  ja: 'ja',
  ko: 'kr',
  pt: 'pt',
  ru: 'ru',
  zh: 'zh',
};

interface Iso3166Country {
  regions?: Array<{ iso: string; name: string }>;
}

const regionNames = new Map<string, Map<string, string>>();
const countryNames = new Map<string, Intl.DisplayNames | null>();

/** A country's name (ISO 3166-1 alpha-2) in the first of the languages that has one. */
export function countryNameIn(code: string, languages: readonly string[]): string | undefined {
  for (const language of languages) {
    const name = displayNamesOf(language)?.of(code.toUpperCase());
    if (name) return name;
  }
  return undefined;
}

/** A first-level region's name (ISO 3166-2, "DE-BY") in the first of the languages that has one. */
export function regionNameIn(code: string, languages: readonly string[]): string | undefined {
  for (const language of languages) {
    const name = regionsIn(language)?.get(code.toUpperCase());
    if (name) return name;
  }
  return undefined;
}

function displayNamesOf(language: string): Intl.DisplayNames | null {
  if (!countryNames.has(language)) {
    const supported = Intl.DisplayNames.supportedLocalesOf([language]).length > 0;
    countryNames.set(
      language,
      supported ? new Intl.DisplayNames([language], { type: 'region', fallback: 'none' }) : null,
    );
  }
  return countryNames.get(language) ?? null;
}

function regionsIn(language: string): Map<string, string> | undefined {
  const file = REGION_FILES[language];
  if (file === undefined) return undefined;
  let names = regionNames.get(file);
  if (!names) {
    const path = require.resolve(`iso3166-2-db/i18n/${file}.json`);
    const countries = JSON.parse(readFileSync(path, 'utf8')) as Record<string, Iso3166Country>;
    names = new Map();
    for (const [country, { regions }] of Object.entries(countries)) {
      for (const region of regions ?? []) names.set(`${country}-${region.iso}`.toUpperCase(), region.name);
    }
    regionNames.set(file, names);
  }
  return names;
}
