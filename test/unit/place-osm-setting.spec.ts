import { interpolatedAddresses, MAX_INTERPOLATED } from '../../src/places/formats/osm-interpolation';
import { MAX_LINE_VERTICES, streetLine } from '../../src/places/place-geometry';
import { areasFromOsm } from '../../src/places/formats/osm-areas';
import { OsmContext } from '../../src/places/formats/osm-context';
import { settlePlace } from '../../src/places/formats/osm-setting';
import { placesFromOsm } from '../../src/places/formats/osm-tags';
import type { PointSetting } from '../../src/places/place-area-session';
import type { RawPlace } from '../../src/places/place-validation';

const POLYGON = {
  type: 'Polygon',
  coordinates: [
    [
      [9.5, 47.1],
      [9.6, 47.1],
      [9.6, 47.2],
      [9.5, 47.1],
    ],
  ],
};
const POINT = { type: 'Point', coordinates: [9.5, 47.1] };
const LINE = {
  type: 'LineString',
  coordinates: [
    [9.5, 47.1],
    [9.6, 47.2],
  ],
};
const NOWHERE: PointSetting = {
  postcode: null,
  municipality: null,
  region: null,
  regionCode: null,
  countryCode: null,
  district: null,
  hierarchy: null,
  street: null,
  nearPostcode: null,
  municipalityPostcode: null,
};

describe('what says where OpenStreetMap places lie', () => {
  it('keeps named administrative areas with their level, and codes only where ISO 3166 puts them', () => {
    const area = (tags: Record<string, string>, geometry: object = POLYGON) =>
      areasFromOsm(tags, geometry).map((a) => [a.kind, a.level, a.name, a.code, a.postcode, a.placeType]);
    expect(area({ boundary: 'administrative', admin_level: '2', name: 'Liechtenstein', 'ISO3166-1': 'li' })).toEqual([
      ['admin', 2, 'Liechtenstein', 'LI', null, null],
    ]);
    expect(area({ boundary: 'administrative', admin_level: '4', name: 'Bayern', 'ISO3166-2': 'DE-BY' })).toEqual([
      ['admin', 4, 'Bayern', 'DE-BY', null, null],
    ]);
    expect(area({ boundary: 'administrative', admin_level: '8', name: 'Vaduz', 'ISO3166-1': 'LI' })).toEqual([
      ['admin', 8, 'Vaduz', null, null, null],
    ]);
    // A boundary drawn as a line, one without a name or a level: nothing.
    expect(area({ boundary: 'administrative', admin_level: '8', name: 'Vaduz' }, LINE)).toEqual([]);
    expect(area({ boundary: 'administrative', admin_level: '8' })).toEqual([]);
    expect(area({ boundary: 'administrative', name: 'Oberland' })).toEqual([]);
    expect(area({ boundary: 'postal_code', postal_code: '9497' })).toEqual([
      ['postal', null, null, null, '9497', null],
    ]);
    expect(area({ place: 'hamlet', name: 'Silum' }, POINT)).toEqual([
      ['place_node', null, 'Silum', null, null, 'hamlet'],
    ]);
    expect(area({ place: 'suburb', name: 'Ebenholz' })).toEqual([
      ['place_area', null, 'Ebenholz', null, null, 'suburb'],
    ]);
    // Towns are localities, not districts, but the city part of the hierarchy; a platform is no street.
    expect(area({ place: 'town', name: 'Vaduz' }, POINT)).toEqual([['place_node', null, 'Vaduz', null, null, 'town']]);
    expect(area({ place: 'county', name: 'Oberland' }, POINT)).toEqual([]);
    expect(area({ highway: 'residential', name: 'Kirchweg' }, LINE)).toEqual([
      ['street', null, 'Kirchweg', null, null, null],
    ]);
    expect(area({ highway: 'platform', name: 'Gleis 1' }, LINE)).toEqual([]);
    expect(area({ 'addr:postcode': '9490', building: 'yes' })).toEqual([['postcode', null, null, null, '9490', null]]);
  });
});

describe('OpenStreetMap tags: every address, and names worth finding', () => {
  const kinds = (tags: Record<string, string>, line = false) =>
    placesFromOsm('n1', tags, 9.5, 47.1, line).map((p) => [p.id, p.place.kind, p.place.street, p.place.district]);

  it('makes an address of every house number, with or without a street', () => {
    expect(kinds({ 'addr:housenumber': '3' })).toEqual([['n1', 'address', undefined, undefined]]);
    expect(kinds({ 'addr:housenumber': '6', 'addr:place': 'Silum' })).toEqual([['n1', 'address', 'Silum', undefined]]);
    // addr:place beside addr:street names the hamlet the street is in.
    expect(kinds({ 'addr:housenumber': '6', 'addr:street': 'Sücka', 'addr:place': 'Steg' })).toEqual([
      ['n1', 'address', 'Sücka', 'Steg'],
    ]);
  });

  it('makes points of interest of named peaks, waters, rivers, parks and monuments, not of trees', () => {
    expect(kinds({ natural: 'peak', name: 'Kuhgrat' })).toEqual([['n1', 'poi', undefined, undefined]]);
    expect(kinds({ waterway: 'river', name: 'Rhein' }, true)).toEqual([['n1', 'poi', undefined, undefined]]);
    expect(kinds({ leisure: 'park', name: 'Rathauspark' })).toEqual([['n1', 'poi', undefined, undefined]]);
    expect(kinds({ historic: 'castle', name: 'Schloss Vaduz' })).toEqual([['n1', 'poi', undefined, undefined]]);
    expect(kinds({ natural: 'tree', name: 'Dorflinde' })).toEqual([]);
    expect(kinds({ natural: 'peak' })).toEqual([]);
  });
});

describe('settling a place where it lies', () => {
  const settle = (place: RawPlace, setting: Partial<PointSetting>, context = new OsmContext()) => {
    const kept = settlePlace(place, { ...NOWHERE, ...setting }, context);
    return kept ? place : null;
  };
  const address = (fields: Partial<RawPlace> = {}): RawPlace => ({
    kind: 'address',
    housenumber: '5',
    lon: 9.5,
    lat: 47.1,
    ...fields,
  });

  it('takes each part from the record first, then the boundaries, then what is near', () => {
    const inVaduz = { municipality: 'Vaduz', countryCode: 'LI', postcode: '9490', district: 'Ebenholz' };
    expect(settle(address({ street: 'Herrengasse' }), inVaduz)).toMatchObject({
      locality: 'Vaduz',
      municipality: 'Vaduz',
      postcode: '9490',
      country_code: 'LI',
      district: 'Ebenholz',
    });
    expect(
      settle(address({ street: 'Herrengasse', locality: 'Schaan', postcode: '9494', country_code: 'CH' }), inVaduz),
    ).toMatchObject({ locality: 'Schaan', postcode: '9494', country_code: 'CH', municipality: 'Vaduz' });
    // No postal area: an address on the same street (learnt earlier), else the nearest postcode.
    const context = new OsmContext();
    context.learn(
      { kind: 'address', street: 'Herrengasse', locality: 'Vaduz', postcode: '9490', lon: 9.5, lat: 47.1 },
      undefined,
    );
    expect(settle(address({ street: 'Herrengasse' }), { nearPostcode: '9999' }, context)).toMatchObject({
      postcode: '9490',
    });
    expect(settle(address({ street: 'Kirchweg' }), { nearPostcode: '9999' })).toMatchObject({ postcode: '9999' });
    expect(settle(address({ street: 'Kirchweg' }), { municipalityPostcode: '9497' })).toMatchObject({
      postcode: '9497',
    });
  });

  it('gives an address without a street the nearest street, else its district; drops one with nothing', () => {
    expect(settle(address(), { street: 'Landstrasse', district: 'Silum' })).toMatchObject({ street: 'Landstrasse' });
    expect(settle(address(), { district: 'Silum', municipality: 'Triesenberg' })).toMatchObject({
      street: 'Silum',
      locality: 'Triesenberg',
    });
    expect(settle(address(), {})).toBeNull();
  });

  it('gives a region its code and a locality its country, but never a municipality its own name', () => {
    const region = { region: 'Bayern', regionCode: 'DE-BY', countryCode: 'DE', municipality: 'Vaduz' };
    const vaduz = settle({ kind: 'locality', name: 'Vaduz', lon: 9.5, lat: 47.1 }, region);
    expect(vaduz).toMatchObject({ region: 'Bayern', region_code: 'DE-BY', country_code: 'DE' });
    expect(vaduz!.municipality).toBeUndefined();
  });
});

describe('street lines', () => {
  it('keeps a line or multi-line of positions in range, and nothing for anything else', () => {
    const line = {
      type: 'LineString',
      coordinates: [
        [9.5, 47.1],
        [9.6, 47.2, 450],
      ],
    };
    expect(streetLine(line)).toBe('{"type":"LineString","coordinates":[[9.5,47.1],[9.6,47.2]]}');
    expect(
      JSON.parse(streetLine({ type: 'MultiLineString', coordinates: [line.coordinates, line.coordinates] })!),
    ).toMatchObject({
      type: 'MultiLineString',
    });
    expect(streetLine({ type: 'LineString', coordinates: [[9.5, 47.1]] })).toBeNull();
    expect(
      streetLine({
        type: 'LineString',
        coordinates: [
          [9.5, 47.1],
          [200, 47.2],
        ],
      }),
    ).toBeNull();
    expect(
      streetLine({
        type: 'LineString',
        coordinates: [
          [9.5, 47.1],
          ['9.6', 47.2],
        ],
      }),
    ).toBeNull();
    expect(streetLine({ type: 'Point', coordinates: [9.5, 47.1] })).toBeNull();
    const long = Array.from({ length: MAX_LINE_VERTICES + 1 }, (_, i) => [9.5 + i * 1e-6, 47.1]);
    expect(streetLine({ type: 'LineString', coordinates: long })).toBeNull();
  });
});

describe('one OSM object, several places', () => {
  it('gives a way that is both a street and an address two ids', () => {
    const tags = { highway: 'service', name: 'Zollstrasse', 'addr:housenumber': '7' };
    expect(placesFromOsm('w5', tags, 9.5, 47.1, true).map((p) => [p.id, p.place.kind])).toEqual([
      ['w5', 'address'],
      ['w5:street', 'street'],
    ]);
  });
});

describe('addr:interpolation', () => {
  const line: Array<[number, number]> = [
    [9.5, 47.1],
    [9.5, 47.2],
  ];
  const end = (housenumber: string, street = 'Feldstrasse') => ({ housenumber, street });
  const numbers = (kind: string, a: string, b: string, street?: string) =>
    interpolatedAddresses(kind, line, end(a), end(b, street)).map((x) => [x.housenumber, x.place.lat]);

  it('makes the numbers strictly between the ends, in either direction, by the step', () => {
    expect(numbers('even', '2', '8')).toEqual([
      ['4', expect.closeTo(47.1333, 3)],
      ['6', expect.closeTo(47.1667, 3)],
    ]);
    expect(numbers('odd', '7', '1').map((n) => n[0])).toEqual(['3', '5']);
    expect(numbers('all', '1', '4').map((n) => n[0])).toEqual(['2', '3']);
    expect(numbers('3', '1', '10').map((n) => n[0])).toEqual(['4', '7']);
  });

  it('makes nothing for letters, alphabetic lines, two streets or too many numbers', () => {
    expect(numbers('even', '2a', '8')).toEqual([]);
    expect(numbers('alphabetic', '2', '8')).toEqual([]);
    expect(numbers('even', '2', '8', 'Kirchweg')).toEqual([]);
    expect(numbers('all', '1', String(MAX_INTERPOLATED + 10))).toEqual([]);
  });
});
