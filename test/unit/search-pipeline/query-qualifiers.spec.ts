import { boundRegion, namedRegionOf } from '../../../src/search/query/named-region';
import { regionNamedAlone } from '../../../src/search/query/region-named-alone';
import { regionByCode } from '../../../src/places/regions';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildRegionAloneNames, renderRegionAloneNames } from '../../gazetteer/region-alone-names';

const named = (q: string) => {
  const n = namedRegionOf(q);
  return n && { code: n.region.code, rest: n.rest, words: n.words };
};

describe('namedRegionOf', () => {
  it.each([
    ['Dallas, Poland', 'PL', 'Dallas'],
    ['Tulsa, Kenya', 'KE', 'Tulsa'],
    ['Tulsa, OK', 'US-OK', 'Tulsa'],
    ['Springfield Illinois', 'US-IL', 'Springfield'],
    ['Vaduz, LIE', 'LI', 'Vaduz'],
    ['Vaduz, LI', 'LI', 'Vaduz'],
    ['Vaduz Liechtenstein', 'LI', 'Vaduz'],
    ['Berlin DEU', 'DE', 'Berlin'],
    ['Bern, Schweiz', 'CH', 'Bern'],
    ['Portland, US-OR', 'US-OR', 'Portland'],
    ['San Jose Costa Rica', 'CR', 'San Jose'],
    ['Springfield, Illinois, United States', 'US', 'Springfield, Illinois'],
    ['Wilson Road, AT', 'AT', 'Wilson Road'],
    ['Wilson Road, At.', 'AT', 'Wilson Road'],
  ])('%s names %s', (query, code, rest) => {
    expect(named(query)).toMatchObject({ code, rest });
  });

  it.each([
    ['Germany', 'the query is only the country: a place search'],
    ['Tulsa OK', 'two-letter codes count only after a comma'],
    ['Merritt Island', '"Island" is Iceland only in German: other languages only after a comma'],
    ['Rue de France', 'a name after a connecting word belongs to a street'],
    ['Berlin, DE', 'DE is Germany and Delaware'],
    ['Main Street, Georgia', 'Georgia is a country and a US state'],
    ['Beverly Hills, CA 90210', 'a postcode after the code is no region'],
    ['Herrengasse 35, 9490 Vaduz', 'no region named'],
    ['Wilson Road, At&t', 'At&t is a town: without its `t` glued to `&` (noise), "at" would be Austria'],
    ['Main Street, A&T', 'no word is left of it'],
  ])('%s names none (%s)', (query) => {
    expect(named(query)).toBeNull();
  });
});

describe('namedRegionOf: dotted initials', () => {
  it.each([
    ['Albany, N.Y.', 'US-NY', 'Albany'],
    ['Washington, D.C.', 'US-DC', 'Washington'],
    ['Austin, U.S.A.', 'US', 'Austin'],
  ])('%s is in %s', (q, code, rest) => expect(named(q)).toMatchObject({ code, rest }));
});

describe('namedRegionOf: the words after a comma that a name ends', () => {
  it('gives them whole when more words than the name are there ("South Jordan" may be a town)', () => {
    expect(namedRegionOf('Dogwood Shores, South Jordan')).toMatchObject({
      region: { code: 'JO' },
      rest: 'Dogwood Shores, South',
      part: 'South Jordan',
    });
    expect(namedRegionOf('Main Street, Springfield Illinois')).toMatchObject({ part: 'Springfield Illinois' });
    for (const query of ['Main Street, Jordan', 'Amman Jordan', 'Springfield, Illinois, United States'])
      expect(namedRegionOf(query)?.part).toBeUndefined();
  });
});

describe('boundRegion', () => {
  const region = (code: string) => regionByCode(code)!;
  it('keeps the narrower of the requested and the named region, and nothing when they do not meet', () => {
    expect(boundRegion(undefined, region('PL'))).toBe('PL');
    expect(boundRegion('US', region('US-TX'))).toBe('US-TX');
    expect(boundRegion('US-TX', region('US'))).toBe('US-TX');
    expect(boundRegion('US-TX', region('US-TX'))).toBe('US-TX');
    expect(boundRegion('US-TX', region('PL'))).toBeNull();
    expect(boundRegion('US-TX', region('US-OK'))).toBeNull();
  });
});

describe('regionNamedAlone', () => {
  it.each([
    ['DEU', 'DE'],
    ['JPN', 'JP'],
    ['DE', 'DE'],
    ['ca', 'CA'],
    ['Greenland', 'GL'],
    ['Grönland', 'GL'],
    ['Shqipëri', 'AL'],
    ['日本', 'JP'],
    ['Bayern', 'DE-BY'],
    ['Île-de-France', 'FR-IDF'],
    ['Texas', 'US-TX'],
    ['US-CA', 'US-CA'],
  ])('%s is %s', (text, code) => expect(regionNamedAlone(text)?.code).toBe(code));

  it.each(['Georgia', 'Springfield', 'Main Street', 'XX', 'At&t', ''])('%j names no single country or region', (text) =>
    expect(regionNamedAlone(text)).toBeUndefined(),
  );

  it('reads the committed wide lists that npm run gazetteer:region-names writes', () => {
    const file = join(__dirname, '..', '..', '..', 'src', 'search', 'query', 'region-alone-names.json');
    expect(readFileSync(file, 'utf8')).toBe(renderRegionAloneNames(buildRegionAloneNames()));
  });
});
