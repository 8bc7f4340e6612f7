import { countryName, formatAddress, placeLabel } from '../../src/places/place-label';
import { importanceFromPopulation } from '../../src/places/gazetteer/place-importance';
import { MAX_NAME_LENGTH, RawPlace, validatePlace } from '../../src/places/place-validation';

const defaults = { source: 'test' };
const ok = (raw: RawPlace, d: { source: string; countryCode?: string } = defaults) => {
  const result = validatePlace(raw, d);
  if (!result.ok) throw new Error(`rejected: ${result.rejection.field} ${result.rejection.reason}`);
  return result.place;
};
const rejection = (raw: RawPlace) => {
  const result = validatePlace(raw, defaults);
  return result.ok ? undefined : result.rejection;
};

describe('place labels', () => {
  it.each([
    [
      'LI',
      { housenumber: '35', street: 'Herrengasse', postcode: '9490', locality: 'Vaduz' },
      'Herrengasse 35, 9490 Vaduz',
    ],
    [
      'US',
      { housenumber: '123', street: 'Main Street', postcode: '62701', locality: 'Springfield', regionCode: 'US-IL' },
      '123 Main Street, Springfield, IL 62701',
    ],
    [
      'FR',
      { housenumber: '12', street: 'Rue de la Paix', postcode: '75002', locality: 'Paris' },
      '12 Rue de la Paix, 75002 Paris',
    ],
    [
      'DE',
      { housenumber: '5', street: 'Königstraße', postcode: '70173', locality: 'Stuttgart' },
      'Königstraße 5, 70173 Stuttgart',
    ],
  ])('writes an address as %s does, without the country', (countryCode, parts, label) => {
    expect(formatAddress({ ...parts, countryCode })).toBe(label);
  });

  it('gives the same label from the cached street template as from the formatter', () => {
    const parts = {
      street: 'Main Street',
      postcode: '62701',
      locality: 'Springfield',
      regionCode: 'US-IL',
      countryCode: 'US',
    };
    expect(['1', '2b', '$&', '10-12'].map((housenumber) => formatAddress({ ...parts, housenumber }))).toEqual([
      '1 Main Street, Springfield, IL 62701',
      '2b Main Street, Springfield, IL 62701',
      '$& Main Street, Springfield, IL 62701',
      '10-12 Main Street, Springfield, IL 62701',
    ]);
  });

  it('labels each kind', () => {
    expect(
      placeLabel({ kind: 'street', name: 'Herrengasse', postcode: '9490', locality: 'Vaduz', countryCode: 'LI' }),
    ).toBe('Herrengasse, 9490 Vaduz');
    expect(placeLabel({ kind: 'street', name: 'Herrengasse', countryCode: 'LI' })).toBe('Herrengasse');
    expect(placeLabel({ kind: 'locality', name: 'Springfield', region: 'Illinois', countryCode: 'US' })).toBe(
      'Springfield, Illinois, United States',
    );
    expect(placeLabel({ kind: 'locality', name: 'Vaduz', region: 'Vaduz', countryCode: 'LI' })).toBe(
      'Vaduz, Liechtenstein',
    );
    expect(placeLabel({ kind: 'region', name: 'Illinois', region: 'Illinois', countryCode: 'US' })).toBe(
      'Illinois, United States',
    );
    expect(placeLabel({ kind: 'country', name: 'Liechtenstein', countryCode: 'LI' })).toBe('Liechtenstein');
    expect(placeLabel({ kind: 'poi', name: 'Kunstmuseum', countryCode: 'LI' })).toBe('Kunstmuseum'); // no stray "LI"
    expect(placeLabel({ kind: 'postcode', name: '9490', postcode: '9490', locality: 'Vaduz', countryCode: 'LI' })).toBe(
      '9490 Vaduz',
    );
  });

  it('names the hamlet, village, suburb... between the street and the town, finest first, each once', () => {
    const steinort = {
      housenumber: '5',
      street: 'Steinort',
      postcode: '9497',
      locality: 'Triesenberg',
      countryCode: 'LI',
    };
    const hierarchy = { hamlet: 'Silum', village: 'Steg', suburb: 'Steg', city: 'Vaduz' };
    expect(placeLabel({ kind: 'address', name: 'Steinort 5', ...steinort, hierarchy })).toBe(
      'Steinort 5, Silum, Steg, 9497 Triesenberg', // the city is the town line's; Steg once
    );
    // Twice the same house of a street: the template cache keeps the hierarchy apart.
    expect(placeLabel({ kind: 'address', name: 'Steinort 5', ...steinort, hierarchy: { hamlet: 'Masescha' } })).toBe(
      'Steinort 5, Masescha, 9497 Triesenberg',
    );
    // Not the street (addr:place) nor the locality or municipality again.
    expect(
      placeLabel({
        kind: 'address',
        name: 'Silum 6',
        ...steinort,
        housenumber: '6',
        street: 'Silum',
        hierarchy: { hamlet: 'Silum' },
      }),
    ).toBe('Silum 6, 9497 Triesenberg');
    expect(
      placeLabel({
        kind: 'street',
        name: 'Landstrasse',
        countryCode: 'US',
        locality: 'Springfield',
        regionCode: 'US-IL',
        hierarchy: { neighbourhood: 'Downtown' },
      }),
    ).toBe('Landstrasse, Downtown, Springfield, IL');
    // No town line: the hierarchy ends the label.
    expect(
      placeLabel({
        kind: 'address',
        name: 'Feldweg 3',
        housenumber: '3',
        street: 'Feldweg',
        countryCode: 'LI',
        hierarchy: { village: 'Steg' },
      }),
    ).toBe('Feldweg 3, Steg');
    expect(
      placeLabel({
        kind: 'postcode',
        name: '9497',
        postcode: '9497',
        countryCode: 'LI',
        hierarchy: { village: 'Steg' },
      }),
    ).toBe('9497');
  });

  it('names countries in English, and nothing for unknown codes', () => {
    expect([countryName('li'), countryName('XY'), countryName('ZZ'), countryName(null)]).toEqual([
      'Liechtenstein',
      null,
      null,
      null,
    ]);
  });
});

describe('place validation', () => {
  const address = { kind: 'address', housenumber: '35', street: 'Herrengasse', lon: 9.52, lat: 47.14 };

  it('names an unnamed address by street and number, and derives its id from source and content', () => {
    const place = ok({ ...address, country_code: 'li' });
    expect(place).toMatchObject({ name: 'Herrengasse 35', countryCode: 'LI', importance: 0.02, altNames: '' });
    expect(place.sourceId).toMatch(/^sha1:[0-9a-f]{40}$/);
    expect(ok({ ...address, country_code: 'li' }).id).toBe(place.id);
    expect(ok({ ...address, housenumber: '36' }).id).not.toBe(place.id);
  });

  it('takes the file country only when the record has none, else the region code country', () => {
    expect(ok(address, { source: 's', countryCode: 'LI' }).countryCode).toBe('LI');
    expect(ok({ ...address, country_code: 'CH' }, { source: 's', countryCode: 'LI' }).countryCode).toBe('CH');
    expect(ok({ ...address, region_code: 'us-il' }).countryCode).toBe('US');
  });

  it('gives importance from population, else by kind; countries never below their kind', () => {
    expect(importanceFromPopulation(0)).toBe(0);
    expect(importanceFromPopulation(5229)).toBeCloseTo(0.4958, 4);
    expect(importanceFromPopulation(100_000_000)).toBe(1);
    expect(ok({ kind: 'locality', name: 'A', lon: 0, lat: 0, population: 999 }).importance).toBeCloseTo(0.4, 10);
    expect(ok({ kind: 'locality', name: 'A', lon: 0, lat: 0 }).importance).toBe(0.3);
    expect(ok({ kind: 'country', name: 'Liechtenstein', lon: 0, lat: 0, population: 37132 }).importance).toBe(1);
    expect(ok({ kind: 'region', name: 'Oberland', lon: 0, lat: 0, population: 20_000 }).importance).toBe(0.8);
  });

  it('finds areas, not addresses, by the names and codes of their region and country too', () => {
    const springfield = ok({
      kind: 'locality',
      name: 'Springfield',
      region_code: 'US-IL',
      alt_names: 'Capital City',
      lon: -89.65,
      lat: 39.8,
    });
    const words = springfield.altNames.split(' ');
    expect(springfield.altNames.startsWith('Capital City ')).toBe(true);
    expect(words).toEqual(expect.arrayContaining(['IL', 'US-IL', 'US', 'USA']));
    expect(springfield.label).toBe('Springfield, Illinois, United States');
    expect(ok({ ...address, region_code: 'US-IL', alt_names: 'Old Mill' }).altNames).toBe('Old Mill');
  });

  it.each([
    [
      { ...address, kind: 'town' },
      'kind',
      'is required and must be one of country, region, locality, postcode, street, address, poi',
    ],
    [{ ...address, lon: 181 }, 'lon', 'longitude must be between -180 and 180'],
    [{ ...address, lat: '47' }, 'lat', 'latitude is required and must be a number'],
    [{ ...address, housenumber: undefined }, 'housenumber', 'is required for an address'],
    [{ ...address, street: ' ' }, 'street', 'an address needs a street or a locality'],
    [{ kind: 'locality', lon: 0, lat: 0 }, 'name', 'is required for a locality'],
    [
      { kind: 'locality', name: 'x'.repeat(MAX_NAME_LENGTH + 1), lon: 0, lat: 0 },
      'name',
      `must be at most ${MAX_NAME_LENGTH} characters`,
    ],
    [{ kind: 'locality', name: { de: 'Wien' }, lon: 0, lat: 0 }, 'name', 'must be a string'],
    [{ ...address, country_code: 'LIE' }, 'country_code', 'must be an ISO 3166 code like "LI", got "LIE"'],
    [{ ...address, population: -1 }, 'population', 'must be a whole number of at least 0'],
    [{ ...address, importance: 2 }, 'importance', 'must be a number from 0 to 1'],
    [{ ...address, alt_names: [1, 2] }, 'alt_names', 'must be a string (or an array of strings)'],
    [{ ...address, id: '   ' }, 'id', 'must not be blank'],
  ])('rejects %j: %s %s', (raw, field, reason) => {
    expect(rejection(raw as RawPlace)).toEqual({ field, reason });
  });

  it('drops control characters and folds whitespace', () => {
    expect(ok({ kind: 'locality', name: ' Vaduz\u0000 \n Oberdorf ', lon: 0, lat: 0 }).name).toBe('Vaduz Oberdorf');
  });
});
