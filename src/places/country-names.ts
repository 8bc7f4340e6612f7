import type * as IsoCountries from 'i18n-iso-countries';

// Countries' codes and names from i18n-iso-countries (MIT), each language's names registered when
// first asked for. The package's own entry registers all 78 of them at load, about 9 MB of resident
// memory in every process (docs/operations.md#memory), where a search asks a handful.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const library = require('i18n-iso-countries/index') as typeof IsoCountries;
// eslint-disable-next-line @typescript-eslint/no-require-imports
const SUPPORTED = new Set(require('i18n-iso-countries/supportedLocales.json') as string[]);
const registered = new Set<string>();

function withLocale(lang: string): void {
  if (registered.has(lang)) return;
  registered.add(lang);
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  if (SUPPORTED.has(lang)) library.registerLocale(require(`i18n-iso-countries/langs/${lang}.json`));
}

const getName = ((code: string, lang: string, options?: IsoCountries.GetNameOptions) => {
  withLocale(lang);
  return options ? library.getName(code, lang, options) : library.getName(code, lang);
}) as typeof IsoCountries.getName;

/** The package's functions this project uses, with their own signatures. */
export const isoCountries = {
  getName,
  getAlpha2Codes: () => library.getAlpha2Codes(),
  alpha2ToAlpha3: (alpha2: string) => library.alpha2ToAlpha3(alpha2),
  alpha3ToAlpha2: (alpha3: string) => library.alpha3ToAlpha2(alpha3),
};
