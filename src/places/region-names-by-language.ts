import byLanguage from './gazetteer/region-names-by-language.json';

// Country and first-level region names in other languages: countries from CLDR through Node's own ICU
// (Intl.DisplayNames, every language it has), ISO 3166-2 regions from iso3166-2-db's names (MIT; its
// languages, committed as gazetteer/region-names-by-language.json by `npm run gazetteer:regions`, only
// where a name differs from the English one).

const REGION_LINES = (byLanguage as { languages: Record<string, string> }).languages;
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
  const lines = REGION_LINES[language];
  if (!lines) return undefined;
  let names = regionNames.get(language);
  if (!names) {
    names = new Map(lines.split('\n').map((line) => line.split('\t') as [string, string]));
    regionNames.set(language, names);
  }
  return names;
}
