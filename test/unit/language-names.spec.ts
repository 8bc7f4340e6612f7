import {
  languageTagOf,
  MAX_LANGUAGE_NAME_LENGTH,
  MAX_NAMES,
  osmNames,
  placeNamesOf,
} from '../../src/places/place-names';
import { localizedLabel, swapWholeWords } from '../../src/search/language/localized-label';
import { MAX_ACCEPTED_LANGUAGES, preferredLanguages } from '../../src/search/language/preferred-languages';

// Names by language: the tags taken, their bounds, the languages a request asks for, and the swap of a
// label's parts.
describe('names by language', () => {
  it('language tags: canonical and lower case; a primary language of two or three letters', () => {
    expect(languageTagOf('pt-BR')).toBe('pt-br');
    expect(languageTagOf('zh-Hant-TW')).toBe('zh-hant-tw');
    expect(languageTagOf('tok')).toBe('tok');
    for (const bad of ['prefix', 'etymology:wikidata', 'x', 'de_CH', 'de-', '', 'de-ch-toolongsubtag']) {
      expect(languageTagOf(bad)).toBeNull();
    }
  });

  it("a GeoJSON place's names: an object of tag to name, bounded, and refused with a reason", () => {
    expect(placeNamesOf({ DE: ' Köln ', ru: 'Кёльн', en: '' })).toEqual({ value: { de: 'Köln', ru: 'Кёльн' } });
    expect(placeNamesOf(undefined)).toEqual({ value: null });
    expect(placeNamesOf(['Köln'])).toEqual({ problem: 'must be an object of language tag to name' });
    expect(placeNamesOf({ deutsch: 'Köln' })).toEqual({ problem: 'has "deutsch", which is no language tag' });
    expect(placeNamesOf({ de: 5 })).toEqual({ problem: '.de must be a string' });
    expect(placeNamesOf({ de: 'x'.repeat(MAX_LANGUAGE_NAME_LENGTH + 1) })).toEqual({
      problem: `.de must be at most ${MAX_LANGUAGE_NAME_LENGTH} characters`,
    });
    const many = Object.fromEntries(
      Array.from({ length: MAX_NAMES + 1 }, (_, i) => [
        `a${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + (Math.floor(i / 26) % 26))}`,
        'n',
      ]),
    );
    expect(placeNamesOf(many)).toEqual({ problem: `may name at most ${MAX_NAMES} languages` });
  });

  it("an OpenStreetMap object's name:xx tags, leniently: what names no language is left out", () => {
    expect(
      osmNames({
        name: 'Vaduz',
        'name:ru': 'Вадуц',
        'name:prefix': 'Gemeinde',
        'name:zh-Hant': '瓦都茲',
        'name:el': ' ',
      }),
    ).toEqual({ ru: 'Вадуц', 'zh-hant': '瓦都茲' });
    expect(osmNames({ name: 'Vaduz' })).toBeUndefined();
  });

  it('the languages asked for: lang alone, else Accept-Language in its order, each with its fallbacks', () => {
    expect(preferredLanguages('de-CH', 'ja')).toEqual(['de-ch', 'de']);
    expect(preferredLanguages(undefined, 'ja;q=0.5, fr-CH, *;q=0.1, bogus!!')).toEqual(['fr-ch', 'fr', 'ja']);
    expect(preferredLanguages(undefined, undefined)).toEqual([]);
    const header = Array.from({ length: 12 }, (_, i) => `l${String.fromCharCode(97 + i)};q=0.${9 - (i % 9)}`).join(',');
    expect(preferredLanguages(undefined, header)).toHaveLength(MAX_ACCEPTED_LANGUAGES);
  });

  it('a label part is swapped where it stands as whole words, the longest first, in one pass', () => {
    const swaps = new Map([
      ['Vaduz', 'Вадуц'],
      ['Vaduz Strasse', 'Вадуц-штрассе'],
      ['Herrengasse', 'Херренгассе'],
    ]);
    expect(swapWholeWords('Herrengasse 35, 9490 Vaduz', swaps)).toBe('Херренгассе 35, 9490 Вадуц');
    expect(swapWholeWords('Vaduz Strasse 1, 9490 Vaduz', swaps)).toBe('Вадуц-штрассе 1, 9490 Вадуц');
    expect(swapWholeWords('Vaduzerstrasse 1, 9490 Vaduz', swaps)).toBe('Vaduzerstrasse 1, 9490 Вадуц');
    expect(swapWholeWords('Vaduz (FL)', new Map([['Vaduz (FL)', 'Вадуц']]))).toBe('Вадуц');
  });

  it("a part kept as stored keeps a town's name inside it", () => {
    const place = {
      id: 'a',
      kind: 'address' as const,
      name: 'im Malbun 20',
      label: 'im Malbun 20, 9497 Malbun',
      street: 'im Malbun',
      locality: 'Malbun',
      region: null,
      regionCode: null,
      countryCode: 'LI',
      names: null,
      streetNames: null,
      localityNames: { zh: '马尔邦' },
      regionNames: null,
    };
    expect(localizedLabel(place, ['zh'])).toBe('im Malbun 20, 9497 马尔邦');
    expect(localizedLabel(place, ['tlh', 'zh'])).toBe('im Malbun 20, 9497 马尔邦');
    expect(localizedLabel(place, ['ru'])).toBe('im Malbun 20, 9497 Malbun');
  });

  it("a territory's label names its sovereign in the language too", () => {
    const greenland = {
      id: 'g',
      kind: 'country' as const,
      name: 'Greenland',
      label: 'Greenland, Denmark',
      street: null,
      locality: null,
      region: null,
      regionCode: null,
      countryCode: 'GL',
      names: null,
      streetNames: null,
      localityNames: null,
      regionNames: null,
    };
    expect(localizedLabel(greenland, ['de'])).toBe('Grönland, Dänemark');
    expect(localizedLabel(greenland, ['fr'])).toBe('Groenland, Danemark');
  });
});
