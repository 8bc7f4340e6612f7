import { calendarDate, parseFeature, validateRecord } from '../../src/imagery/imagery-feature';
import { photoDetails } from '../helpers/photo-details';

const valid = () => ({
  type: 'Feature',
  id: 'D39B5E69-6291-46FC-A2F8-5947A7E024EE',
  geometry: { type: 'Point', coordinates: [9.1716206, 48.7689436] },
  properties: {
    address: ' Tübinger Straße, Stuttgart ',
    captured_at: '2024-07-09T10:11:12+02:00',
    heading: 29.9,
    interactive: true,
    image_url: 'https://images.example/1.jpg',
  },
});

describe('parseFeature', () => {
  it('accepts a valid feature and normalizes it', () => {
    expect(parseFeature(valid())).toEqual({
      ok: true,
      record: {
        id: 'd39b5e69-6291-46fc-a2f8-5947a7e024ee',
        address: 'Tübinger Straße, Stuttgart',
        addressOrigin: 'own',
        source: null,
        capturedAt: '2024-07-09',
        heading: 29.9,
        interactive: true,
        imageUrl: 'https://images.example/1.jpg',
        lon: 9.1716206,
        lat: 48.7689436,
      },
    });
  });

  it('derives a stable id from content when the feature has none', () => {
    const a = valid() as any;
    delete a.id;
    const first = parseFeature(a);
    const second = parseFeature(JSON.parse(JSON.stringify(a)));
    expect(first.ok && second.ok && first.record.id === second.record.id).toBe(true);
    a.properties.heading = 30;
    const third = parseFeature(a);
    expect(first.ok && third.ok && first.record.id !== third.record.id).toBe(true);
  });

  it('defaults interactive to false and accepts relative image paths', () => {
    const f = valid() as any;
    delete f.properties.interactive;
    f.properties.image_url = '/images/1.jpg';
    expect(parseFeature(f)).toMatchObject({ ok: true, record: { interactive: false, imageUrl: '/images/1.jpg' } });
  });

  it.each([
    ['missing', (f: any) => delete f.properties.address],
    ['null', (f: any) => (f.properties.address = null)],
    ['blank', (f: any) => (f.properties.address = '  ')],
    ['only NULs', (f: any) => (f.properties.address = '\u0000\u0000')],
  ])('takes a %s address as none (one is recovered from places on import)', (_name, mutate) => {
    const f = valid() as any;
    mutate(f);
    f.properties.address_origin = 'street';
    expect(parseFeature(f)).toMatchObject({ ok: true, record: { address: null, addressOrigin: 'own', source: null } });
  });

  it('reads the address origin and the source of an exported record', () => {
    const f = valid() as any;
    f.properties.address_origin = 'locality';
    f.properties.source = 'survey 2019';
    expect(parseFeature(f)).toMatchObject({ ok: true, record: { addressOrigin: 'locality', source: 'survey 2019' } });
  });

  const cases: Array<[string, (f: any) => void, string]> = [
    ['not a feature', (f) => (f.type = 'FeatureCollection'), 'type'],
    [
      'a line',
      (f) =>
        (f.geometry = {
          type: 'LineString',
          coordinates: [
            [0, 0],
            [1, 1],
          ],
        }),
      'geometry',
    ],
    ['string coordinates', (f) => (f.geometry.coordinates = ['9.1', '48.7']), 'geometry.coordinates'],
    ['longitude out of range', (f) => (f.geometry.coordinates = [181, 10]), 'geometry.coordinates'],
    ['latitude out of range', (f) => (f.geometry.coordinates = [10, -90.5]), 'geometry.coordinates'],
    ['no properties', (f) => delete f.properties, 'properties'],
    ['numeric address', (f) => (f.properties.address = 12), 'address'],
    ['missing date', (f) => delete f.properties.captured_at, 'captured_at'],
    ['impossible date', (f) => (f.properties.captured_at = '2021-02-30'), 'captured_at'],
    ['non-ISO date', (f) => (f.properties.captured_at = '09/10/2015'), 'captured_at'],
    ['missing heading', (f) => delete f.properties.heading, 'heading'],
    ['heading of 360', (f) => (f.properties.heading = 360), 'heading'],
    ['negative heading', (f) => (f.properties.heading = -0.1), 'heading'],
    ['string heading', (f) => (f.properties.heading = '90'), 'heading'],
    ['string interactive', (f) => (f.properties.interactive = 'yes'), 'interactive'],
    ['missing image', (f) => delete f.properties.image_url, 'image_url'],
    ['ftp image', (f) => (f.properties.image_url = 'ftp://x/y.jpg'), 'image_url'],
    ['javascript image', (f) => (f.properties.image_url = 'javascript:alert(1)'), 'image_url'],
    ['image URL with a NUL', (f) => (f.properties.image_url = 'https://x.test/a\u0000.jpg'), 'image_url'],
    ['image URL with a newline', (f) => (f.properties.image_url = 'https://x.test/a\nb.jpg'), 'image_url'],
    ['an unknown address origin', (f) => (f.properties.address_origin = 'guessed'), 'address_origin'],
    ['a source with a newline', (f) => (f.properties.source = 'a\nb'), 'source'],
    ['a numeric source', (f) => (f.properties.source = 7), 'source'],
    ['address too long', (f) => (f.properties.address = 'a'.repeat(1001)), 'address'],
    ['NaN coordinates', (f) => (f.geometry.coordinates = [NaN, 1]), 'geometry.coordinates'],
    ['boolean as string heading', (f) => (f.properties.heading = true), 'heading'],
    ['non-uuid id', (f) => (f.id = 42), 'id'],
  ];
  it.each(cases)('rejects %s', (_name, mutate, field) => {
    const f = valid();
    mutate(f);
    const result = parseFeature(f);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.rejection.field).toBe(field);
  });
});

describe('calendarDate', () => {
  it.each([
    ['2015-09-10', '2015-09-10'],
    ['2015-09-10T23:59:59Z', '2015-09-10'],
    ['2015-09-10T23:30:00-11:00', '2015-09-10'],
    ['2024-02-29', '2024-02-29'],
    ['2023-02-29', null],
    ['2015-13-01', null],
    ['2015-09-10T25:00', null],
    ['yesterday', null],
  ])('%s -> %s', (input, expected) => expect(calendarDate(input)).toBe(expected));
});

describe('validateRecord (flat formats such as CSV)', () => {
  const raw = () => ({
    address: 'Main St 1',
    captured_at: '2020-02-29',
    heading: 0,
    image_url: '/a.jpg',
    lon: 180,
    lat: -90,
  });

  it('accepts a record at the edges of every range', () => {
    expect(validateRecord(raw())).toMatchObject({
      ok: true,
      record: { lon: 180, lat: -90, heading: 0, interactive: false },
    });
  });

  it.each([
    ['lon', { lon: undefined }, 'longitude is required'],
    ['lon', { lon: -180.0001 }, 'longitude must be between -180 and 180'],
    ['lat', { lat: undefined }, 'latitude is required'],
    ['lat', { lat: 90.5 }, 'latitude must be between -90 and 90'],
    ['captured_at', { captured_at: undefined }, 'is required and must be an ISO 8601 date or date-time'],
    ['heading', { heading: undefined }, 'is required and must be a number of degrees'],
    ['image_url', { image_url: 'https://' }, 'must be an absolute http(s) URL or a relative path'],
  ])('names the column: %s %j', (field, change, reason) => {
    expect(validateRecord({ ...raw(), ...change })).toEqual({ ok: false, rejection: { field, reason } });
  });

  it('gives the same content-derived id as the same record in GeoJSON', () => {
    const flat = validateRecord(raw());
    const geo = parseFeature({
      type: 'Feature',
      geometry: { type: 'Point', coordinates: [180, -90] },
      properties: { address: 'Main St 1', captured_at: '2020-02-29', heading: 0, image_url: '/a.jpg' },
    });
    expect(flat.ok && geo.ok && flat.record.id === geo.record.id).toBe(true);
  });
});

describe('a record without a heading', () => {
  const record = (heading: unknown, photo?: object) => {
    const f = valid() as any;
    f.properties.heading = heading;
    if (photo) f.properties.photo = photo;
    return parseFeature(f);
  };
  const none = () => photoDetails({ headingOrigin: 'none', headingReference: null });

  it('is a photo that gave no direction (headingOrigin none): its heading is null', () => {
    for (const heading of [null, undefined]) {
      expect(record(heading, none())).toMatchObject({ ok: true, record: { heading: null } });
    }
  });

  it('is refused for every other record, and such a photo refuses a heading', () => {
    const required = {
      ok: false,
      rejection: { field: 'heading', reason: 'is required and must be a number of degrees' },
    };
    expect(record(null)).toEqual(required);
    expect(record(null, photoDetails())).toEqual(required);
    expect(record(0, none())).toEqual({
      ok: false,
      rejection: { field: 'heading', reason: 'must be null for a photo whose photo.headingOrigin is none' },
    });
  });
});
