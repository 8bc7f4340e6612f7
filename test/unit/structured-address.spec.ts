import { nameNearPoint } from '../../src/search/query/name-near-point';
import { interpretQuery } from '../../src/search/query/query-interpretation';
import { countryOfAddress, readStructuredAddress, regionOfAddress } from '../../src/search/query/structured-address';

describe('a structured address read at its levels', () => {
  it.each([
    ['LI', 'LI'],
    ['li', 'LI'],
    ['LIE', 'LI'],
    ['deu', 'DE'],
    ['Liechtenstein', 'LI'],
    ['Deutschland', 'DE'],
    ['Germany', 'DE'],
  ])('country %s is %s', (value, code) => {
    expect(countryOfAddress(value)?.code).toBe(code);
  });

  it.each(['XX', 'XYZ', 'Atlantis', 'Texas', 'US-TX', ''])('country %j is no country', (value) => {
    expect(countryOfAddress(value)).toBeUndefined();
  });

  it.each([
    ['US-TX', undefined, 'US-TX'],
    ['TX', 'US', 'US-TX'],
    ['Texas', 'US', 'US-TX'],
    ['Texas', undefined, 'US-TX'],
    ['Vaduz', 'LI', 'LI-11'],
    ['Bayern', 'DE', 'DE-BY'],
  ])('region %s (in %s) is %s', (value, country, code) => {
    expect(regionOfAddress(value, country)?.code).toBe(code);
  });

  it.each([
    ['US-TX', 'DE'],
    ['Bavaria', 'LI'],
    ['ZZ-99', undefined],
    ['LI', undefined],
  ])('region %s (in %s) is no region there', (value, country) => {
    expect(regionOfAddress(value, country)).toBeUndefined();
  });

  it('searches the parts as the words of an address, bound to the region, else the country', () => {
    const read = readStructuredAddress({
      housenumber: '35',
      street: 'Herrengasse',
      postcode: '9490',
      city: 'Vaduz',
      country: 'LI',
    });
    expect(read).toMatchObject({ text: 'Herrengasse 35, 9490 Vaduz', region: { code: 'LI', kind: 'country' } });
    expect(readStructuredAddress({ city: 'Austin', region: 'TX', country: 'US' }).region?.code).toBe('US-TX');
    expect(readStructuredAddress({ street: 'Herrengasse' }, 'Café Amann')).toMatchObject({
      text: 'Café Amann, Herrengasse',
      region: null,
    });
  });

  it('searches for the region itself when nothing else is given', () => {
    expect(readStructuredAddress({ country: 'LIE' }).text).toBe('Liechtenstein');
  });
});

describe('a name beside coordinates', () => {
  it.each([
    ['Gampriner Seelein, N 47.1° E 9.5°', 'Gampriner Seelein', 47.1, 9.5],
    ['Rhein 47.14,9.51', 'Rhein', 47.14, 9.51],
    ['47.14, 9.51 Rhein', 'Rhein', 47.14, 9.51],
    ['Schloss Vaduz 47.139N 9.524E', 'Schloss Vaduz', 47.139, 9.524],
    ['pharmacy near 47.14,9.52', 'pharmacy', 47.14, 9.52],
    ['Apotheke in der Nähe von 47.14, 9.52', 'Apotheke', 47.14, 9.52],
    ['47.14, 9.51 bei Rhein', 'Rhein', 47.14, 9.51],
    ['near 47.14,9.52', 'near', 47.14, 9.52],
  ])('%s is %s near %d,%d', (query, name, lat, lon) => {
    expect(nameNearPoint(query)).toMatchObject({ name, point: { lat, lon } });
  });

  it('searches as far as the precision typed leaves open, at least the default radius', () => {
    const tenth = nameNearPoint('Rhein 47.1, 9.5')!.radiusM;
    const hundredth = nameNearPoint('Rhein 47.14, 9.51')!.radiusM;
    expect(tenth).toBeGreaterThan(5_500);
    expect(hundredth).toBeGreaterThan(550);
    expect(hundredth).toBeLessThan(tenth);
    expect(nameNearPoint('Rhein 47.14271, 9.51123')!.radiusM).toBe(250);
  });

  it.each(['Herrengasse 35 9490', 'Landstrasse 12, 9494 Schaan', '47.14, 9.51', 'Route 66', 'Haus 1.5'])(
    '%s is no name beside coordinates',
    (query) => {
      expect(nameNearPoint(query)).toBeNull();
    },
  );

  it('is read as text searched near the point', () => {
    expect(interpretQuery('Gampriner Seelein, N 47.1° E 9.5°')).toMatchObject({
      kind: 'text',
      normalized: 'gampriner seelein',
      near: { lat: 47.1, lon: 9.5 },
    });
    expect(interpretQuery('47.1427, 9.5188').kind).toBe('coordinates');
  });
});
